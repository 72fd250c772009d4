//! Reading a term's parameters and arguments, with errors that point at them.

use num_bigint::{BigInt, BigUint, Sign};

use crate::lang::{LangError, Span, Term, Value, ValueKind};
use crate::theory::cancel::stop_requested;
use crate::theory::limits::Limit;

/// The most heaps one range such as `1..1000` may expand to.
const MAX_RANGE_LENGTH: u64 = 10_000_000;

/// The bytes one heap size given in a term costs, counted against the memory
/// limit as ranges and files expand: its size and text here, the component
/// built from it, and what the sum's solver and the position's text hold for
/// it (about 200 bytes a heap for `nim(1..1000000)`, measured with heaptrack).
pub const BYTES_PER_GIVEN_SIZE: u64 = 256;

/// How many sizes a range expands between two looks at the deadline.
const SIZES_BETWEEN_CHECKS: usize = 4096;

/// Rejects parameters on a game that takes none.
///
/// # Errors
/// A [`LangError`] at the brackets' first parameter.
pub fn no_params(term: &Term) -> Result<(), LangError> {
    match term.params.first() {
        Some(param) => Err(LangError::new(
            format!("`{}` takes no parameters", term.name),
            param.value.span,
        )),
        None if term.has_brackets => Err(LangError::new(
            format!("`{}` takes no parameters", term.name),
            term.name_span,
        )),
        None => Ok(()),
    }
}

fn non_negative(value: &BigInt, span: Span, what: &str) -> Result<BigUint, LangError> {
    match value.sign() {
        Sign::Minus => Err(LangError::new(
            format!("{what} cannot be negative: {value}"),
            span,
        )),
        _ => Ok(value.magnitude().clone()),
    }
}

/// The heap sizes of a heap game's arguments: non-negative integers, ranges
/// `a..b` (every size from a to b), and `@FILE` (integers separated by blanks or
/// commas, `#` starting a comment).
///
/// # Errors
/// A [`LangError`] at the offending argument (and the line of a file).
pub fn heap_sizes(term: &Term, max_bytes: u64) -> Result<Vec<BigUint>, LangError> {
    Ok(heap_sizes_with_text(term, max_bytes)?
        .into_iter()
        .map(|size| size.value)
        .collect())
}

/// Whether `held` numbers of a term, the last of them made by `what` (a
/// range, a file), fit in `max_bytes` at [`BYTES_PER_GIVEN_SIZE`] each: the
/// memory limit's error at `span` otherwise, before they are made.
fn within_memory(what: &str, held: u64, max_bytes: u64, span: Span) -> Result<(), LangError> {
    let bytes = held.saturating_mul(BYTES_PER_GIVEN_SIZE);
    if bytes <= max_bytes {
        return Ok(());
    }
    Err(LangError::new(
        format!(
            "{what} makes {held} numbers in all: with what solving them holds, about {bytes} \
             bytes ({BYTES_PER_GIVEN_SIZE} a number), more than the memory limit of {max_bytes} \
             bytes"
        ),
        span,
    )
    .as_limit(Limit::Memory))
}

/// A heap size as given, with its decimal digits when the input wrote them in
/// canonical form, so that printing a position of a million big heaps copies
/// text instead of converting numbers back to decimal.
#[derive(Clone, Debug)]
pub struct GivenSize {
    /// The size.
    pub value: BigUint,
    /// Its canonical decimal text, if the input had it.
    pub text: Option<Box<str>>,
}

impl GivenSize {
    fn computed(value: BigUint) -> Self {
        Self { value, text: None }
    }
}

