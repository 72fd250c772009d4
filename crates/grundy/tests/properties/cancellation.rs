//! Every search of the library stops within milliseconds of its deadline when
//! run under a [`Cancel`]: the sum and misère searches, Every-SG, Cram, Chomp,
//! divisors, scripts (between operations), the sequence engine (while building a
//! position and on its own) and remoteness. Each position here takes seconds to
//! answer, so an answer instead of [`SearchError::Cancelled`] fails the test.

use std::ops::ControlFlow;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use grundy::catalogue::build_with;
use grundy::lang::parse_with_limits;
use grundy::registry::BuildLimits;
use grundy::rules::HeapRule;
use grundy::sequence::{Method, SequenceSolver, StopCause};
use grundy::sums::analysis::{SolveOptions, solve};
use grundy::sums::remoteness::remotenesses;
use grundy::theory::cancel::Cancel;
use grundy::theory::limits::{Budget, SearchError};

/// When the work is told to stop.
const DEADLINE: Duration = Duration::from_millis(300);

/// How late after its deadline a search may stop.
const SLACK: Duration = Duration::from_millis(100);

/// One timed test at a time (and one cut property case): the others would take its core.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// Runs `work` under a deadline; asserts it stopped in time, and returns its result.
fn under_deadline<T>(what: &str, work: impl FnOnce() -> T) -> T {
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(PoisonError::into_inner);
    let started = Instant::now();
    let result = Cancel::with_deadline(started + DEADLINE).run(work);
    let took = started.elapsed();
    assert!(took < DEADLINE + SLACK, "{what}: stopped after {took:?}");
    result
}

/// Parses, builds and solves `source` with large limits under the deadline.
fn cancelled_while_solving(source: &str) {
    let outcome = under_deadline(source, || {
        let sum = parse_with_limits(source, 1000).unwrap();
        let limits = BuildLimits {
            work: u64::MAX,
            bytes: 8 << 30,
            ..BuildLimits::default()
        };
        let position = match build_with(&sum, limits) {
            Ok(position) => position,
            Err(error) => return Err(error.message),
        };
        // No state or memory limit may end the search before the deadline,
        // however many cores count positions (the divisor game's count
        // reaches the default memory's share of positions in a fifth of a
        // second on 16 cores).
        let options = SolveOptions {
            max_states: usize::MAX,
            max_memory: u64::MAX,
            ..SolveOptions::default()
        };
        solve(&position, &options).map_err(|error| error.to_string())
    });
    match outcome {
        Err(message) => assert_eq!(message, SearchError::Cancelled.to_string(), "{source}"),
        Ok(answer) => panic!("{source}: answered before its deadline: {answer:?}"),
    }
}

#[test]
fn board_searches_stop_at_their_deadline() {
    for source in ["cram(5, 8)", "chomp(13, 13)", "divisors(60)"] {
        cancelled_while_solving(source);
    }
}

#[test]
fn sum_searches_stop_at_their_deadline() {
    // Kayles' misère sums are answered through its quotient now; Dawson's
    // Kayles has none grundy builds, so its sum is searched whole. Every-SG:
    // Kayles' heaps are explored as graphs; Bash's are valued by theory, and
    // each winning move of 20,000 components takes long to write.
    for source in [
        "misere(dawson_kayles(30, 40, 50))",
        "every(kayles(1..3000))",
        "every(bash[2](1..20000))",
    ] {
        cancelled_while_solving(source);
    }
}

#[test]
fn a_slow_script_stops_between_its_operations() {
    // Each call of `moves` runs 30,000 loop steps: no position is finished for
    // a long while, so only a check between operations stops it in time.
    cancelled_while_solving(
        "script[\"fn moves(n) { let x = 0; for i in 0..300000 { x += 1; } if n > 0 { [n - 1] } else { [] } }\"](20000)",
    );
}

#[test]
fn the_sequence_engine_stops_at_its_deadline() {
    // While building a position: Grundy's game has no known period, so its
    // values are computed up to the heap.
    cancelled_while_solving("grundy_game(3000000)");
    // On its own: the values computed are kept, and the cause says why.
    let rule = HeapRule::octal("0.161").unwrap();
    let mut solver = SequenceSolver::new(rule, Method::SparseSpace);
    let stopped = under_deadline("octal[0.161]", || {
        solver.extend_to_with_progress(50_000_000, &mut |_| ControlFlow::Continue(()))
    });
    let stop = stopped.expect_err("10^7 values of 0.161 take longer than the deadline");
    assert_eq!(stop.cause, StopCause::Cancelled);
    assert_eq!(stop.done, solver.values().len());
}

#[test]
fn the_remoteness_search_stops_at_its_deadline() {
    let sum = parse_with_limits("nim(30, 31, 32, 33, 34, 35, 36)", 100).unwrap();
    let position = build_with(&sum, BuildLimits::default()).unwrap();
    let result = under_deadline("remoteness", || {
        remotenesses(&[position], Budget::UNLIMITED)
    });
    assert_eq!(result, Err(SearchError::Cancelled));
}

