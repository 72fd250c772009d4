//! The playground's answers and the engine's moves, as the page reads them.

use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::Value;

use super::*;
use crate::catalogue::{BuildLimits, build_with};
use crate::lang::parse_with_limits;
use crate::sums::remoteness::remotenesses;
use crate::theory::limits::Budget;
use crate::workflow::Limits;

/// The playground's answer as the page reads it.
fn analysed(source: &str, budget: &RequestLimits) -> Value {
    serde_json::to_value(analyse(source, budget).unwrap()).unwrap()
}

/// The engine's answer as the page reads it.
fn engine_answer(source: &str, budget: &RequestLimits) -> Value {
    serde_json::to_value(engine_move(source, budget).unwrap()).unwrap()
}

fn budget() -> RequestLimits {
    RequestLimits {
        limits: Limits {
            states: 100_000,
            digits: 100,
            ..Limits::default()
        },
        max_options: 50,
        deadline: Instant::now() + Duration::from_secs(60),
        request_deadline: Instant::now() + Duration::from_secs(60),
        time: Duration::from_secs(60),
    }
}

#[test]
fn files_are_refused_and_messages_lose_their_prefix() {
    assert!(refuse_files("nim(3, 5)").is_ok());
    let refused = refuse_files("nim(@heaps.txt)").unwrap_err();
    assert!(message_of(refused).starts_with("positions read from files"));
}

#[test]
fn every_move_is_valued_and_the_engine_prolongs_a_lost_game() {
    let answer = analysed("nim(1, 2) + bash[2](3)", &budget());
    // G(1) ^ G(2) ^ G_bash2(3) = 1 ^ 2 ^ 0.
    assert_eq!(answer["nim_sum"], 3);
    assert_eq!(answer["moves"].as_array().unwrap().len(), 1 + 2 + 2);
    let engine = engine_answer("nim(1, 2) + bash[2](3)", &budget());
    assert_eq!(engine["reason"], "winning");
    assert_eq!(engine["move"]["to"], "nim(1, 1) + bash[2](3)");
    // Lost: the move leaving the most moves takes one token from the heap of 2.
    let engine = engine_answer("nim(2, 2)", &budget());
    assert_eq!(engine["reason"], "prolonging");
    assert_eq!(engine["move"]["to"], "nim(1, 2)");
}

/// The remoteness of a position in the playground's text.
fn remoteness(source: &str) -> u32 {
    let position = build_with(
        &parse_with_limits(source, 100).unwrap(),
        BuildLimits::default(),
    );
    remotenesses(&[position.unwrap()], Budget::states(100_000))
        .unwrap()
        .unwrap()[0]
}

#[test]
fn the_engine_wins_quickest_and_loses_slowest() {
    for source in [
        "nim(3, 5, 6, 7)",
        "nim(2, 3) + kayles(5)",
        "wythoff(4, 9)",
        "sub[1, 2](5) + nim(1, 4)",
        "nim(2, 2)",
        "nim(1, 2, 3) + kayles(4)",
        "wythoff(3, 5) + nim(1, 1)",
    ] {
        let engine = engine_answer(source, &budget());
        assert_eq!(engine["by"], "remoteness", "{source}");
        let analysis = analysed(source, &budget());
        let moves = analysis["moves"].as_array().unwrap();
        let after: Vec<(u32, bool)> = moves
            .iter()
            .map(|m| (remoteness(m["to"].as_str().unwrap()), m["wins"] == true))
            .collect();
        let chosen = remoteness(engine["move"]["to"].as_str().unwrap());
        assert_eq!(engine["remoteness"], chosen, "{source}");
        if analysis["outcome"] == "N" {
            // The quickest win: the least remoteness among the winning moves,
            // and winning moves are exactly those to an even remoteness.
            assert_eq!(engine["reason"], "winning");
            let quickest = after
                .iter()
                .filter(|(_, wins)| *wins)
                .map(|(r, _)| *r)
                .min();
            assert_eq!(Some(chosen), quickest, "{source}");
            assert!(
                after.iter().all(|&(r, wins)| wins == (r % 2 == 0)),
                "{source}"
            );
        } else {
            assert_eq!(engine["reason"], "prolonging");
            let slowest = after.iter().map(|(r, _)| *r).max();
            assert_eq!(Some(chosen), slowest, "{source}");
        }
    }
}

#[test]
fn past_the_remoteness_limit_the_engine_counts_replies() {
    let mut small = budget();
    small.limits.states = 20;
    let engine = engine_answer("nim(6, 6, 6)", &small);
    assert_eq!(engine["by"], "replies");
    assert_eq!(engine["remoteness"], Value::Null);
    assert_eq!(engine["reason"], "winning");
}

