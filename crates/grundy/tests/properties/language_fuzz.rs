//! A property test over the whole expression language: no position, however
//! strange, may panic or take long to parse, build and solve with small limits.
//!
//! Three generators, all driven by the library's catalogue (so a new game is
//! fuzzed as soon as it is listed, through its name and its examples):
//!
//! * **substituted examples**: an example of a catalogue entry with its integer
//!   literals replaced by edge values (0, 1, 2, 2^32 - 1, 2^32, 2^63, 2^64 - 1,
//!   2^64, 10^100, ranges such as `5..1` or `0..18446744073709551615`) and its
//!   strings edited with any Unicode (combining marks, emoji, NUL, `"`, `\`),
//!   then possibly summed with another and wrapped in `misere(...)`,
//!   `every(...)` or `rounds[k](...)`, nested;
//! * **grammar**: terms of every catalogue name (and alias) with parameters and
//!   arguments drawn from the same edges, lists, codes, `@PATH` files (non-UTF-8,
//!   odd Unicode, a directory, a missing file) and quoted text, in sums and
//!   nested wrappers;
//! * **mangled examples**: characters inserted, deleted, swapped or replaced in
//!   an example.
//!
//! Each case runs on a thread of its own (an 8 MiB stack, as the command line's
//! main thread) inside `catch_unwind`: a panic fails the test naming the
//! expression, and so does a case slower than [`case_limit`] (2 s in a release
//! build; debug builds get more, being ten times slower). Errors must point
//! inside the text, at character boundaries, and render.
//!
//! `GRUNDY_FUZZ_CASES=N` runs N cases per generator instead of the default,
//! `GRUNDY_FUZZ_SEED=N` other cases than the fixed default.

use std::path::PathBuf;
use std::sync::OnceLock;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use grundy::catalogue::{build_with, entries};
use grundy::lang::{LangError, parse_with_limits};
use grundy::registry::BuildLimits;
use grundy::sums::analysis::{SolveOptions, solve};
use proptest::prelude::*;
use proptest::sample::{Index, select};

/// Cases per generator: 12,000 take about 25 s in all in an optimised build on two
/// cores (`cargo test --profile tests -p grundy --test properties language_fuzz`); a
/// debug build is about ten times slower, and runs 1,500.
const DEFAULT_CASES: u32 = if cfg!(debug_assertions) {
    1_500
} else {
    12_000
};