// ------------------------------------------------ a cut search is never an answer

/// Positions whose answers take from a fraction of a millisecond to a tenth
/// of a second or so: misère quotients (built on the first call of the
/// process), genus, Every-SG, boards, scripts, theory with a searched nimber.
const CUT_POSITIONS: &[&str] = &[
    "misere(kayles(10, 20, 30, 40))",
    "misere(octal[0.137](5, 9, 13))",
    "misere(octal[0.1](4, 9, 6))",
    "misere(dawson_kayles(5, 7, 9))",
    "nim(3, 5, 7) + kayles(40)",
    "cram(3, 5)",
    "chomp(3, 4)",
    "fibonacci_nim(60)",
    "every(nim(3, 4) + bash[2](5))",
    "wythoff(40, 60) + nim(2)",
    "script[\"fn moves(n) { let m = []; for s in [1, 3, 4] { if n >= s { m.push(n - s) } } m }\"](400)",
];

/// What an answer says, without what its search cost (a search repeated
/// finds its tables filled).
fn said(answer: &grundy::sums::analysis::Answer) -> String {
    format!(
        "{:?} {:?} {:?} {} {} {} {:?} {:?}",
        answer.outcome,
        answer.nimber,
        answer.winning_moves,
        answer.winning_move_count,
        answer.moves_counted,
        answer.truncated,
        answer.method,
        answer.notes
    )
}

/// How a piece of work is cut: at a deadline, or by another thread raising
/// the signal, `micros` after it starts.
#[derive(Clone, Copy, Debug)]
enum Cut {
    Deadline(u64),
    Raised(u64),
}

impl Cut {
    /// Runs `work` under this cut.
    fn run<T>(self, work: impl FnOnce() -> T) -> T {
        match self {
            Self::Deadline(micros) => {
                Cancel::with_deadline(Instant::now() + Duration::from_micros(micros)).run(work)
            }
            Self::Raised(micros) => {
                let signal = Cancel::new();
                let raiser = signal.clone();
                std::thread::scope(|scope| {
                    scope.spawn(move || {
                        std::thread::sleep(Duration::from_micros(micros));
                        raiser.cancel();
                    });
                    signal.run(work)
                })
            }
        }
    }
}

fn cut_strategy() -> impl proptest::strategy::Strategy<Value = Cut> {
    use proptest::prelude::*;
    prop_oneof![
        (0u64..40_000).prop_map(Cut::Deadline),
        (0u64..40_000).prop_map(Cut::Raised),
    ]
}

/// The answer of `source`: `Err(true)` when the work was cut, `Err(false)`
/// for any other failure.
fn solve_text(source: &str) -> Result<String, String> {
    let sum = parse_with_limits(source, 1000).map_err(|e| e.message)?;
    let position = build_with(&sum, BuildLimits::default()).map_err(|error| {
        if error.cancelled {
            "cut".to_owned()
        } else {
            error.message
        }
    })?;
    match solve(&position, &SolveOptions::default()) {
        Ok(answer) => Ok(said(&answer)),
        Err(SearchError::Cancelled) => Err("cut".to_owned()),
        Err(other) => Err(other.to_string()),
    }
}

/// The uncut answers, computed once each, after the first cut attempt of the
/// process (so that a construction cut first is seen to be built again).
static UNCUT: Mutex<Vec<(String, Result<String, String>)>> = Mutex::new(Vec::new());

fn uncut(source: &str) -> Result<String, String> {
    let mut known = UNCUT.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some((_, answer)) = known.iter().find(|(s, _)| s == source) {
        return answer.clone();
    }
    let answer = solve_text(source);
    known.push((source.to_owned(), answer.clone()));
    answer
}

/// The heaps whose values the cut sequences compute.
const SEQUENCE_HEAPS: usize = 6_000;

/// The uncut values of heaps `0..=SEQUENCE_HEAPS`, by code, computed once each.
static UNCUT_VALUES: Mutex<Vec<(&str, Vec<u32>)>> = Mutex::new(Vec::new());

fn uncut_values(code: &'static str, rule: &HeapRule) -> Vec<u32> {
    let mut known = UNCUT_VALUES.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some((_, values)) = known.iter().find(|(c, _)| *c == code) {
        return values.clone();
    }
    let values = grundy::sequence::grundy_values(rule, SEQUENCE_HEAPS).to_vec();
    known.push((code, values.clone()));
    values
}

/// The uncut quotients, by code and mode, computed once each.
type Described = Result<String, grundy::quotient::QuotientError>;
static UNCUT_QUOTIENTS: Mutex<Vec<((&str, bool), Described)>> = Mutex::new(Vec::new());

