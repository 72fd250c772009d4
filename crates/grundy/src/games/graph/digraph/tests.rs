//! `digraph` against a retrograde analysis of whole sums (win, loss or draw
//! of every position by counting, written here apart from the theory), and
//! against `dag` on acyclic graphs.

use num_bigint::BigUint;
use proptest::prelude::*;
use serde_json::Value;

use crate::catalogue::build;
use crate::lang::parse;
use crate::sums::analysis::{SolveOptions, solve};
use crate::sums::report::answer_json;
use crate::testing::{Xorshift, try_answer};
use crate::theory::game::Outcome;

/// A random digraph of `n` vertices as `(u, v)` edges (0-based): loops,
/// repeats, cycles and sinks all occur.
fn random_edges(rng: &mut Xorshift, n: u32, most: u64) -> Vec<(u32, u32)> {
    let mut edges = Vec::new();
    for u in 0..n {
        for _ in 0..rng.below(most + 1) {
            edges.push((u, rng.below(u64::from(n)) as u32));
        }
    }
    edges
}

/// The graph's text in the contract's format.
fn graph_text(n: u32, edges: &[(u32, u32)]) -> String {
    let mut text = format!("{n} {}", edges.len());
    for (u, v) in edges {
        text.push_str(&format!("; {} {}", u + 1, v + 1));
    }
    text
}

/// The whole game of `tokens` on the graph beside a Nim heap of `heap`: a
/// position is the tokens' vertices and the heap; a move moves one token
/// along one edge or takes from the heap. Returns every position's outcome
/// by retrograde analysis and the moves of each position, as indices.
struct WholeGame {
    n: u32,
    k: u32,
    heap: u32,
    outcomes: Vec<Outcome>,
    moves: Vec<Vec<usize>>,
}

impl WholeGame {
    fn new(n: u32, edges: &[(u32, u32)], k: u32, heap: u32) -> Self {
        let positions = (n as usize).pow(k) * (heap as usize + 1);
        let mut game = Self {
            n,
            k,
            heap,
            outcomes: Vec::new(),
            moves: vec![Vec::new(); positions],
        };
        for index in 0..positions {
            let (tokens, h) = game.decode(index);
            let mut list = Vec::new();
            for (i, &t) in tokens.iter().enumerate() {
                for &(u, v) in edges {
                    if u == t {
                        let mut after = tokens.clone();
                        after[i] = v;
                        list.push(game.encode(&after, h));
                    }
                }
            }
            for taken in 1..=h {
                list.push(game.encode(&tokens, h - taken));
            }
            game.moves[index] = list;
        }
        game.outcomes = retrograde(&game.moves);
        game
    }

    fn decode(&self, mut index: usize) -> (Vec<u32>, u32) {
        let h = (index % (self.heap as usize + 1)) as u32;
        index /= self.heap as usize + 1;
        let tokens = (0..self.k)
            .map(|_| {
                let t = (index % self.n as usize) as u32;
                index /= self.n as usize;
                t
            })
            .collect();
        (tokens, h)
    }

    fn encode(&self, tokens: &[u32], h: u32) -> usize {
        let mut index = 0;
        for &t in tokens.iter().rev() {
            index = index * self.n as usize + t as usize;
        }
        index * (self.heap as usize + 1) + h as usize
    }

    /// The moves of position `index` to lost positions.
    fn winning_moves(&self, index: usize) -> usize {
        self.moves[index]
            .iter()
            .filter(|&&to| self.outcomes[to] == Outcome::PreviousPlayerWins)
            .count()
    }
}