fn cases() -> u32 {
    std::env::var("GRUNDY_FUZZ_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(DEFAULT_CASES)
}

/// The longest one case may take: 2 s in release; a debug build is about ten
/// times slower, so it gets 20 s (`GRUNDY_FUZZ_CASE_SECONDS` sets it).
fn case_limit() -> Duration {
    let seconds = std::env::var("GRUNDY_FUZZ_CASE_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(if cfg!(debug_assertions) { 20.0 } else { 2.0 });
    Duration::from_secs_f64(seconds)
}

/// The cases are the same on every run (CI finds a defect once, not now and
/// then); `GRUNDY_FUZZ_SEED=N` draws others.
fn config() -> ProptestConfig {
    let seed = std::env::var("GRUNDY_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x6772_756e_6479);
    ProptestConfig {
        cases: cases(),
        rng_seed: proptest::test_runner::RngSeed::Fixed(seed),
        failure_persistence: None,
        // Shrinking re-runs cases; a slow one would make it very long.
        max_shrink_iters: 200,
        max_shrink_time: 60_000,
        ..ProptestConfig::default()
    }
}

// ---------------------------------------------------------------------------
// Running one expression.

/// Checks that an error points inside `source`, at character boundaries, and
/// renders (the command line renders every error with a caret under it).
fn check_error(source: &str, error: &LangError) -> Result<(), String> {
    let span = error.span;
    if span.start > span.end
        || span.end > source.len()
        || !source.is_char_boundary(span.start)
        || !source.is_char_boundary(span.end)
    {
        return Err(format!(
            "the error {:?} has the span {}..{}, not at character boundaries of the {} bytes of \
             the text",
            error.message,
            span.start,
            span.end,
            source.len()
        ));
    }
    let rendered = error.render(source);
    if !rendered.starts_with("error: ") {
        return Err(format!("the error renders as {rendered:?}"));
    }
    Ok(())
}

/// Parses, builds and solves `source` with small limits.
fn run(source: &str, winning_moves: bool) -> Result<(), String> {
    let sum = match parse_with_limits(source, 1000) {
        Ok(sum) => sum,
        Err(error) => return check_error(source, &error),
    };
    let limits = BuildLimits {
        work: 2_000_000,
        bytes: 64 << 20,
        largest_heap: 10_000,
    };
    let position = match build_with(&sum, limits) {
        Ok(position) => position,
        Err(error) => return check_error(source, &error),
    };
    let options = SolveOptions {
        max_moves: 5,
        max_states: 20_000,
        max_memory: 64 << 20,
        winning_moves,
        ..SolveOptions::default()
    };
    let Ok(answer) = solve(&position, &options) else {
        return Ok(());
    };
    // The canonical text parses back.
    let text = answer.position.as_str();
    if text.len() < 100_000
        && let Err(error) = parse_with_limits(text, 100_000)
    {
        return Err(format!(
            "the answer's position {text:?} does not parse: {}",
            error.message
        ));
    }
    for winning in &answer.winning_moves {
        let _ = answer.target(winning);
    }
    Ok(())
}

/// How one run of a case ended.
enum Ending {
    Quick,
    Slow(String),
    Wrong(String),
}

/// Runs `source` once on a thread of its own, within [`case_limit`].
fn run_once(source: &str, winning_moves: bool) -> Result<Ending, TestCaseError> {
    let (sender, receiver) = mpsc::channel();
    let owned = source.to_owned();
    std::thread::Builder::new()
        .name("language-fuzz case".into())
        .stack_size(8 << 20)
        .spawn(move || {
            let start = Instant::now();
            let result = std::panic::catch_unwind(|| run(&owned, winning_moves));
            let _ = sender.send((result, start.elapsed()));
        })
        .map_err(|e| TestCaseError::fail(format!("cannot start a thread: {e}")))?;
    let limit = case_limit();
    Ok(
        match receiver.recv_timeout(limit + Duration::from_secs(1)) {
            Ok((Ok(Ok(())), elapsed)) if elapsed <= limit => Ending::Quick,
            Ok((Ok(Ok(())), elapsed)) => {
                Ending::Slow(format!("took {elapsed:.2?}, more than {limit:?}"))
            }
            Ok((Ok(Err(wrong)), _)) => Ending::Wrong(wrong),
            Ok((Err(panic), _)) => {
                let message = panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                    .unwrap_or_default();
                Ending::Wrong(format!("panicked: {message}"))
            }
            // The thread is left running: the test fails anyway.
            Err(_) => Ending::Slow(format!("did not finish within {limit:?}")),
        },
    )
}

/// Runs `source` on a thread of its own, within [`case_limit`]; a panic or a
/// slow case is an error naming the expression. A slow case is run once more
/// (the machine may have been busy) and fails only when slow twice.
fn check(source: &str, winning_moves: bool) -> Result<(), TestCaseError> {
    let failure = match run_once(source, winning_moves)? {
        Ending::Quick => return Ok(()),
        Ending::Wrong(wrong) => wrong,
        Ending::Slow(_) => match run_once(source, winning_moves)? {
            Ending::Quick => return Ok(()),
            Ending::Slow(slow) => format!("{slow} (twice)"),
            Ending::Wrong(wrong) => wrong,
        },
    };
    let moves = if winning_moves { "" } else { " (no moves)" };
    Err(TestCaseError::fail(format!("{source:?}{moves}: {failure}")))
}

// ---------------------------------------------------------------------------
// What the generators draw from.

/// Every example of every catalogue entry.
fn examples() -> &'static [&'static str] {
    static EXAMPLES: OnceLock<Vec<&'static str>> = OnceLock::new();
    EXAMPLES.get_or_init(|| {
        entries()
            .iter()
            .flat_map(|entry| entry.examples.iter().copied())
            .collect()
    })
}

/// Every name the catalogue knows, with its aliases and a typo.
fn names() -> Vec<&'static str> {
    let catalogue = grundy::catalogue::Catalogue::standard();
    let mut names: Vec<&'static str> = Vec::new();
    for entry in catalogue.entries() {
        names.push(entry.name);
        names.extend(catalogue.aliases_of(entry.name));
    }
    names.push("nmi");
    names
}

const EDGE_INTEGERS: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "4294967295",
    "4294967296",
    "9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "10000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000",
];