#[test]
fn parts_are_drawn_and_moves_say_what_a_click_plays() {
    let answer = analysed("nim(3) + wythoff(1, 2) + turtles(\"ht\")", &budget());
    let parts = answer["parts"].as_array().unwrap();
    assert_eq!(
        parts[0]["drawing"],
        serde_json::json!({"kind": "heaps", "heaps": [3]})
    );
    assert_eq!(
        parts[1]["drawing"],
        serde_json::json!({"kind": "wythoff", "x": 1, "y": 2})
    );
    assert_eq!(
        parts[2]["drawing"],
        serde_json::json!({"kind": "coins", "heads": [true, false]})
    );
    let target = |to: &str| {
        answer["moves"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["to"] == to)
            .map(|m| m["target"].clone())
            .unwrap_or_else(|| panic!("no move to {to}"))
    };
    assert_eq!(
        target("nim(1) + wythoff(1, 2) + turtles(\"ht\")"),
        serde_json::json!({"kind": "heap", "heap": 0, "level": 1})
    );
    assert_eq!(
        target("nim(3) + wythoff(0, 1) + turtles(\"ht\")"),
        serde_json::json!({"kind": "square", "x": 0, "y": 1})
    );
    assert_eq!(
        target("nim(3) + wythoff(1, 2) + turtles(\"tt\")"),
        serde_json::json!({"kind": "coin", "coin": 0})
    );
    // A split is the heap split and the heaps it leaves (the page lists
    // it under the heap's button).
    let split = analysed("kayles(3)", &budget());
    let split = split["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["to"] == "kayles(1, 1)")
        .unwrap()
        .clone();
    assert_eq!(
        split["target"],
        serde_json::json!({"kind": "split", "heap": 0, "into": [1, 1]})
    );
    // Games without a drawing have none.
    let words = analysed("prefix_game([\"ab\"])", &budget());
    assert_eq!(words["parts"][0]["drawing"], Value::Null);
}

/// The budget of one request under `grundy serve`'s default limits.
fn server_budget() -> RequestLimits {
    RequestLimits {
        limits: default_limits(),
        max_options: DEFAULT_MAX_OPTIONS,
        deadline: Instant::now() + DEFAULT_REQUEST_TIME,
        request_deadline: Instant::now() + DEFAULT_REQUEST_TIME,
        time: DEFAULT_REQUEST_TIME,
    }
}

/// The position after `chosen`, a move as the page reads it: its `to`, or
/// its compact form played on `source`.
fn after(source: &str, chosen: &Value) -> String {
    if let Some(to) = chosen["to"].as_str() {
        return to.to_owned();
    }
    let played = CompactMove {
        term: chosen["term"].as_u64().unwrap() as usize,
        component: chosen["component"].as_u64().unwrap() as usize,
        component_to: chosen["component_to"].as_str().unwrap().to_owned(),
    };
    play_compact(source, &played, &server_budget()).unwrap()
}

/// Plays `example` for three plies as the page does, under the server's
/// default limits: a refusal must be a limit's (422), never "no move".
fn play_three_plies(example: &str) {
    let mut source = example.to_owned();
    // The answer as the page reads it; `None` for a limit's refusal,
    // which must not be "no move".
    fn read<T: Serialize>(answer: Result<T, Failure>, at: &str) -> Option<Value> {
        match answer {
            Ok(answer) => Some(serde_json::to_value(answer).unwrap()),
            Err(Failure::Limit { message, .. }) => {
                assert!(!message.contains("no move"), "{at}: {message}");
                None
            }
            Err(failure) => panic!("{at}: {}", message_of(failure)),
        }
    }
    for ply in 0..3 {
        let at = format!("{example}, ply {ply}: {source:.200}");
        let Some(analysis) = read(analyse(&source, &server_budget()), &at) else {
            return;
        };
        let moves = analysis["moves"].as_array().unwrap();
        let Some(engine) = read(engine_move(&source, &server_budget()), &at) else {
            return;
        };
        if engine["move"].is_null() {
            // Only a terminal position: lost (won under misère play), with
            // no move listed.
            let lost = if analysis["convention"] == "misere" {
                "N"
            } else {
                "P"
            };
            assert_eq!(analysis["outcome"], lost, "{at}");
            assert!(moves.is_empty(), "{at}: {moves:?}");
            assert_eq!(analysis["moves_complete"], true, "{at}");
            return;
        }
        assert!(!moves.is_empty(), "{at}: the engine moves, none is listed");
        let winning: Vec<&Value> = moves.iter().filter(|m| m["wins"] == true).collect();
        if analysis["outcome"] == "N" {
            assert!(!winning.is_empty(), "{at}: N, but no listed move wins");
            assert_eq!(engine["reason"], "winning", "{at}");
        }
        if let Some(first) = winning.first() {
            let to = after(&source, first);
            let reply = analyse(&to, &server_budget()).unwrap();
            let reply = serde_json::to_value(reply).unwrap();
            assert_eq!(reply["outcome"], "P", "{at}: a winning move to {to:.200}");
        }
        source = after(&source, &engine["move"]);
    }
}

#[test]
fn every_picker_example_is_played_for_three_plies() {
    let examples = crate::catalogue::entries()
        .iter()
        .flat_map(|entry| entry.examples.iter())
        .filter(|example| !example.contains('@'));
    for example in examples {
        let started = Instant::now();
        play_three_plies(example);
        // Each request is bounded by the server's time limit (10 s).
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "{example}: {:?}",
            started.elapsed()
        );
    }
}