/// As [`heap_sizes`], keeping the digits of each size.
///
/// # Errors
/// As [`heap_sizes`].
pub fn heap_sizes_with_text(term: &Term, max_bytes: u64) -> Result<Vec<GivenSize>, LangError> {
    let mut sizes = Vec::with_capacity(term.args.len());
    for arg in &term.args {
        match &arg.kind {
            ValueKind::Integer(n) => sizes.push(GivenSize::computed(non_negative(
                n,
                arg.span,
                "a heap size",
            )?)),
            ValueKind::Range(low, high, step) => {
                let low = non_negative(low, arg.span, "a heap size")?;
                let high = non_negative(high, arg.span, "a heap size")?;
                if low > high {
                    return Err(LangError::new(
                        format!("the range {low}..{high} is empty: its start is above its end"),
                        arg.span,
                    ));
                }
                let length = (&high - &low) / step + 1u32;
                if length > BigUint::from(MAX_RANGE_LENGTH) {
                    return Err(LangError::new(
                        format!("the range {low}..{high} holds more than {MAX_RANGE_LENGTH} heaps"),
                        arg.span,
                    ));
                }
                let length = u64::try_from(&length).unwrap_or(u64::MAX);
                let held = (sizes.len() as u64).saturating_add(length);
                within_memory(
                    &format!("the range {low}..{high}"),
                    held,
                    max_bytes,
                    arg.span,
                )?;
                let mut size = low;
                while size <= high {
                    if sizes.len() % SIZES_BETWEEN_CHECKS == 0 && stop_requested() {
                        return Err(LangError::stopped(arg.span));
                    }
                    sizes.push(GivenSize::computed(size.clone()));
                    size += step;
                }
            }
            ValueKind::File(path) => {
                let read = read_sizes(path, max_bytes, arg.span)?;
                let held = (sizes.len() + read.len()) as u64;
                within_memory(&format!("`{path}`"), held, max_bytes, arg.span)?;
                sizes.extend(read);
            }
            _ => return Err(expected_size(term, arg)),
        }
    }
    Ok(sizes)
}

/// The text of the file a term names (`@PATH`). Only a regular file is read: a
/// device (`/dev/zero`) or a FIFO would never end or never start, and a
/// directory has no text; each is an error naming the path. The file may take
/// at most `max_bytes` bytes (the memory limit), checked before reading and
/// while reading, since a file can grow in between.
///
/// # Errors
/// A [`LangError`] at `span`: the file cannot be read, is not a regular file,
/// or is not UTF-8 text; or the memory limit's, when the file is larger.
pub fn read_file_text(path: &str, max_bytes: u64, span: Span) -> Result<String, LangError> {
    use std::io::Read;

    if path == STANDARD_INPUT {
        return read_standard_input(max_bytes, span);
    }
    let cannot = |why: String| LangError::new(format!("cannot read `{path}`: {why}"), span);
    let too_large = || {
        LangError::new(
            format!("`{path}` is larger than the memory limit of {max_bytes} bytes"),
            span,
        )
        .as_limit(Limit::Memory)
    };
    let looked_at = regular_file(std::fs::metadata(path)).map_err(cannot)?;
    if looked_at.len() > max_bytes {
        return Err(too_large());
    }
    let file = std::fs::File::open(path).map_err(|error| cannot(error.to_string()))?;
    // The path may name another file by now (replaced in between): the one
    // opened is checked again.
    regular_file(file.metadata()).map_err(cannot)?;
    let mut bytes = Vec::new();
    file.take(max_bytes.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|error| cannot(error.to_string()))?;
    if bytes.len() as u64 > max_bytes {
        return Err(too_large());
    }
    String::from_utf8(bytes).map_err(|error| {
        cannot(format!(
            "it is not UTF-8 text (byte {} is not)",
            error.utf8_error().valid_up_to()
        ))
    })
}

/// The path `@-` names: the standard input, as contest judges give their input.
pub const STANDARD_INPUT: &str = "-";

/// Whether the standard input was read (or taken by a front end, such as a
/// batch of positions read from it): it can be read once in a process.
static STANDARD_INPUT_TAKEN: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

/// Takes the standard input for the caller: `false` when it was taken already.
/// A front end that reads it itself (a batch of positions, `--file -`) takes it
/// first, so that a position's `@-` is then an error, not an empty file.
pub fn take_standard_input() -> bool {
    !STANDARD_INPUT_TAKEN.swap(true, std::sync::atomic::Ordering::SeqCst)
}