fn integer() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => select(EDGE_INTEGERS).prop_map(str::to_owned),
        3 => (0u32..13).prop_map(|n| n.to_string()),
        1 => Just("-1".to_owned()),
        1 => Just("007".to_owned()),
    ]
}

fn range() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("1..3".to_owned()),
        Just("5..1".to_owned()),
        Just("0..18446744073709551615".to_owned()),
        Just("1..99 step 2".to_owned()),
        Just("1..5 step 0".to_owned()),
        (integer(), integer()).prop_map(|(a, b)| format!("{a}..{b}")),
        (integer(), integer(), integer()).prop_map(|(a, b, s)| format!("{a}..{b} step {s}")),
    ]
}

fn code() -> impl Strategy<Value = String> {
    prop_oneof![
        select(
            &[
                "0.137", "4.07", "0.77", "0.07", "0.6", "0.8", "C.07", "0.F", "8.0"
            ][..]
        )
        .prop_map(str::to_owned),
        "[0-9a-fA-F]\\.[0-9a-fA-F]{0,8}",
        "0\\.[0-7]{20,40}",
    ]
}

/// Characters for text: any Unicode, and those that matter.
fn text_char() -> impl Strategy<Value = char> {
    prop_oneof![
        2 => any::<char>(),
        3 => select(
            &[
                'é', '\u{301}', '\u{200d}', '😀', '👍', '\u{fe0f}', '\0', '"', '\\', '\u{a0}',
                '\u{feff}', '\u{2028}', 'ǅ', 'ß', '\u{ff12}', '١', '\n', '\r', '\t', ' ',
            ][..]
        ),
        4 => select(
            &['.', '#', '/', 'h', 't', 'H', 'T', 'a', 'b', 'z', ';', '1', '2', '3', '0'][..]
        ),
    ]
}

/// A quoted string literal holding `text` (escaping `"` and `\`; newlines
/// sometimes raw, sometimes `\n`).
fn quote(text: &str, raw_newlines: bool) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' if !raw_newlines => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn text() -> impl Strategy<Value = String> {
    (prop::collection::vec(text_char(), 0..14), any::<bool>())
        .prop_map(|(chars, raw)| quote(&chars.into_iter().collect::<String>(), raw))
}

/// Scripts for `script[...]`: the examples' kind, and ones that loop, grow or
/// fail.
const SCRIPTS: &[&str] = &[
    "fn moves(n) { let m = []; for k in [1, 3, 4] { if k <= n { m.push(n - k) } } m }",
    "fn moves(n) { [n] }",
    "fn moves(n) { [n + 1] }",
    "fn moves(n) { loop { } }",
    "fn moves(n) { if n > 0 { [n - 1, n / 2] } else { [] } }",
    "fn moves(s) { if s.len() > 0 { [s.sub_string(1)] } else { [] } }",
    "fn moves(p) { [p, p] }",
    "fn moves(p) { [\"é😀\"] }",
    "fn moves(n) { 1 / 0 }",
    "fn moves(n) { let a = []; a.pad(100000000, 0); a }",
    "fn moves(n) { \"x\".pad(100000000, 'y'); [] }",
    "fn moves(n) { [n.to_string() + \"\u{301}\"] }",
    "fn moves(p) { [] } fn split(p) { [p, p] }",
    "fn moves(p) { [] } fn describe(a, b) { \"😀\" }",
    "fn moves(",
    "é",
];

