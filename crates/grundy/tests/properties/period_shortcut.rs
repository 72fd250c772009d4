//! The shortcut `grundy seq` (and every position) takes once a period is
//! proven: the values that follow from the period are those the engine
//! computes, heap by heap, to 10^5, for every two-digit octal code and a few of
//! three digits and Guy-Smith's and the subtraction window's proofs alike.

use grundy::rules::HeapRule;
use grundy::sequence::{Method, Periodicity, SequenceSolver, find_periodicity};

/// Heaps compared.
const LAST_HEAP: usize = 100_000;

/// The codes: every `0.ab` with digits 0..7, and some longer ones.
fn codes() -> Vec<String> {
    let mut codes: Vec<String> = (0..8)
        .flat_map(|a| (0..8).map(move |b| format!("0.{a}{b}")))
        .filter(|code| code != "0.00")
        .collect();
    codes.extend(
        [
            "0.137", "0.07", "0.77", "0.51", "0.333", "4.07", "0.4", "0.156",
        ]
        .map(str::to_owned),
    );
    codes
}

#[test]
#[ignore = "computes 10^5 values of 70 codes: about a minute (CI runs it)"]
fn values_from_a_proven_period_are_the_engines() {
    let mut compared = 0;
    for code in codes() {
        let rule = HeapRule::octal(&code).unwrap();
        // As `seq` does: the first 1024 values, and a period proven from them.
        let mut first = SequenceSolver::new(rule.clone(), Method::SparseSpace);
        first.extend_to(1023);
        let Some(periodicity) = find_periodicity(&rule, first.values()).filter(Periodicity::proven)
        else {
            continue;
        };
        let shortcut = periodicity
            .values_up_to(first.values(), LAST_HEAP)
            .expect("a proven period gives every value");
        let mut engine = SequenceSolver::new(rule, Method::SparseSpace);
        engine.extend_to(LAST_HEAP);
        let engine = engine.values();
        assert_eq!(shortcut.len(), engine.len(), "{code}");
        if let Some(heap) = (0..=LAST_HEAP).find(|&heap| shortcut.get(heap) != engine.get(heap)) {
            panic!(
                "{code}: heap {heap} is {:?} from the period ({periodicity:?}), {:?} from the engine",
                shortcut.get(heap),
                engine.get(heap)
            );
        }
        compared += 1;
    }
    // Most two-digit codes have a period proven within 1024 heaps.
    assert!(compared >= 40, "only {compared} codes had a period proven");
}