/// The text of the standard input (`@-`), at most `max_bytes` bytes, read once.
fn read_standard_input(max_bytes: u64, span: Span) -> Result<String, LangError> {
    use std::io::Read;

    if !take_standard_input() {
        return Err(LangError::new(
            "`@-` reads the standard input, which this command has read already (`@-` may \
             appear once, and not with `--file -`)",
            span,
        ));
    }
    let cannot = |why: String| {
        LangError::new(
            format!("cannot read the standard input (`@-`): {why}"),
            span,
        )
    };
    let mut bytes = Vec::new();
    std::io::stdin()
        .lock()
        .take(max_bytes.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|error| cannot(error.to_string()))?;
    if bytes.len() as u64 > max_bytes {
        return Err(LangError::new(
            format!(
                "the standard input (`@-`) is larger than the memory limit of {max_bytes} bytes"
            ),
            span,
        )
        .as_limit(Limit::Memory));
    }
    String::from_utf8(bytes).map_err(|error| {
        cannot(format!(
            "it is not UTF-8 text (byte {} is not)",
            error.utf8_error().valid_up_to()
        ))
    })
}

/// The metadata of a regular file, or why a path cannot be read as one (in
/// words: what it names instead, or the system's error).
pub(crate) fn regular_file(
    metadata: std::io::Result<std::fs::Metadata>,
) -> Result<std::fs::Metadata, String> {
    let metadata = metadata.map_err(|error| error.to_string())?;
    if metadata.is_file() {
        Ok(metadata)
    } else {
        Err(format!(
            "it is {}, not a regular file",
            file_kind(&metadata)
        ))
    }
}

/// What a path that is not a regular file names, in words.
fn file_kind(metadata: &std::fs::Metadata) -> &'static str {
    let kind = metadata.file_type();
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if kind.is_char_device() || kind.is_block_device() {
            return "a device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    if kind.is_dir() {
        "a directory"
    } else {
        "not a file"
    }
}

fn expected_size(term: &Term, arg: &Value) -> LangError {
    LangError::new(
        format!(
            "`{}` takes heap sizes (non-negative integers), found `{arg}`",
            term.name
        ),
        arg.span,
    )
}

/// Reads a heap file's integers with their digits.
///
/// A heap file holds integers separated by spaces, commas or line ends (`#`
/// starts a comment). Contest judges give the count first, on a line of its own:
/// `@FILE:counted` reads that format (the first integer is the count of those
/// that follow, checked), and `@FILE:all` reads every integer as a heap. A plain
/// `@FILE` whose first line is one integer equal to the number of integers after
/// it could be either, and is refused, asking for one of the two.
fn read_sizes(path: &str, max_bytes: u64, span: Span) -> Result<Vec<GivenSize>, LangError> {
    let (file, format) = match path.rsplit_once(':') {
        Some((file, "counted")) if !file.is_empty() => (file, HeapFile::Counted),
        Some((file, "all")) if !file.is_empty() => (file, HeapFile::All),
        _ => (path, HeapFile::Plain),
    };
    let (mut sizes, first_line_alone) = read_all_sizes(file, max_bytes, span)?;
    let text_of_first = |sizes: &[GivenSize]| sizes.first().map(|size| size.value.to_string());
    match format {
        HeapFile::All => Ok(sizes),
        HeapFile::Counted => {
            let follow = sizes.len().saturating_sub(1);
            match sizes
                .first()
                .map(|first| first.value == BigUint::from(follow))
            {
                Some(true) => {
                    sizes.remove(0);
                    Ok(sizes)
                }
                Some(false) => Err(LangError::new(
                    format!(
                        "`{file}` (read as `:counted`) gives the count {}, but {follow} heaps follow it",
                        text_of_first(&sizes).unwrap_or_default()
                    ),
                    span,
                )),
                None => Err(LangError::new(
                    format!("`{file}` (read as `:counted`) holds no count: it is empty"),
                    span,
                )),
            }
        }
        HeapFile::Plain => {
            let follow = sizes.len().saturating_sub(1);
            if follow >= 1 && sizes[0].value == BigUint::from(follow) && first_line_alone {
                return Err(LangError::new(
                    format!(
                        "`{file}` begins with a line holding {follow}, the number of integers after \
                         it: is it a count (the judges' format) or a heap? Write `@{file}:counted` \
                         to read it as the count, or `@{file}:all` to read it as a heap"
                    ),
                    span,
                ));
            }
            Ok(sizes)
        }
    }
}

