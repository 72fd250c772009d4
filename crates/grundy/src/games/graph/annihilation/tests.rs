//! Annihilation against a retrograde analysis of its positions as sets of
//! occupied vertices (bit masks), written here apart from the game's code.

use num_bigint::BigUint;
use proptest::prelude::*;

use crate::testing::{Xorshift, try_answer};
use crate::theory::game::Outcome;

fn random_edges(rng: &mut Xorshift, n: u32, most: u64) -> Vec<(u32, u32)> {
    let mut edges = Vec::new();
    for u in 0..n {
        for _ in 0..rng.below(most + 1) {
            edges.push((u, rng.below(u64::from(n)) as u32));
        }
    }
    edges
}

fn graph_text(n: u32, edges: &[(u32, u32)]) -> String {
    let mut text = format!("{n} {}", edges.len());
    for (u, v) in edges {
        text.push_str(&format!("; {} {}", u + 1, v + 1));
    }
    text
}

/// The moves of the set `mask` of occupied vertices, as masks: a token on
/// `u` crosses the edge `(u, v)`; on an occupied `v` (another token) both go.
fn moves(edges: &[(u32, u32)], mask: u32) -> Vec<u32> {
    let mut found = Vec::new();
    for &(u, v) in edges {
        if mask & (1 << u) == 0 {
            continue;
        }
        found.push(if u == v {
            mask
        } else if mask & (1 << v) != 0 {
            mask & !(1 << u) & !(1 << v)
        } else {
            mask & !(1 << u) | (1 << v)
        });
    }
    found
}

/// Win, loss or draw of every mask by counting.
fn retrograde(n: u32, edges: &[(u32, u32)]) -> Vec<Outcome> {
    let count = 1usize << n;
    let options: Vec<Vec<u32>> = (0..count as u32).map(|mask| moves(edges, mask)).collect();
    let mut predecessors = vec![Vec::new(); count];
    for (mask, list) in options.iter().enumerate() {
        for &to in list {
            predecessors[to as usize].push(mask);
        }
    }
    let mut outcome: Vec<Option<Outcome>> = vec![None; count];
    let mut left: Vec<usize> = options.iter().map(Vec::len).collect();
    let mut queue: Vec<usize> = (0..count).filter(|&m| options[m].is_empty()).collect();
    for &m in &queue {
        outcome[m] = Some(Outcome::PreviousPlayerWins);
    }
    while let Some(m) = queue.pop() {
        for &p in &predecessors[m] {
            if outcome[p].is_some() {
                continue;
            }
            if outcome[m] == Some(Outcome::PreviousPlayerWins) {
                outcome[p] = Some(Outcome::NextPlayerWins);
                queue.push(p);
            } else {
                left[p] -= 1;
                if left[p] == 0 {
                    outcome[p] = Some(Outcome::PreviousPlayerWins);
                    queue.push(p);
                }
            }
        }
    }
    outcome
        .into_iter()
        .map(|o| o.unwrap_or(Outcome::Draw))
        .collect()
}

fn text_of(graph: &str, mask: u32, n: u32) -> String {
    let mut text = format!("annihilation(\"{graph}\"");
    for v in 0..n {
        if mask & (1 << v) != 0 {
            text.push_str(&format!(", {}", v + 1));
        }
    }
    text.push(')');
    text
}

/// Every set of tokens on the graph: `solve`'s outcome and winning-move
/// count against the retrograde analysis.
fn check_graph(n: u32, edges: &[(u32, u32)]) -> [usize; 3] {
    let graph = graph_text(n, edges);
    let expected = retrograde(n, edges);
    let mut seen = [0; 3];
    for mask in 0..1u32 << n {
        let text = text_of(&graph, mask, n);
        let answer = try_answer(&text).unwrap();
        assert_eq!(answer.outcome, expected[mask as usize], "{text}");
        let winning = moves(edges, mask)
            .into_iter()
            .filter(|&to| expected[to as usize] == Outcome::PreviousPlayerWins)
            .count();
        assert_eq!(answer.winning_move_count, BigUint::from(winning), "{text}");
        for winning in &answer.winning_moves {
            let after = try_answer(&answer.target(winning)).unwrap();
            assert_eq!(after.outcome, Outcome::PreviousPlayerWins, "{text}");
        }
        seen[match expected[mask as usize] {
            Outcome::PreviousPlayerWins => 0,
            Outcome::NextPlayerWins => 1,
            Outcome::Draw => 2,
        }] += 1;
    }
    seen
}

#[test]
fn every_position_of_small_graphs_matches_retrograde_analysis() {
    let mut rng = Xorshift::from_state(0x0a22_11e5);
    let mut seen = [0usize; 3];
    for round in 0..400u64 {
        let n = 1 + rng.below(5) as u32;
        let edges = random_edges(&mut rng, n, 1 + round % 3);
        for (total, found) in seen.iter_mut().zip(check_graph(n, &edges)) {
            *total += found;
        }
    }
    assert!(seen.iter().all(|&count| count > 200), "{seen:?}");
}

#[test]
fn on_acyclic_graphs_the_value_is_the_nim_sum_of_the_tokens_dag_nimbers() {
    // Fraenkel and Yesha: on an acyclic graph annihilation changes no value.
    let mut rng = Xorshift::from_state(0x0a22_11e6);
    for _ in 0..200 {
        let n = 2 + rng.below(6) as u32;
        let edges: Vec<(u32, u32)> = (0..rng.below(3 * u64::from(n)))
            .filter_map(|_| {
                let a = rng.below(u64::from(n)) as u32;
                let b = rng.below(u64::from(n)) as u32;
                (a < b).then_some((a, b))
            })
            .collect();
        let graph = graph_text(n, &edges);
        for mask in 0..1u32 << n {
            let annihilation = try_answer(&text_of(&graph, mask, n)).unwrap();
            let dag =
                try_answer(&text_of(&graph, mask, n).replacen("annihilation(", "dag(", 1)).unwrap();
            assert_eq!(annihilation.nimber, dag.nimber, "{graph} {mask}");
        }
    }
}

#[test]
fn on_a_cycle_annihilation_differs_from_independent_tokens() {
    // Two tokens chasing round a 3-cycle: as independent tokens (digraph)
    // the play never ends, but here the first to catch the other wins.
    let annihilation = try_answer("annihilation(\"3 3; 1 2; 2 3; 3 1\", 1, 2)").unwrap();
    let digraph = try_answer("digraph(\"3 3; 1 2; 2 3; 3 1\", 1, 2)").unwrap();
    assert_eq!(digraph.outcome, Outcome::Draw);
    assert_eq!(annihilation.outcome, Outcome::NextPlayerWins);
    assert_eq!(
        annihilation.target(&annihilation.winning_moves[0]),
        "annihilation(\"3 3; 1 2; 2 3; 3 1\")"
    );
}

#[test]
fn repeated_tokens_and_bad_vertices_are_refused() {
    for (text, message) in [
        (
            "annihilation(\"2 1; 1 2\", 1, 1)",
            "vertex 1 holds two tokens: in annihilation each vertex holds at most one",
        ),
        ("annihilation(\"2 1; 1 2\", 3)", "vertex 3 is out of 1..2"),
    ] {
        assert_eq!(try_answer(text).unwrap_err().message, message, "{text}");
    }
}

proptest! {
    #[test]
    fn random_graphs_match_retrograde_analysis(seed in any::<u64>(), n in 1u32..6, most in 0u64..4) {
        let mut rng = Xorshift::from_state(seed | 1);
        check_graph(n, &random_edges(&mut rng, n, most));
    }
}
