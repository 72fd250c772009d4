//! No input may panic: random text through the whole pipeline (parse, build,
//! solve) with small limits. This is the parser fuzz of the contract, run as a
//! property test on every `cargo test`.

use grundy::catalogue::build;
use grundy::lang::parse;
use grundy::sums::analysis::{SolveOptions, solve};
use proptest::prelude::*;

fn run(source: &str) {
    let sum = match parse(source) {
        Ok(sum) => sum,
        Err(error) => {
            // An error says where: its span lies in the text, and it renders.
            assert!(error.span.start <= error.span.end, "{source:?}: {error:?}");
            assert!(error.span.end <= source.len(), "{source:?}: {error:?}");
            assert!(error.render(source).starts_with("error: "));
            return;
        }
    };
    let Ok(position) = build(&sum) else { return };
    let options = SolveOptions {
        max_moves: 5,
        max_states: 20_000,
        ..SolveOptions::default()
    };
    if let Ok(answer) = solve(&position, &options) {
        for winning in &answer.winning_moves {
            let _ = answer.target(winning);
        }
    }
}

/// Fragments that make near-valid expressions likely.
fn fragment() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("nim".to_owned()),
        Just("bash".to_owned()),
        Just("sub".to_owned()),
        Just("misere".to_owned()),
        Just("every".to_owned()),
        Just("rounds[2]".to_owned()),
        Just("wythoff".to_owned()),
        Just("octal[0.6]".to_owned()),
        Just("step".to_owned()),
        Just("nmi".to_owned()),
        Just("(".to_owned()),
        Just(")".to_owned()),
        Just("[".to_owned()),
        Just("]".to_owned()),
        Just(",".to_owned()),
        Just("+".to_owned()),
        Just("=".to_owned()),
        Just("..".to_owned()),
        Just("m=".to_owned()),
        Just("@".to_owned()),
        Just("\"".to_owned()),
        Just("-".to_owned()),
        (0u64..40).prop_map(|n| n.to_string()),
        "[0-9]{15,30}",
        "[0-9]\\.[0-9A-F]{1,4}",
        Just(" ".to_owned()),
    ]
}

/// Every example of every catalogue entry: valid expressions to mutate.
fn examples() -> Vec<&'static str> {
    grundy::catalogue::entries()
        .iter()
        .flat_map(|entry| entry.examples.iter().copied())
        .collect()
}

/// One edit of a text: delete a character, insert a fragment, or repeat a slice.
#[derive(Clone, Debug)]
enum Edit {
    Delete(usize),
    Insert(usize, String),
    Repeat(usize, usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        any::<usize>().prop_map(Edit::Delete),
        (any::<usize>(), fragment()).prop_map(|(at, text)| Edit::Insert(at, text)),
        (any::<usize>(), 1usize..12).prop_map(|(at, len)| Edit::Repeat(at, len)),
    ]
}

/// `text` after `edits`, each at a character boundary (positions taken modulo
/// the length).
fn mutate(text: &str, edits: &[Edit]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for edit in edits {
        let at = |i: usize, n: usize| if n == 0 { 0 } else { i % n };
        match edit {
            Edit::Delete(i) if !chars.is_empty() => {
                let i = at(*i, chars.len());
                chars.remove(i);
            }
            Edit::Delete(_) => {}
            Edit::Insert(i, fragment) => {
                let i = at(*i, chars.len() + 1);
                chars.splice(i..i, fragment.chars());
            }
            Edit::Repeat(i, len) => {
                let i = at(*i, chars.len() + 1);
                let end = (i + len).min(chars.len());
                let slice: Vec<char> = chars[i..end].to_vec();
                chars.splice(i..i, slice);
            }
        }
    }
    chars.into_iter().collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn mutated_catalogue_examples_never_panic(
        pick in any::<prop::sample::Index>(),
        edits in prop::collection::vec(edit(), 1..5),
    ) {
        let examples = examples();
        run(&mutate(examples[pick.index(examples.len())], &edits));
    }

    #[test]
    fn random_text_never_panics(source in "\\PC{0,60}") {
        run(&source);
    }

    #[test]
    fn near_valid_expressions_never_panic(parts in prop::collection::vec(fragment(), 0..24)) {
        run(&parts.concat());
    }
}

#[test]
fn hostile_inputs_are_refused_with_errors() {
    for source in [
        "nim(1..99999999999999999999)",
        "sub[1..100000000000](5)",
        "bash[99999999999999999999999999](5)",
        "misere(nim(100000000000000000000))",
        "nim(@/nonexistent/file)",
        "misere()",
        "misere(nim(1), nim(2))",
        "nim(1)+",
    ] {
        run(source);
    }
}
