//! Every search of the library stops within milliseconds of its deadline when
//! run under a [`Cancel`]: the sum and misère searches, Every-SG, Cram, Chomp,
//! divisors, scripts (between operations), the sequence engine (while building a
//! position and on its own) and remoteness. Each position here takes seconds to
//! answer, so an answer instead of [`SearchError::Cancelled`] fails the test.

use std::ops::ControlFlow;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use grundy::analysis::{SolveOptions, solve};
use grundy::cancel::Cancel;
use grundy::catalogue::{BuildLimits, build_with};
use grundy::lang::parse_with_limits;
use grundy::rules::HeapRule;
use grundy::sequence::{Method, SequenceSolver, StopCause};
use grundy::solver::{Budget, SearchError};
use grundy::sums::remoteness::remotenesses;

/// When the work is told to stop.
const DEADLINE: Duration = Duration::from_millis(300);

/// How late after its deadline a search may stop.
const SLACK: Duration = Duration::from_millis(100);

/// One timed test at a time: the others would take its core.
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
    // Kayles has none grundy builds, so its sum is searched whole.
    for source in [
        "misere(dawson_kayles(30, 40, 50))",
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