fn uncut_quotient(
    code: &'static str,
    until_proven: bool,
    compute: impl FnOnce() -> Described,
) -> Described {
    let mut known = UNCUT_QUOTIENTS
        .lock()
        .unwrap_or_else(PoisonError::into_inner);
    if let Some((_, found)) = known.iter().find(|(key, _)| *key == (code, until_proven)) {
        return found.clone();
    }
    let found = compute();
    known.push(((code, until_proven), found.clone()));
    found
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    /// `solve` under a random deadline or cancellation: the uncut answer, or
    /// the cut's error, never an answer of its own.
    #[test]
    fn a_cut_solve_is_the_uncut_answer_or_the_cut(
        index in 0..CUT_POSITIONS.len(),
        cut in cut_strategy(),
    ) {
        let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(PoisonError::into_inner);
        let source = CUT_POSITIONS[index];
        let cut_answer = cut.run(|| solve_text(source));
        let whole = uncut(source);
        proptest::prop_assert!(whole.is_ok(), "{source}: {whole:?}");
        if cut_answer != Err("cut".to_owned()) {
            proptest::prop_assert_eq!(&cut_answer, &whole, "{} cut {:?}", source, cut);
        }
    }

    /// The values of a heap rule under a random cut: what was computed is
    /// the uncut values' beginning, and a stop says it was cut.
    #[test]
    fn a_cut_sequence_keeps_only_right_values(
        code in proptest::sample::select(vec!["0.137", "0.07", "0.6", "4.07", "0.3f"]),
        cut in cut_strategy(),
    ) {
        let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(PoisonError::into_inner);
        let rule = HeapRule::octal(code).unwrap();
        let whole = uncut_values(code, &rule);
        let mut solver = SequenceSolver::new(rule, Method::default());
        let stopped = cut.run(|| {
            solver.extend_to_with_progress(SEQUENCE_HEAPS, &mut |_| ControlFlow::Continue(()))
        });
        let values = solver.values().to_vec();
        match stopped {
            Ok(()) => proptest::prop_assert_eq!(&values, &whole),
            Err(stop) => {
                proptest::prop_assert_eq!(stop.cause, StopCause::Cancelled);
                proptest::prop_assert_eq!(&values[..], &whole[..values.len()]);
            }
        }
    }

    /// A misère quotient under a random cut: the uncut quotient, or the cut.
    #[test]
    fn a_cut_quotient_is_the_uncut_one_or_the_cut(
        code in proptest::sample::select(vec!["0.75", "0.31", "0.123", "0.71", "0.07", "0.1"]),
        until_proven in proptest::bool::ANY,
        cut in cut_strategy(),
    ) {
        let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(PoisonError::into_inner);
        use grundy::quotient::{QuotientLimits, compute};
        let rule = HeapRule::octal(code).unwrap();
        let heaps = if code == "0.07" { 20 } else { 60 };
        let describe = |q: &grundy::quotient::MisereQuotient| {
            format!("{} {:?} {:?} {:?}", q.order(), q.heap_map(), q.p_portion(), q.periodicity())
        };
        let whole = uncut_quotient(code, until_proven, || {
            compute(&rule, heaps, until_proven, QuotientLimits::default()).map(|q| describe(&q))
        });
        proptest::prop_assert!(whole.is_ok());
        match cut.run(|| compute(&rule, heaps, until_proven, QuotientLimits::default())) {
            Ok(q) => proptest::prop_assert_eq!(describe(&q), whole.unwrap()),
            Err(error) => proptest::prop_assert_eq!(error.error, SearchError::Cancelled),
        }
    }

    /// One table's cells under random cuts, on one tabulator kept across
    /// them: every cell is the uncut one or the cut, and a cut leaves the
    /// tabulator's store right for the cells after it.
    #[test]
    fn cut_table_cells_are_the_uncut_ones_or_the_cut(
        cuts in proptest::collection::vec(cut_strategy(), 8),
    ) {
        let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(PoisonError::into_inner);
        use grundy::sums::table::Tabulator;
        let script = "script[\"fn moves(n) { let m = []; for s in [1, 3, 4] { if n >= s { m.push(n - s) } } m }\"]";
        let cells: Vec<String> = (0..8)
            .map(|i| format!("{script}({}) + cram(2, {})", 150 * i, i % 4 + 1))
            .collect();
        let position = |text: &str| build_with(&parse_with_limits(text, 100).unwrap(), BuildLimits::default()).unwrap();
        let mut reference = Tabulator::new(SolveOptions::default());
        let whole: Vec<_> = cells.iter().map(|c| reference.nimber(&position(c))).collect();
        let mut tabulator = Tabulator::new(SolveOptions::default());
        for ((cell, cut), expected) in cells.iter().zip(&cuts).zip(&whole) {
            let position = position(cell);
            match cut.run(|| tabulator.nimber(&position)) {
                Err(SearchError::Cancelled) => {}
                found => proptest::prop_assert_eq!(&found, expected, "{}", cell),
            }
        }
        // Uncut now, after the cuts: every cell is right.
        for (cell, expected) in cells.iter().zip(&whole) {
            proptest::prop_assert_eq!(&tabulator.nimber(&position(cell)), expected);
        }
    }
}
