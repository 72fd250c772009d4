//! The labelling and Smith's sum rule against a plain retrograde analysis:
//! win, loss or draw of every position by counting, written here apart from
//! the code it checks.

use super::*;
use crate::testing::Xorshift;
use proptest::prelude::*;

/// Win, loss or draw of every vertex of the graph whose options are
/// `options[v]`: sinks are lost; a vertex with a lost option is won; a vertex
/// all of whose options are won is lost; whatever is left is drawn.
fn retrograde(options: &[Vec<u32>]) -> Vec<Outcome> {
    let n = options.len();
    let mut predecessors = vec![Vec::new(); n];
    for (v, list) in options.iter().enumerate() {
        for &w in list {
            predecessors[w as usize].push(v);
        }
    }
    let mut outcome: Vec<Option<Outcome>> = vec![None; n];
    let mut unresolved: Vec<usize> = options.iter().map(Vec::len).collect();
    let mut queue: Vec<usize> = (0..n).filter(|&v| options[v].is_empty()).collect();
    for &v in &queue {
        outcome[v] = Some(Outcome::PreviousPlayerWins);
    }
    while let Some(v) = queue.pop() {
        for &p in &predecessors[v] {
            if outcome[p].is_some() {
                continue;
            }
            if outcome[v] == Some(Outcome::PreviousPlayerWins) {
                outcome[p] = Some(Outcome::NextPlayerWins);
                queue.push(p);
            } else {
                unresolved[p] -= 1;
                if unresolved[p] == 0 {
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

/// A random digraph of `n` vertices: each vertex gets up to `degree`
/// options, loops and repeats allowed, some vertices none (sinks).
fn random_graph(rng: &mut Xorshift, n: u32, degree: u64) -> Vec<Vec<u32>> {
    (0..n)
        .map(|_| {
            let count = rng.below(degree + 1);
            (0..count).map(|_| rng.below(u64::from(n)) as u32).collect()
        })
        .collect()
}

fn compressed(options: &[Vec<u32>]) -> (Vec<usize>, Vec<u32>) {
    let mut offsets = vec![0];
    let mut targets = Vec::new();
    for list in options {
        targets.extend_from_slice(list);
        offsets.push(targets.len());
    }
    (offsets, targets)
}

fn values_of(options: &[Vec<u32>]) -> VertexValues {
    let (offsets, targets) = compressed(options);
    vertex_values(&offsets, &targets, u64::MAX).unwrap()
}

fn value(values: &VertexValues, options: &[Vec<u32>], v: usize) -> LoopyValue {
    values.value(v as u32, &options[v])
}

/// The sum of `k` tokens on the graph: a position is the vertices of the
/// tokens (in order, numbered in base n), a move moves one token.
fn sum_graph(options: &[Vec<u32>], k: u32) -> Vec<Vec<u32>> {
    let n = options.len() as u32;
    (0..n.pow(k))
        .map(|position| {
            let mut moves = Vec::new();
            let mut place = 1;
            for _ in 0..k {
                let token = position / place % n;
                for &w in &options[token as usize] {
                    moves.push(position - token * place + w * place);
                }
                place *= n;
            }
            moves
        })
        .collect()
}

/// The defining conditions of the values, checked vertex by vertex: a
/// finite value `i` has no option of value `i`, options of every value
/// below `i`, and every other option (larger or infinite) has an option of
/// value `i` with a smaller counter; an infinite value has no such number.
fn check_definition(options: &[Vec<u32>], values: &VertexValues) {
    for (u, list) in options.iter().enumerate() {
        let own = values.values[u];
        if own == INFINITE {
            continue;
        }
        let finite: Vec<u32> = list
            .iter()
            .map(|&w| values.values[w as usize])
            .filter(|&g| g != INFINITE)
            .collect();
        assert!(
            !finite.contains(&own),
            "vertex {u} has an option of its own value"
        );
        for below in 0..own {
            assert!(finite.contains(&below), "vertex {u} misses value {below}");
        }
        for &w in list {
            let g = values.values[w as usize];
            if g != INFINITE && g < own {
                continue;
            }
            assert!(
                options[w as usize]
                    .iter()
                    .any(|&x| values.values[x as usize] == own
                        && values.counters[x as usize] < values.counters[u]),
                "option {w} of vertex {u} cannot be reversed to {own} with a smaller counter"
            );
        }
    }
}

#[test]
fn outcomes_of_single_tokens_match_retrograde_analysis() {
    let mut rng = Xorshift::from_state(0x5eed_1007);
    for round in 0..3000 {
        let n = 1 + rng.below(12) as u32;
        let options = random_graph(&mut rng, n, 1 + round % 4);
        let values = values_of(&options);
        check_definition(&options, &values);
        let expected = retrograde(&options);
        for (v, &expected) in expected.iter().enumerate() {
            assert_eq!(
                value(&values, &options, v).outcome(),
                expected,
                "round {round}, vertex {v}, graph {options:?}"
            );
        }
    }
}

#[test]
fn sums_of_up_to_three_tokens_match_retrograde_analysis_and_smiths_rule() {
    let mut rng = Xorshift::from_state(0x5eed_2007);
    let mut seen = [0usize; 3];
    for round in 0..2000u64 {
        let n = 1 + rng.below(if round % 2 == 0 { 6 } else { 9 }) as u32;
        let options = random_graph(&mut rng, n, 1 + round % 3);
        let values = values_of(&options);
        let single: Vec<LoopyValue> = (0..n as usize)
            .map(|v| value(&values, &options, v))
            .collect();
        for k in 2..=3u32 {
            if k == 3 && n > 7 {
                continue;
            }
            let sum = sum_graph(&options, k);
            let expected = retrograde(&sum);
            let sum_values = values_of(&sum);
            for position in 0..sum.len() {
                let tokens: Vec<&LoopyValue> = (0..k)
                    .map(|i| &single[position / (n as usize).pow(i) % n as usize])
                    .collect();
                let by_rule = LoopyValue::sum(tokens.iter().copied());
                assert_eq!(
                    by_rule.outcome(),
                    expected[position],
                    "round {round}, {k} tokens at {position}, graph {options:?}"
                );
                // Smith's rule gives the value itself, K included.
                assert_eq!(
                    by_rule,
                    value(&sum_values, &sum, position),
                    "round {round}, {k} tokens at {position}, graph {options:?}"
                );
                seen[match by_rule.outcome() {
                    Outcome::PreviousPlayerWins => 0,
                    Outcome::NextPlayerWins => 1,
                    Outcome::Draw => 2,
                }] += 1;
            }
        }
    }
    // Each outcome was met many times.
    assert!(seen.iter().all(|&count| count > 10_000), "{seen:?}");
}

#[test]
fn winning_moves_of_sums_are_the_moves_to_value_zero() {
    // A move of a sum wins exactly when it reaches a lost position; by
    // Smith's rule those are the moves to a sum of value 0.
    let mut rng = Xorshift::from_state(0x5eed_3007);
    for round in 0..500u64 {
        let n = 2 + rng.below(6) as u32;
        let options = random_graph(&mut rng, n, 1 + round % 3);
        let values = values_of(&options);
        let sum = sum_graph(&options, 2);
        let expected = retrograde(&sum);
        for (position, moves) in sum.iter().enumerate() {
            for &to in moves {
                let (a, b) = (to as usize % n as usize, to as usize / n as usize);
                let after = value(&values, &options, a).plus(&value(&values, &options, b));
                assert_eq!(
                    after == LoopyValue::Finite(BigUint::ZERO),
                    expected[to as usize] == Outcome::PreviousPlayerWins,
                    "round {round}, move {position} -> {to}"
                );
            }
        }
    }
}

#[test]
fn small_cases_worked_from_the_definition() {
    // Smith (1966); Winning Ways, ch. 12, writes ∞ for ∞(∅) and ∞_0 for
    // ∞(0). Each worked by hand from the definition.
    let cases: &[(&[&[u32]], &[&str])] = &[
        // A loop: the play can only go round for ever.
        (&[&[0]], &["inf{}"]),
        // A 2-cycle: the same.
        (&[&[1], &[0]], &["inf{}", "inf{}"]),
        // A loop beside a move to a sink: win by leaving the loop.
        (&[&[0, 1], &[]], &["inf{0}", "0"]),
        // A 2-cycle with an exit from 1: 1 wins by the exit, so 0 must move
        // to 1 and lose; a cycle need not make a draw.
        (&[&[1], &[0, 2], &[]], &["0", "1", "0"]),
        // A 3-cycle with an exit from 2: values 1, 0, 2, all finite.
        (&[&[1], &[2], &[0, 3], &[]], &["1", "0", "2", "0"]),
        // A 3-cycle each of whose vertices can step out to a sink: moving
        // along the cycle cannot be reversed, so each is ∞(0), a win by
        // stepping out.
        (
            &[&[1, 3], &[2, 3], &[0, 3], &[]],
            &["inf{0}", "inf{0}", "inf{0}", "0"],
        ),
        // A vertex whose only move enters a loop: ∞(∅) though it is not on
        // a cycle itself.
        (&[&[1], &[1]], &["inf{}", "inf{}"]),
        // Options 0 and a draw: ∞(0); options 1 and a draw: ∞(1), a draw.
        (&[&[1, 2], &[], &[2]], &["inf{0}", "0", "inf{}"]),
        (&[&[1, 3], &[2], &[], &[3]], &["inf{1}", "1", "0", "inf{}"]),
    ];
    for (graph, expected) in cases {
        let options: Vec<Vec<u32>> = graph.iter().map(|list| list.to_vec()).collect();
        let values = values_of(&options);
        let found: Vec<String> = (0..options.len())
            .map(|v| value(&values, &options, v).to_string())
            .collect();
        assert_eq!(found, *expected, "{options:?}");
        let outcomes: Vec<Outcome> = (0..options.len())
            .map(|v| value(&values, &options, v).outcome())
            .collect();
        assert_eq!(outcomes, retrograde(&options), "{options:?}");
    }
}

#[test]
fn the_sum_rule_on_named_values() {
    let finite = |n: u32| LoopyValue::Finite(n.into());
    let infinite = |set: &[u32]| LoopyValue::infinite(set.iter().map(|&k| BigUint::from(k)));
    assert_eq!(finite(3).plus(&finite(5)), finite(6));
    assert_eq!(infinite(&[0, 2]).plus(&finite(3)), infinite(&[1, 3]));
    assert_eq!(infinite(&[0, 2]).plus(&finite(3)).outcome(), Outcome::Draw);
    assert_eq!(
        infinite(&[1, 2]).plus(&finite(2)).outcome(),
        Outcome::NextPlayerWins
    );
    assert_eq!(infinite(&[0]).plus(&infinite(&[0])), infinite(&[]));
    assert_eq!(
        infinite(&[0]).plus(&infinite(&[0])).outcome(),
        Outcome::Draw
    );
    assert_eq!(LoopyValue::sum([]), finite(0));
    assert_eq!(infinite(&[0, 2]).to_string(), "inf{0,2}");
    assert_eq!(infinite(&[]).to_string(), "inf{}");
    assert_eq!(finite(3).to_string(), "3");
}

#[test]
fn acyclic_graphs_get_the_mex_of_their_options() {
    let mut rng = Xorshift::from_state(0x5eed_4007);
    for _ in 0..500 {
        let n = 1 + rng.below(30) as u32;
        // Options only to higher vertices: acyclic, valued from the top.
        let options: Vec<Vec<u32>> = (0..n)
            .map(|v| {
                let count = rng.below(5);
                (0..count)
                    .filter_map(|_| {
                        let w = rng.below(u64::from(n)) as u32;
                        (w > v).then_some(w)
                    })
                    .collect()
            })
            .collect();
        let values = values_of(&options);
        let mut mex = vec![0u32; n as usize];
        for v in (0..n as usize).rev() {
            mex[v] = (0..)
                .find(|g| !options[v].iter().any(|&w| mex[w as usize] == *g))
                .unwrap();
        }
        assert_eq!(values.values, mex);
    }
}

#[test]
fn a_long_cycle_and_a_long_path_need_no_stack() {
    let n = 1_000_000u32;
    let path: Vec<Vec<u32>> = (0..n)
        .map(|v| if v + 1 < n { vec![v + 1] } else { vec![] })
        .collect();
    let values = values_of(&path);
    assert_eq!(values.values[0], (n - 1) % 2);
    let cycle: Vec<Vec<u32>> = (0..n).map(|v| vec![(v + 1) % n]).collect();
    assert!(values_of(&cycle).values.iter().all(|&g| g == INFINITE));
}

#[test]
fn the_memory_limit_is_checked_before_allocating() {
    let (offsets, targets) = compressed(&[vec![0, 1], vec![]]);
    assert_eq!(
        vertex_values(&offsets, &targets, 10),
        Err(SearchError::MemoryLimit { limit: 10 })
    );
    assert!(vertex_values(&offsets, &targets, labelling_bytes(2, 2)).is_ok());
}

proptest! {
    #[test]
    fn random_graphs_match_retrograde_analysis(seed in any::<u64>(), n in 1u32..60, degree in 0u64..6) {
        let mut rng = Xorshift::from_state(seed | 1);
        let options = random_graph(&mut rng, n, degree);
        let values = values_of(&options);
        check_definition(&options, &values);
        let expected = retrograde(&options);
        for (v, &expected) in expected.iter().enumerate() {
            prop_assert_eq!(value(&values, &options, v).outcome(), expected);
        }
    }
}