/// How a heap file is read ([`read_sizes`]).
#[derive(Clone, Copy)]
enum HeapFile {
    /// Every integer a heap, refused when the first line may be a count.
    Plain,
    /// The first integer is the count of the others.
    Counted,
    /// Every integer a heap.
    All,
}

/// Every integer of a heap file, in order, and whether the first line that holds
/// an integer holds only one. The text is cut at line ends into a few chunks
/// parsed on all cores: a file of a million 60-digit heaps is mostly decimal
/// conversion.
fn read_all_sizes(
    path: &str,
    max_bytes: u64,
    span: Span,
) -> Result<(Vec<GivenSize>, bool), LangError> {
    use rayon::prelude::*;

    let text = read_file_text(path, max_bytes, span)?;
    let first_line_alone = text
        .lines()
        .map(|line| {
            let mut on_line = Vec::new();
            parse_line(line, &mut on_line).map_or(0, |()| on_line.len())
        })
        .find(|&count| count > 0)
        == Some(1);
    let pieces = rayon::current_num_threads().max(1) * 4;
    let mut chunks = Vec::with_capacity(pieces);
    let mut start = 0;
    while start < text.len() {
        let target = (start + text.len() / pieces + 1).min(text.len());
        // In bytes: `target` may fall inside a character (`é`); a line end never does.
        let end = text.as_bytes()[target..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(text.len(), |i| target + i + 1);
        chunks.push(&text[start..end]);
        start = end;
    }
    let parsed: Vec<Result<Vec<GivenSize>, (usize, String)>> = chunks
        .par_iter()
        .map(|chunk| {
            let mut sizes = Vec::with_capacity(chunk.len() / 8);
            for (index, line) in chunk.lines().enumerate() {
                parse_line(line, &mut sizes).map_err(|error| (index, error))?;
            }
            Ok(sizes)
        })
        .collect();
    let mut sizes = Vec::new();
    let mut lines_before = 0;
    for (chunk, result) in chunks.iter().zip(parsed) {
        match result {
            Ok(chunk_sizes) => sizes.extend(chunk_sizes),
            Err((index, error)) => {
                let message = format!("`{path}` line {}, {error}", lines_before + index + 1);
                return Err(LangError::new(message, span));
            }
        }
        lines_before += chunk.lines().count();
    }
    Ok((sizes, first_line_alone))
}

/// Parses one line's integers into `sizes`; an error names the column.
fn parse_line(line: &str, sizes: &mut Vec<GivenSize>) -> Result<(), String> {
    let line = line.split_once('#').map_or(line, |(before, _)| before);
    let bytes = line.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at].is_ascii_whitespace() || bytes[at] == b',' {
            at += 1;
            continue;
        }
        let start = at;
        while at < bytes.len() && !bytes[at].is_ascii_whitespace() && bytes[at] != b',' {
            at += 1;
        }
        let word = &line[start..at];
        let value = if word.bytes().all(|b| b.is_ascii_digit()) {
            word.parse::<BigUint>().ok()
        } else {
            None
        };
        let Some(value) = value else {
            return Err(format!(
                "column {}: `{word}` is not a non-negative integer",
                line[..start].chars().count() + 1
            ));
        };
        // Digits that fit a machine word print fast anyway; keep only big ones.
        let canonical = word.len() > 19 && !word.starts_with('0');
        sizes.push(GivenSize {
            value,
            text: canonical.then(|| word.into()),
        });
    }
    Ok(())
}