/// Sinks are lost; a position with a lost option is won; one whose options
/// are all won is lost; the rest are drawn.
fn retrograde(moves: &[Vec<usize>]) -> Vec<Outcome> {
    let mut predecessors = vec![Vec::new(); moves.len()];
    for (v, list) in moves.iter().enumerate() {
        for &w in list {
            predecessors[w].push(v);
        }
    }
    let mut outcome: Vec<Option<Outcome>> = vec![None; moves.len()];
    let mut left: Vec<usize> = moves.iter().map(Vec::len).collect();
    let mut queue: Vec<usize> = (0..moves.len()).filter(|&v| moves[v].is_empty()).collect();
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

/// The position's text: the tokens on the graph, and the heap if any.
fn position_text(graph: &str, tokens: &[u32], heap: Option<u32>) -> String {
    let mut text = format!("digraph(\"{graph}\"");
    for t in tokens {
        text.push_str(&format!(", {}", t + 1));
    }
    text.push(')');
    if let Some(h) = heap {
        text.push_str(&format!(" + nim({h})"));
    }
    text
}

/// Every position of up to `k` tokens (and a heap, if `heap` > 0) answered
/// by `solve` and compared with the retrograde analysis: the outcome, and
/// the number of winning moves (moves to lost positions), each listed move
/// leading to a lost position.
fn check_graph(n: u32, edges: &[(u32, u32)], k: u32, heap: u32) -> [usize; 3] {
    let graph = graph_text(n, edges);
    let whole = WholeGame::new(n, edges, k, heap);
    let mut seen = [0; 3];
    for index in 0..whole.moves.len() {
        let (tokens, h) = whole.decode(index);
        let text = position_text(&graph, &tokens, (heap > 0).then_some(h));
        let answer = try_answer(&text).unwrap();
        let expected = whole.outcomes[index];
        assert_eq!(answer.outcome, expected, "{text}");
        assert_eq!(
            answer.winning_move_count,
            BigUint::from(whole.winning_moves(index)),
            "{text}"
        );
        assert!(answer.moves_counted && !answer.truncated, "{text}");
        for winning in &answer.winning_moves {
            let after = try_answer(&answer.target(winning)).unwrap();
            assert_eq!(after.outcome, Outcome::PreviousPlayerWins, "{text}");
        }
        // The value printed agrees with the outcome.
        let value = answer
            .loopy_value
            .clone()
            .expect("a digraph answer has a loopy value");
        assert_eq!(value.outcome(), expected, "{text}");
        assert_eq!(answer.nimber.as_ref(), value.nimber(), "{text}");
        seen[match expected {
            Outcome::PreviousPlayerWins => 0,
            Outcome::NextPlayerWins => 1,
            Outcome::Draw => 2,
        }] += 1;
    }
    seen
}

#[test]
fn every_sum_of_up_to_three_tokens_matches_retrograde_analysis() {
    let mut rng = Xorshift::from_state(0xd1_6a_a9);
    let mut seen = [0usize; 3];
    for round in 0..1500u64 {
        let n = 1 + rng.below(5) as u32;
        let edges = random_edges(&mut rng, n, 1 + round % 3);
        let k = 1 + (round % 3) as u32;
        let found = check_graph(n, &edges, k, 0);
        for (total, found) in seen.iter_mut().zip(found) {
            *total += found;
        }
    }
    assert!(seen.iter().all(|&count| count > 1000), "{seen:?}");
}

#[test]
fn tokens_beside_a_nim_heap_match_retrograde_analysis() {
    let mut rng = Xorshift::from_state(0xd1_6a_aa);
    for round in 0..400u64 {
        let n = 1 + rng.below(5) as u32;
        let edges = random_edges(&mut rng, n, 1 + round % 3);
        check_graph(n, &edges, 1 + (round % 2) as u32, 1 + (round % 3) as u32);
    }
}

/// The answer's JSON object without its position and method.
fn contract_fields(text: &str) -> Value {
    let position = build(&parse(text).unwrap()).unwrap();
    let answer = solve(&position, &SolveOptions::default()).unwrap();
    let mut object: Value = serde_json::from_str(&answer_json(&answer, &position)).unwrap();
    let map = object.as_object_mut().unwrap();
    map.remove("position");
    map.remove("method");
    map.remove("loopy_value");
    let moves = map["winning_moves"].as_array_mut().unwrap();
    for winning in moves.iter_mut() {
        let to = winning["to"]
            .as_str()
            .unwrap()
            .replacen("digraph(", "dag(", 1);
        winning["to"] = Value::from(to);
    }
    // `digraph` lists a token's moves by Fraenkel's counter, `dag` by edge.
    moves.sort_by_key(|winning| winning["to"].as_str().unwrap().to_owned());
    object
}

#[test]
fn acyclic_graphs_answer_as_dag_does() {
    let mut rng = Xorshift::from_state(0xd1_6a_ab);
    for round in 0..300u64 {
        let n = 1 + rng.below(8) as u32;
        let mut order: Vec<u32> = (0..n).collect();
        rng.shuffle(&mut order);
        let edges: Vec<(u32, u32)> = (0..rng.below(3 * u64::from(n)))
            .filter_map(|_| {
                let a = rng.below(u64::from(n)) as usize;
                let b = rng.below(u64::from(n)) as usize;
                (a != b).then(|| (order[a.min(b)], order[a.max(b)]))
            })
            .collect();
        let graph = graph_text(n, &edges);
        let tokens: Vec<u32> = (0..1 + round % 3)
            .map(|_| rng.below(u64::from(n)) as u32)
            .collect();
        let heap = (round % 2 == 0).then_some((round % 5) as u32);
        let loopy = position_text(&graph, &tokens, heap);
        let dag = loopy.replacen("digraph(", "dag(", 1);
        assert_eq!(contract_fields(&loopy), contract_fields(&dag), "{loopy}");
        let every = |name: &str| {
            crate::catalogue::Catalogue::standard()
                .every_start(
                    &parse(&format!("{name}(\"{graph}\")")).unwrap(),
                    crate::catalogue::BuildLimits::default(),
                )
                .unwrap()
        };
        let (loopy_every, dag_every) = (every("digraph"), every("dag"));
        assert_eq!(loopy_every.outcomes, dag_every.outcomes);
        let values: Vec<u32> = loopy_every
            .loopy
            .unwrap()
            .iter()
            .map(|value| u32::try_from(value.nimber().unwrap()).unwrap())
            .collect();
        assert_eq!(Some(values), dag_every.nimbers);
    }
}

#[test]
fn the_json_names_draws_and_infinite_values() {
    let object = |text: &str| -> Value {
        let position = build(&parse(text).unwrap()).unwrap();
        let answer = solve(&position, &SolveOptions::default()).unwrap();
        serde_json::from_str(&answer_json(&answer, &position)).unwrap()
    };
    let cycle = object("digraph(\"3 3; 1 2; 2 3; 3 1\", 1)");
    assert_eq!(cycle["outcome"], "D");
    assert_eq!(cycle["first_player_wins"], false);
    assert_eq!(cycle["nimber"], Value::Null);
    assert_eq!(cycle["loopy_value"], "inf{}");
    assert_eq!(cycle["winning_move_count"], 0);
    let escape = object("digraph(\"2 2; 1 1; 1 2\", 1)");
    assert_eq!(escape["outcome"], "N");
    assert_eq!(escape["loopy_value"], "inf{0}");
    assert_eq!(
        escape["winning_moves"][0]["to"],
        "digraph(\"2 2; 1 1; 1 2\", 2)"
    );
    // ∞(0) + *1 = ∞(1): a draw; ∞(0, 2) + *2 = ∞(0, 2): a win by moving
    // the infinite token to value 2.
    assert_eq!(
        object("digraph(\"2 2; 1 1; 1 2\", 1) + nim(1)")["loopy_value"],
        "inf{1}"
    );
    let finite = object("digraph(\"3 3; 1 2; 2 1; 2 3\", 1, 2)");
    assert_eq!(finite["loopy_value"], "1");
    assert_eq!(finite["nimber"], 1);
    // Nim alone has no loopy value.
    assert!(object("nim(3)").get("loopy_value").is_none());
}

#[test]
fn bad_graphs_and_vertices_are_refused_at_their_column() {
    for (text, message) in [
        ("digraph(\"2 1; 1 2\", 0)", "vertex 0 is out of 1..2"),
        ("digraph(\"2 1; 1 2\", 3)", "vertex 3 is out of 1..2"),
        (
            "digraph(\"2 1; 1 2\", 18446744073709551615)",
            "vertex 18446744073709551615 is out of 1..2",
        ),
        (
            "digraph(\"2 1; 1 3\", 1)",
            "in the graph string, line 2: vertex 3 is out of 1..2",
        ),
        (
            "digraph(\"2 1; 0 1\", 1)",
            "in the graph string, line 2: vertex 0 is out of 1..2",
        ),
    ] {
        let error = crate::testing::try_answer(text).unwrap_err();
        assert_eq!(error.message, message, "{text}");
    }
}

proptest! {
    #[test]
    fn random_graphs_of_two_tokens_match_retrograde_analysis(seed in any::<u64>(), n in 1u32..7, most in 0u64..4) {
        let mut rng = Xorshift::from_state(seed | 1);
        let edges = random_edges(&mut rng, n, most);
        check_graph(n, &edges, 2, 0);
    }
}
