//! A misère sum searched whole, as one game: the positions of the sum
//! explored once, then their outcomes found on one or more threads.

use super::answer::misere_answer;
use crate::family::Part;
use crate::sums::answer::{Answer, SearchCost, SolveOptions, WinningMove};
use crate::sums::disjunctive::*;
use crate::sums::explorer::Explorer;
use crate::sums::explorer::{GraphGame, Multiset, SlotGame};
use crate::sums::position::Position;
use crate::theory::game::{ImpartialGame, Outcome};
use crate::theory::solver::{SearchError, parallel};

/// A misère sum searched whole, as one game.
pub(in crate::sums) fn misere_by_search(
    position: &Position,
    options: &SolveOptions,
) -> Result<Answer, SearchError> {
    let (explorer, roots) = explored(position, options)?;
    let search = MisereSearch {
        position,
        options,
        explorer: &explorer,
        roots: &roots,
    };
    let finite = explorer.is_finite_from(&roots);
    if let Some((game, start)) = SlotGame::new(&explorer, &roots, dense_slots(options)) {
        let after = |slot, option| game.after(start, slot, option);
        if finite {
            let positions = game.dense_positions().unwrap_or(usize::MAX);
            return search_misere_on_threads(search, after, |moves| {
                parallel::misere_outcomes_of_moves(
                    &game,
                    &start,
                    moves,
                    options.budget(),
                    positions,
                )
            });
        }
        return search_misere(search, &game, &start, after);
    }
    let game = GraphGame::new(&explorer);
    let start = explorer.multiset(roots.iter().copied());
    let after = |slot, option| multiset_after(&explorer, &roots, slot, option);
    if finite {
        return search_misere_on_threads(search, after, |moves| {
            parallel::misere_outcomes_of_moves_hashed(&game, &start, moves, options.budget())
        });
    }
    search_misere(search, &game, &start, after)
}

/// The components of `position` explored, and their nodes in the order of
/// the sum (group by group).
pub(in crate::sums) fn explored(
    position: &Position,
    options: &SolveOptions,
) -> Result<(Explorer, Vec<u32>), SearchError> {
    let mut explorer = options.explorer();
    let mut roots = Vec::with_capacity(position.component_count());
    for group in &position.groups {
        for part in &group.parts {
            roots.push(explorer.explore(part)?);
        }
    }
    Ok((explorer, roots))
}

/// The components `roots` after the move to option `option` of component `slot`,
/// as a multiset of the explorer's ids.
pub(in crate::sums) fn multiset_after(
    explorer: &Explorer,
    roots: &[u32],
    slot: usize,
    option: usize,
) -> Multiset {
    let rest = roots
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != slot)
        .map(|(_, &id)| id);
    let leaves = explorer.options(roots[slot])[option].iter().copied();
    explorer.multiset(rest.chain(leaves))
}

/// A misère search that stores more than this fraction of its state limit
/// warns that the positions after its winning moves, solved on their own,
/// may not fit the limit.
pub(in crate::sums) const RESEARCH_WARNING_SHARE: usize = 20;

/// A misère sum searched as one game: the position, the options, and its
/// components explored (`roots`, numbered over all groups).
#[derive(Clone, Copy)]
pub(in crate::sums) struct MisereSearch<'a> {
    position: &'a Position,
    options: &'a SolveOptions,
    explorer: &'a Explorer,
    roots: &'a [u32],
}

/// Searches the sum as `game` from `start` and lists its winning moves:
/// `after(slot, option)` is the position after move `option` of component
/// `slot`, in the explorer's move order.
pub(in crate::sums) fn search_misere<G: ImpartialGame>(
    search: MisereSearch<'_>,
    game: &G,
    start: &G::Position,
    after: impl Fn(usize, usize) -> G::Position,
) -> Result<Answer, SearchError> {
    let MisereSearch {
        options,
        explorer,
        roots,
        ..
    } = search;
    let mut solver = options.solver(game, dense_slots(options));
    let outcome = solver.misere_outcome(start)?;
    let mut winning = Vec::new();
    if outcome == Outcome::NextPlayerWins {
        for (slot, &root) in roots.iter().enumerate() {
            for option in 0..explorer.options(root).len() {
                if solver.misere_outcome(&after(slot, option))? == Outcome::PreviousPlayerWins {
                    winning.push((slot, option));
                }
            }
        }
    }
    misere_search_answer(search, outcome, &winning, SearchCost::of(explorer, &solver))
}