fn script() -> impl Strategy<Value = String> {
    (select(SCRIPTS), any::<bool>()).prop_map(|(source, raw)| quote(source, raw))
}

/// Files for `@PATH`, written once into a directory of their own.
fn files() -> &'static [String] {
    static FILES: OnceLock<Vec<String>> = OnceLock::new();
    FILES.get_or_init(|| {
        let dir: PathBuf =
            std::env::temp_dir().join(format!("grundy-language-fuzz-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut many_lines = String::new();
        for i in 0..200 {
            many_lines.push_str(&format!("{i} é😀\n"));
        }
        let contents: Vec<(&str, Vec<u8>)> = vec![
            ("heaps.txt", b"3 5 7\n# a comment\n1, 2\n".to_vec()),
            ("graph.txt", b"3 2\n1 2\n2 3\n".to_vec()),
            ("words.txt", b"ab\nba\n".to_vec()),
            ("board.txt", b"..#.\n....\n".to_vec()),
            (
                "script.rhai",
                b"fn moves(n) { if n > 0 { [n - 1] } else { [] } }\n".to_vec(),
            ),
            ("empty.txt", Vec::new()),
            ("not-utf8.bin", vec![0xff, 0xfe, b'1', b'\n', 0xc3]),
            ("cut-utf8.txt", "3 2\n1 2\n2 3é".as_bytes()[..13].to_vec()),
            ("unicode.txt", "é😀\n1 2\n\u{301}\n".as_bytes().to_vec()),
            ("bom.txt", "\u{feff}3 4\n".as_bytes().to_vec()),
            ("crlf.txt", b"3 2\r\n1 2\r\n2 3\r\n".to_vec()),
            ("combining.txt", "a\u{301}b\nab\n".as_bytes().to_vec()),
            ("nul.txt", b"1\0 2\n".to_vec()),
            ("fullwidth.txt", "\u{ff13} \u{ff12}\n".as_bytes().to_vec()),
            ("many-unicode-lines.txt", many_lines.into_bytes()),
            (
                "multibyte.txt",
                "éééééééééééééééééééé\n".repeat(3).into_bytes(),
            ),
        ];
        let mut paths = Vec::new();
        for (name, bytes) in contents {
            let path = dir.join(name);
            std::fs::write(&path, bytes).unwrap();
            paths.push(path.display().to_string());
        }
        paths.push(dir.display().to_string());
        paths.push(dir.join("missing.txt").display().to_string());
        paths
    })
}

fn file() -> impl Strategy<Value = String> {
    (any::<Index>(), any::<bool>()).prop_map(|(pick, quoted)| {
        let path = &files()[pick.index(files().len())];
        if quoted {
            format!("@{}", quote(path, false))
        } else {
            format!("@{path}")
        }
    })
}

fn leaf() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => integer(),
        2 => range(),
        1 => code(),
        3 => text(),
        1 => file(),
        1 => script(),
        1 => Just("[]".to_owned()),
    ]
}

/// A value: a leaf or a list of values, nested.
fn value() -> impl Strategy<Value = String> {
    leaf().prop_recursive(2, 12, 5, |inner| {
        prop::collection::vec(inner, 0..5).prop_map(|items| format!("[{}]", items.join(", ")))
    })
}

fn param() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => value(),
        2 => (select(&["m", "k", "d", "b", "span", "consecutive", "step", "x"][..]), value())
            .prop_map(|(key, value)| format!("{key}={value}")),
    ]
}