/// The integer parameter at `index` (or given as `key=`), at least `min`, if present.
///
/// # Errors
/// A [`LangError`] when the parameter is not an integer or is below `min`.
pub fn integer_param(
    term: &Term,
    index: usize,
    key: &str,
    min: u64,
) -> Result<Option<BigUint>, LangError> {
    let param = term
        .params
        .iter()
        .find(|p| p.key.as_ref().is_some_and(|(k, _)| k == key))
        .or_else(|| term.params.get(index).filter(|p| p.key.is_none()));
    let Some(param) = param else {
        return Ok(None);
    };
    let ValueKind::Integer(value) = &param.value.kind else {
        return Err(LangError::new(
            format!(
                "the parameter `{key}` of `{}` must be an integer",
                term.name
            ),
            param.value.span,
        ));
    };
    if *value < BigInt::from(min) {
        return Err(LangError::new(
            format!(
                "the parameter `{key}` of `{}` must be at least {min}, not {value}",
                term.name
            ),
            param.value.span,
        ));
    }
    Ok(Some(value.magnitude().clone()))
}

#[cfg(test)]
mod tests {

    #[test]
    fn a_range_past_the_memory_limit_is_refused_before_it_expands() {
        let sum = crate::lang::parse("nim(1..1000000)").unwrap();
        let term = &sum.terms[0];
        let error = heap_sizes_with_text(term, 1000 * BYTES_PER_GIVEN_SIZE).unwrap_err();
        assert_eq!(error.limit, Some(Limit::Memory));
        assert!(
            error.message.contains("1000000 numbers"),
            "{}",
            error.message
        );
        let sizes = heap_sizes_with_text(term, 1_000_000 * BYTES_PER_GIVEN_SIZE).unwrap();
        assert_eq!(sizes.len(), 1_000_000);
    }
    use super::*;

    fn file_with(name: &str, text: &str) -> String {
        let path =
            std::env::temp_dir().join(format!("grundy-arguments-{}-{name}", std::process::id()));
        std::fs::write(&path, text).unwrap();
        path.display().to_string()
    }

    #[test]
    fn files_are_read_in_order_with_their_digits() {
        let mut text = String::new();
        for i in 0..20_000u32 {
            text.push_str(&format!("{i}, 1{}  # heap {i}\n", "0".repeat(25)));
        }
        let path = file_with("order", &text);
        let sizes = read_sizes(&path, u64::MAX, Span::default()).unwrap();
        assert_eq!(sizes.len(), 40_000);
        for (i, pair) in sizes.chunks(2).enumerate() {
            assert_eq!(pair[0].value, BigUint::from(i));
            assert_eq!(pair[0].text, None); // small: printed from the number
            assert_eq!(
                pair[1].text.as_deref(),
                Some(format!("1{}", "0".repeat(25)).as_str())
            );
        }
        std::fs::remove_file(path).unwrap();
    }

    /// The file is cut into chunks at line ends; a cut point falling inside
    /// a character of several bytes used to panic.
    #[test]
    fn files_of_characters_outside_ascii_are_errors_not_panics() {
        let path = file_with("unicode", &"ééééééééééééééééééééé\n".repeat(3));
        let error = read_sizes(&path, u64::MAX, Span::new(4, 9)).unwrap_err();
        assert_eq!(
            error.message,
            format!(
                "`{path}` line 1, column 1: `ééééééééééééééééééééé` is not a non-negative integer"
            )
        );
        std::fs::remove_file(path).unwrap();
    }

    #[test]
    fn errors_name_the_line_and_column_across_chunks() {
        let mut text: String = (0..9_999).map(|i| format!("{i}\n")).collect();
        text.push_str("12  0x9\n");
        text.push_str("5\n");
        let path = file_with("error", &text);
        let error = read_sizes(&path, u64::MAX, Span::new(4, 9)).unwrap_err();
        assert_eq!(
            error.message,
            format!("`{path}` line 10000, column 5: `0x9` is not a non-negative integer")
        );
        assert_eq!(error.span, Span::new(4, 9));
        std::fs::remove_file(path).unwrap();
    }
}