/// [`search_misere`] for a sum of finite components: every move of the start
/// (`after(slot, option)`) searched at once on the threads of the pool by
/// `outcomes`, over one shared table ([`parallel`]). The answer is that of one
/// thread.
pub(in crate::sums) fn search_misere_on_threads<P>(
    search: MisereSearch<'_>,
    after: impl Fn(usize, usize) -> P,
    outcomes: impl FnOnce(&[P]) -> Result<parallel::MoveOutcomes, SearchError>,
) -> Result<Answer, SearchError> {
    let MisereSearch {
        explorer, roots, ..
    } = search;
    let mut moves = Vec::new();
    let mut positions = Vec::new();
    for (slot, &root) in roots.iter().enumerate() {
        for option in 0..explorer.options(root).len() {
            moves.push((slot, option));
            positions.push(after(slot, option));
        }
    }
    let found = outcomes(&positions)?;
    drop(positions);
    // A move to a position its mover loses wins; with no move at all, the
    // player to move wins under misère play.
    let winning: Vec<(usize, usize)> = moves
        .into_iter()
        .zip(&found.mover_wins)
        .filter(|&(_, &mover_wins)| !mover_wins)
        .map(|(slot_option, _)| slot_option)
        .collect();
    let outcome = if found.mover_wins.is_empty() || !winning.is_empty() {
        Outcome::NextPlayerWins
    } else {
        Outcome::PreviousPlayerWins
    };
    let cost = SearchCost {
        components_explored: explorer.len(),
        positions_expanded: found.positions_expanded,
        positions_stored: found.positions_stored,
        bytes_per_position: found.bytes_per_position,
    };
    misere_search_answer(search, outcome, &winning, cost)
}