/// A term of any catalogue name, with parameters and arguments.
fn term() -> impl Strategy<Value = String> {
    (
        select(names()),
        prop::option::of(prop::collection::vec(param(), 0..3)),
        prop::collection::vec(value(), 0..5),
    )
        .prop_map(|(name, params, args)| {
            let params = params.map_or_else(String::new, |p| format!("[{}]", p.join(", ")));
            format!("{name}{params}({})", args.join(", "))
        })
}

/// Sums of terms, nested in wrappers.
fn wrap(inner: BoxedStrategy<String>) -> BoxedStrategy<String> {
    prop_oneof![
        3 => prop::collection::vec(inner.clone(), 1..4).prop_map(|terms| terms.join(" + ")),
        1 => inner.clone().prop_map(|sum| format!("misere({sum})")),
        1 => inner.clone().prop_map(|sum| format!("every({sum})")),
        1 => (integer(), inner.clone()).prop_map(|(k, sum)| format!("rounds[{k}]({sum})")),
        1 => (integer(), inner.clone(), inner)
            .prop_map(|(k, start, now)| format!("rounds[{k}]({start}, {now})")),
    ]
    .boxed()
}

fn grammar() -> impl Strategy<Value = String> {
    term().prop_recursive(3, 16, 4, wrap)
}

/// The literals of an example: integers (runs of digits) and quoted strings,
/// as byte ranges.
fn literals(example: &str) -> Vec<(std::ops::Range<usize>, bool)> {
    let bytes = example.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                let start = i;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i = (i + 1).min(bytes.len());
                found.push((start..i, false));
            }
            b'0'..=b'9' => {
                let start = i;
                while i < bytes.len() && bytes[i].is_ascii_digit() {
                    i += 1;
                }
                // Not the digits of a code (`0.137`) or a range (`1..3`).
                let before = start.checked_sub(1).map(|j| bytes[j]);
                if bytes.get(i) != Some(&b'.') && before != Some(b'.') {
                    found.push((start..i, true));
                }
            }
            _ => i += 1,
        }
    }
    found
}

/// What becomes of a literal.
#[derive(Clone, Debug)]
enum Substitution {
    Keep,
    /// Any value in its place.
    Value(String),
    /// For a string, a character put in at a place (taken modulo its length).
    Insert(Index, char),
    /// For a string, a character in place of one.
    Replace(Index, char),
}

fn substitution() -> impl Strategy<Value = Substitution> {
    prop_oneof![
        3 => Just(Substitution::Keep),
        3 => integer().prop_map(Substitution::Value),
        1 => range().prop_map(Substitution::Value),
        1 => value().prop_map(Substitution::Value),
        3 => (any::<Index>(), text_char()).prop_map(|(at, c)| Substitution::Insert(at, c)),
        2 => (any::<Index>(), text_char()).prop_map(|(at, c)| Substitution::Replace(at, c)),
    ]
}

fn substitute(example: &str, changes: &[Substitution]) -> String {
    let mut out = String::new();
    let mut last = 0;
    for (k, (range, is_integer)) in literals(example).into_iter().enumerate() {
        out.push_str(&example[last..range.start]);
        let literal = &example[range.clone()];
        last = range.end;
        let change = changes.get(k).unwrap_or(&Substitution::Keep);
        match (change, is_integer) {
            (Substitution::Keep, _) => out.push_str(literal),
            (Substitution::Value(value), _) => out.push_str(value),
            // An integer gets an edge integer instead.
            (Substitution::Insert(at, _) | Substitution::Replace(at, _), true) => {
                out.push_str(EDGE_INTEGERS[at.index(EDGE_INTEGERS.len())]);
            }
            (Substitution::Insert(at, c), false) => {
                let mut chars: Vec<char> = unquote(literal).chars().collect();
                chars.insert(at.index(chars.len() + 1), *c);
                out.push_str(&quote(&chars.into_iter().collect::<String>(), false));
            }
            (Substitution::Replace(at, c), false) => {
                let mut chars: Vec<char> = unquote(literal).chars().collect();
                if chars.is_empty() {
                    chars.push(*c);
                } else {
                    let at = at.index(chars.len());
                    chars[at] = *c;
                }
                out.push_str(&quote(&chars.into_iter().collect::<String>(), false));
            }
        }
    }
    out.push_str(&example[last..]);
    out
}