#[test]
fn heaps_larger_than_the_move_limit_list_their_moves() {
    // The rule's moves, not the heap's sizes: two, two, and 299 splits.
    for (source, count) in [
        ("bash[2](301)", 2),
        ("sub[2, 5](301)", 2),
        ("grundy_game(600)", 299),
        ("sub[1..99 step 2](1000)", 50),
    ] {
        let answer = analysed(source, &server_budget());
        assert_eq!(answer["moves"].as_array().unwrap().len(), count, "{source}");
        assert_eq!(answer["moves_complete"], true, "{source}");
    }
    // A heap of 10^40 lists a sample, its winning move first.
    let answer = analysed(
        "nim(10000000000000000000000000000000000000000, 1)",
        &server_budget(),
    );
    let moves = answer["moves"].as_array().unwrap();
    assert_eq!(moves[0]["wins"], true);
    assert_eq!(moves[0]["to"], "nim(1, 1)");
    assert_eq!(moves.len(), 300);
    assert_eq!(answer["moves_complete"], false);
    assert!(
        answer["play_note"]
            .as_str()
            .unwrap()
            .contains("winning moves come first")
    );
}

#[test]
fn compound_positions_list_their_moves_whole() {
    for source in [
        "every(nim(1, 2) + bash[2](5))",
        "rounds[2](bash[2](4))",
        "rounds[4](nim(2, 3), nim(1, 3))",
    ] {
        let answer = analysed(source, &budget());
        let moves = answer["moves"].as_array().unwrap();
        assert!(!moves.is_empty(), "{source}");
        for m in moves {
            let to = m["to"].as_str().unwrap();
            let after = analysed(to, &budget());
            assert_eq!(m["outcome"], after["outcome"], "{source} -> {to}");
        }
        let engine = engine_answer(source, &budget());
        assert!(!engine["move"].is_null(), "{source}");
    }
    // every(...) moves each component that can move: 1 * 2 * 2 moves.
    let every = analysed("every(nim(1, 2) + bash[2](5))", &budget());
    assert_eq!(every["moves"].as_array().unwrap().len(), 4);
    assert_eq!(every["moves_complete"], true);
}

#[test]
fn large_positions_send_moves_compact_and_play_them() {
    let heaps = vec!["1"; 4001].join(", ");
    let source = format!("nim({heaps}) + bash[2](5)");
    let answer = analysed(&source, &budget());
    let moves = answer["moves"].as_array().unwrap();
    assert!(
        moves.iter().all(|m| m["to"].is_null()),
        "compact above 10,000 bytes"
    );
    // The winning move first: the bash heap of 5 (nimber 2) to 4 (nimber 1),
    // as the 4001 heaps of 1 have nim-sum 1.
    let first = &moves[0];
    assert_eq!(first["wins"], true);
    assert_eq!(first["component_to"], "bash[2](4)");
    let to = after(&source, first);
    assert_eq!(to, format!("nim({heaps}) + bash[2](4)"));
    // Played, it is answered as the position sent whole.
    let whole = analysed(&to, &budget());
    assert_eq!(whole["outcome"], "P");
    // A move into another game, or out of range, is refused.
    for (term, component, into) in [
        (1, 0, "nim(3)"),
        (0, 0, "bash[3](1)"),
        (2, 0, "nim(0)"),
        (0, 4001, "nim(0)"),
    ] {
        let played = CompactMove {
            term,
            component,
            component_to: into.to_owned(),
        };
        assert!(matches!(
            play_compact(&source, &played, &budget()),
            Err(Failure::Input { .. })
        ));
    }
}

#[test]
fn a_passed_deadline_is_the_time_limit() {
    let mut late = budget();
    late.deadline = Instant::now() - Duration::from_secs(1);
    let failure = analyse("nim(3, 5, 7)", &late).unwrap_err();
    assert!(message_of(failure).contains("(the time limit)"));
}