/// The answer of a misère search: its outcome, its winning moves (component
/// slot and option, in order) and what it cost.
pub(in crate::sums) fn misere_search_answer(
    search: MisereSearch<'_>,
    outcome: Outcome,
    winning: &[(usize, usize)],
    cost: SearchCost,
) -> Result<Answer, SearchError> {
    let MisereSearch {
        position,
        options,
        explorer,
        roots,
    } = search;
    // The component of each slot: its group and its place there.
    let places: Vec<(usize, usize, &Part)> = position
        .groups
        .iter()
        .enumerate()
        .flat_map(|(g, group)| {
            group
                .parts
                .iter()
                .enumerate()
                .map(move |(i, part)| (g, i, part))
        })
        .collect();
    let mut moves = Vec::new();
    for &(slot, option) in winning.iter().take(options.max_moves) {
        let (g, i, part) = places[slot];
        let leaves = explorer.leaves(roots[slot], option)?;
        moves.push(WinningMove::in_component(part, g, i, leaves));
    }
    let count = winning.len() as u64;
    let truncated = count > moves.len() as u64;
    let mut notes = Vec::new();
    // A position after a winning move was decided here with the tables of the
    // whole search; searched on its own, in another order, it can need far
    // more positions (a misère search has no sum rule to cut it down).
    if count > 0 && cost.positions_stored > options.max_states / RESEARCH_WARNING_SHARE {
        // Not the count itself: on several threads it can differ a little.
        notes.push(format!(
            "the positions after the winning moves were decided within this search, which \
             stored more than one in {RESEARCH_WARNING_SHARE} of the {} positions allowed; \
             solved on its own, such a position is searched afresh and may need more (raise \
             --max-states N then)",
            options.max_states
        ));
    }
    Ok(Answer {
        notes,
        search: cost,
        ..misere_answer(
            position,
            outcome,
            moves,
            count.into(),
            truncated,
            "misère search",
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::build;
    use crate::lang::parse;
    use crate::theory::cancel::Cancel;

    /// The slot game (mixed-radix numbers, dense tables) and the graph game
    /// (sorted multisets, hash tables) must agree on every misère sum.
    #[test]
    fn both_misere_representations_agree() {
        let options = SolveOptions::default();
        for a in 0..7 {
            for b in 0..7 {
                for c in 0..5 {
                    let text = format!("misere(sub[1, 3, 4]({a}) + bash[2]({b}) + nim({c}, 2))");
                    let position = build(&parse(&text).unwrap()).unwrap();
                    let (explorer, roots) = explored(&position, &options).unwrap();
                    let (slots, start) =
                        SlotGame::new(&explorer, &roots, dense_slots(&options)).unwrap();
                    let search = MisereSearch {
                        position: &position,
                        options: &options,
                        explorer: &explorer,
                        roots: &roots,
                    };
                    let by_slots =
                        search_misere(search, &slots, &start, |s, o| slots.after(start, s, o))
                            .unwrap();
                    let graph = GraphGame::new(&explorer);
                    let by_graph = search_misere(
                        search,
                        &graph,
                        &explorer.multiset(roots.iter().copied()),
                        |slot, option| multiset_after(&explorer, &roots, slot, option),
                    )
                    .unwrap();
                    assert_eq!(by_slots.outcome, by_graph.outcome, "{text}");
                    assert_eq!(
                        by_slots.winning_move_count, by_graph.winning_move_count,
                        "{text}"
                    );
                    let targets = |answer: &Answer| -> Vec<String> {
                        answer
                            .winning_moves
                            .iter()
                            .map(|m| answer.target(m))
                            .collect()
                    };
                    assert_eq!(targets(&by_slots), targets(&by_graph), "{text}");
                }
            }
        }
    }

    /// A misère sum of finite components is searched on every thread
    /// ([`parallel`]): a byte a position when no component splits, a hash
    /// table of positions when some do (octal games). Its answer on 1, 2 and
    /// 7 threads is the solver's: outcome, winning moves and their count (and
    /// on one thread the positions stored).
    #[test]
    fn misere_searches_are_answered_alike_on_any_number_of_threads() {
        let options = SolveOptions::default();
        let summary = |found: &Answer| {
            let targets: Vec<String> = found
                .winning_moves
                .iter()
                .map(|m| found.target(m))
                .collect();
            (found.outcome, found.winning_move_count.clone(), targets)
        };
        // Checks the sum `text` against the solver on one thread, on the graph
        // game (sorted multisets) or on the slot game; whether the first
        // player wins.
        let answered_as_the_solver = |text: &str, on_graph: bool| {
            let position = build(&parse(text).unwrap()).unwrap();
            let (explorer, roots) = explored(&position, &options).unwrap();
            let search = MisereSearch {
                position: &position,
                options: &options,
                explorer: &explorer,
                roots: &roots,
            };
            let by_solver = if on_graph {
                let graph = GraphGame::new(&explorer);
                let start = explorer.multiset(roots.iter().copied());
                search_misere(search, &graph, &start, |s, o| {
                    multiset_after(&explorer, &roots, s, o)
                })
            } else {
                let (slots, start) =
                    SlotGame::new(&explorer, &roots, dense_slots(&options)).unwrap();
                search_misere(search, &slots, &start, |s, o| slots.after(start, s, o))
            }
            .unwrap();
            let answers = crate::testing::on_one_two_and_seven_threads(|| {
                let found = misere_by_search(&position, &options).unwrap();
                (summary(&found), found.search.positions_stored)
            });
            for (threads, found) in [1, 2, 7].into_iter().zip(answers) {
                assert_eq!(found.0, summary(&by_solver), "{text}: {threads} threads");
                if threads == 1 {
                    // Several threads may store a few more.
                    assert_eq!(found.1, by_solver.search.positions_stored, "{text}");
                }
            }
            by_solver.outcome == Outcome::NextPlayerWins
        };
        let sums: Vec<String> = (0..6)
            .flat_map(|a| {
                (0..6).flat_map(move |b| {
                    [
                        format!("misere(sub[1, 3, 4]({a}) + bash[2]({b}) + wythoff(3, 5))"),
                        // Small sums, where misère play differs from normal play.
                        format!("misere(sub[1, 3, 4]({a}) + bash[2]({b}) + nim({}))", a % 2),
                    ]
                })
            })
            .collect();
        // Every sum answered as the solver answers it, and both outcomes met.
        let all_answered_as_the_solver = |sums: &[String], on_graph: bool| {
            let wins = sums
                .iter()
                .filter(|text| answered_as_the_solver(text, on_graph))
                .count();
            assert!(wins > 0 && wins < sums.len(), "{wins} of {}", sums.len());
        };
        all_answered_as_the_solver(&sums, false);
        // Components that split: the hashed table, against the solver on the
        // graph game.
        let sums: Vec<String> = [1, 2, 7, 12]
            .into_iter()
            .flat_map(|a| {
                [0, 1, 5, 9, 10].into_iter().flat_map(move |b| {
                    [
                        format!("misere(octal[0.07]({a}) + octal[0.07]({b}) + wythoff(1, 2))"),
                        format!("misere(octal[0.07]({a}) + octal[0.137]({b}))"),
                    ]
                })
            })
            .collect();
        all_answered_as_the_solver(&sums, true);
    }

    /// A quotient built while solving counts its steps against the caller's
    /// state limit, and a construction cut by it is not remembered: a later
    /// call with the default limits answers by the quotient.
    #[test]
    fn a_quotient_cut_by_the_callers_state_limit_is_not_remembered() {
        // A rule no other test builds, so that no quotient of it is known.
        let position = build(&parse("misere(octal[0.751](10, 20, 30, 40))").unwrap()).unwrap();
        let few = SolveOptions {
            max_states: 1000,
            ..SolveOptions::default()
        };
        assert!(matches!(
            crate::sums::analysis::solve(&position, &few),
            Err(SearchError::StateLimit { .. })
        ));
        let answer = crate::sums::analysis::solve(&position, &SolveOptions::default()).unwrap();
        assert_eq!(answer.method, "misère quotient");
        // Once built, the quotient answers under the small limit too.
        assert_eq!(
            crate::sums::analysis::solve(&position, &few)
                .unwrap()
                .method,
            "misère quotient"
        );
    }

    /// On any number of threads a misère search stops at the state limit and
    /// at the memory limit (counted over all threads), at the caller's signal,
    /// and reports a loopy component as a cycle.
    #[test]
    fn misere_searches_stop_alike_on_any_number_of_threads() {
        // Components that never split: the search on every thread.
        let text = "misere(sub[1, 3, 4](60) + bash[2](50) + wythoff(5, 9) + nim(12))";
        let position = build(&parse(text).unwrap()).unwrap();
        for (options, expected) in [
            (
                SolveOptions {
                    max_states: 2_000,
                    ..SolveOptions::default()
                },
                SearchError::StateLimit { limit: 2_000 },
            ),
            (
                SolveOptions {
                    max_memory: 60_000,
                    ..SolveOptions::default()
                },
                SearchError::MemoryLimit { limit: 60_000 },
            ),
        ] {
            let found = crate::testing::on_one_two_and_seven_threads(|| {
                misere_by_search(&position, &options).map(|answer| answer.outcome)
            });
            for found in found {
                assert_eq!(found, Err(expected.clone()), "{text}");
            }
        }
        let stopped = crate::testing::on_one_two_and_seven_threads(|| {
            let signal = Cancel::new();
            signal.cancel();
            signal.run(|| misere_by_search(&position, &SolveOptions::default()).map(|a| a.outcome))
        });
        for found in stopped {
            assert_eq!(found, Err(SearchError::Cancelled), "{text}");
        }
        let loopy = "misere(script[\"fn moves(n) { [(n + 1) % 4] }\"](0) + nim(2, 3))";
        let position = build(&parse(loopy).unwrap()).unwrap();
        let found = crate::testing::on_one_two_and_seven_threads(|| {
            misere_by_search(&position, &SolveOptions::default()).map(|a| a.outcome)
        });
        for found in found {
            assert_eq!(found, Err(SearchError::Cycle), "{loopy}");
        }
    }
}