/// The text of a string literal of an example (its escapes undone).
fn unquote(literal: &str) -> String {
    let inner = literal
        .strip_prefix('"')
        .and_then(|s| s.strip_suffix('"'))
        .unwrap_or(literal);
    let mut out = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some(other) => out.push(other),
                None => {}
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn substituted_example() -> impl Strategy<Value = String> {
    (any::<Index>(), prop::collection::vec(substitution(), 0..12)).prop_map(|(pick, changes)| {
        let examples = examples();
        substitute(examples[pick.index(examples.len())], &changes)
    })
}

fn substituted() -> impl Strategy<Value = String> {
    substituted_example().prop_recursive(2, 6, 3, wrap)
}

/// One edit of the text of an example.
#[derive(Clone, Debug)]
enum Edit {
    Insert(Index, char),
    Delete(Index),
    Swap(Index),
    Replace(Index, char),
    Integer(Index, String),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        3 => (any::<Index>(), text_char()).prop_map(|(at, c)| Edit::Insert(at, c)),
        2 => (any::<Index>(), select(&['(', ')', '[', ']', ',', '+', '=', '"', '@', '.'][..]))
            .prop_map(|(at, c)| Edit::Insert(at, c)),
        2 => any::<Index>().prop_map(Edit::Delete),
        2 => any::<Index>().prop_map(Edit::Swap),
        2 => (any::<Index>(), text_char()).prop_map(|(at, c)| Edit::Replace(at, c)),
        1 => (any::<Index>(), integer()).prop_map(|(at, n)| Edit::Integer(at, n)),
    ]
}

fn mangle(example: &str, edits: &[Edit]) -> String {
    let mut chars: Vec<char> = example.chars().collect();
    for edit in edits {
        let n = chars.len();
        match edit {
            Edit::Insert(at, c) => chars.insert(at.index(n + 1), *c),
            Edit::Integer(at, digits) => {
                let at = at.index(n + 1);
                chars.splice(at..at, digits.chars());
            }
            Edit::Delete(at) if n > 0 => {
                chars.remove(at.index(n));
            }
            Edit::Swap(at) if n > 1 => chars.swap(at.index(n - 1), at.index(n - 1) + 1),
            Edit::Replace(at, c) if n > 0 => chars[at.index(n)] = *c,
            Edit::Delete(_) | Edit::Swap(_) | Edit::Replace(..) => {}
        }
    }
    chars.into_iter().collect()
}

fn mangled() -> impl Strategy<Value = String> {
    (any::<Index>(), prop::collection::vec(edit(), 1..5)).prop_map(|(pick, edits)| {
        let examples = examples();
        mangle(examples[pick.index(examples.len())], &edits)
    })
}

// ---------------------------------------------------------------------------
// The tests.

#[test]
fn every_catalogue_entry_has_examples_to_fuzz() {
    for entry in entries() {
        assert!(
            !entry.examples.is_empty(),
            "`{}` has no examples: the fuzzer mutates them",
            entry.name
        );
    }
}

#[test]
fn every_example_runs_quickly_without_panicking() {
    for example in examples() {
        for winning_moves in [true, false] {
            if let Err(error) = check(example, winning_moves) {
                panic!("{error}");
            }
        }
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn substituted_examples_never_panic(source in substituted(), moves in any::<bool>()) {
        check(&source, moves)?;
    }

    #[test]
    fn grammar_expressions_never_panic(source in grammar(), moves in any::<bool>()) {
        check(&source, moves)?;
    }

    #[test]
    fn mangled_examples_never_panic(source in mangled(), moves in any::<bool>()) {
        check(&source, moves)?;
    }
}
