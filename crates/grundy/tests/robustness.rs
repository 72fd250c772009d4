//! No input may panic: random text through the whole pipeline (parse, build,
//! solve) with small limits. This is the parser fuzz of the contract, run as a
//! property test on every `cargo test`.

use grundy::analysis::{SolveOptions, solve};
use grundy::catalogue::build;
use grundy::lang::parse;
use proptest::prelude::*;

fn run(source: &str) {
    let Ok(sum) = parse(source) else { return };
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

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

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
