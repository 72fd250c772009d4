//! Reading a term's parameters and arguments, with errors that point at them.

use num_bigint::{BigInt, BigUint, Sign};

use crate::lang::{LangError, Span, Term, Value, ValueKind};

/// The most heaps one range such as `1..1000` may expand to.
const MAX_RANGE_LENGTH: u64 = 10_000_000;

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
pub fn heap_sizes(term: &Term) -> Result<Vec<BigUint>, LangError> {
    let mut sizes = Vec::with_capacity(term.args.len());
    for arg in &term.args {
        match &arg.kind {
            ValueKind::Integer(n) => sizes.push(non_negative(n, arg.span, "a heap size")?),
            ValueKind::Range(low, high) => {
                let low = non_negative(low, arg.span, "a heap size")?;
                let high = non_negative(high, arg.span, "a heap size")?;
                if low > high {
                    return Err(LangError::new(
                        format!("the range {low}..{high} is empty: its start is above its end"),
                        arg.span,
                    ));
                }
                let length = &high - &low + 1u32;
                if length > BigUint::from(MAX_RANGE_LENGTH) {
                    return Err(LangError::new(
                        format!("the range {low}..{high} holds more than {MAX_RANGE_LENGTH} heaps"),
                        arg.span,
                    ));
                }
                let mut size = low;
                while size <= high {
                    sizes.push(size.clone());
                    size += 1u32;
                }
            }
            ValueKind::File(path) => sizes.extend(read_integers(path, arg.span)?),
            _ => return Err(expected_size(term, arg)),
        }
    }
    Ok(sizes)
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

/// Reads the non-negative integers of a file: separated by blanks or commas,
/// with `#` starting a comment that runs to the end of the line.
///
/// # Errors
/// A [`LangError`] at `span` (the `@PATH` of the expression) whose message names
/// the file and the line and column of the mistake.
pub fn read_integers(path: &str, span: Span) -> Result<Vec<BigUint>, LangError> {
    let text = std::fs::read_to_string(path)
        .map_err(|error| LangError::new(format!("cannot read `{path}`: {error}"), span))?;
    let mut numbers = Vec::new();
    for (line_index, line) in text.lines().enumerate() {
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
            let number = if word.bytes().all(|b| b.is_ascii_digit()) {
                word.parse::<BigUint>().ok()
            } else {
                None
            };
            let Some(number) = number else {
                return Err(LangError::new(
                    format!(
                        "`{path}` line {}, column {}: `{word}` is not a non-negative integer",
                        line_index + 1,
                        line[..start].chars().count() + 1
                    ),
                    span,
                ));
            };
            numbers.push(number);
        }
    }
    Ok(numbers)
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
