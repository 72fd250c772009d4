//! Answering a position: who wins, its nimber, and every winning move.
//!
//! Under normal play the answer follows the Sprague-Grundy theorem: the nimber
//! of a sum is the nim-sum `X` of its components' nimbers, the first player wins
//! iff `X ≠ 0`, and the winning moves are exactly the moves of a component of
//! nimber `g` to a position of nimber `g ⊕ X` (Bouton 1901 for Nim; Winning
//! Ways ch. 4 in general). Each component answers by theory where it has one,
//! otherwise by search of its explored graph.
//!
//! Under misère play the theorem fails, so the whole sum is searched as one game.
//!
//! ```
//! use grundy::analysis::{solve, SolveOptions};
//! use grundy::catalogue::build;
//! use grundy::lang::parse;
//!
//! let position = build(&parse("nim(3, 5, 7)").unwrap()).unwrap();
//! let answer = solve(&position, &SolveOptions::default()).unwrap();
//! assert!(answer.outcome.first_player_wins());
//! assert_eq!(answer.nimber, Some(1u32.into()));
//! assert_eq!(answer.target(&answer.winning_moves[2]), "nim(3, 5, 6)");
//! assert_eq!(answer.winning_moves[2].description, "take 1 from the heap of 7");
//! assert_eq!(answer.winning_move_count, 3u32.into()); // 3 → 2, 5 → 4, 7 → 6
//! ```

use std::collections::BTreeSet;

use num_bigint::BigUint;
use num_traits::Zero;

use crate::catalogue::explorer::GraphGame;
use crate::catalogue::{Explorer, Part, Position, PositionText};
use crate::game::{Convention, Outcome};
use crate::solver::{DEFAULT_STATE_LIMIT, SearchError, Solver};

/// Limits of one answer.
#[derive(Clone, Copy, Debug)]
pub struct SolveOptions {
    /// The most winning moves listed (all are counted).
    pub max_moves: usize,
    /// The most positions a search may store.
    pub max_states: usize,
}

impl Default for SolveOptions {
    fn default() -> Self {
        Self {
            max_moves: 100,
            max_states: DEFAULT_STATE_LIMIT,
        }
    }
}

/// One winning move.
#[derive(Clone, Debug)]
pub struct WinningMove {
    /// The move in words.
    pub description: String,
    /// The index of the term the move is made in.
    pub group: usize,
    /// The index of the component within its term.
    pub part: usize,
    /// The components the move leaves in place of the one it changes.
    pub leaves: Vec<Part>,
}

/// The answer to a position.
#[derive(Clone, Debug)]
pub struct Answer {
    /// The canonical text of the position.
    pub position: PositionText,
    /// The play convention.
    pub convention: Convention,
    /// Who wins.
    pub outcome: Outcome,
    /// The nimber, where the position has one (not under misère play).
    pub nimber: Option<BigUint>,
    /// The first winning moves, at most [`SolveOptions::max_moves`].
    pub winning_moves: Vec<WinningMove>,
    /// The exact number of winning moves.
    pub winning_move_count: BigUint,
    /// Whether `winning_moves` was cut short.
    pub truncated: bool,
    /// The theorem or algorithm that gave the answer.
    pub method: String,
}

impl Answer {
    /// The canonical text of the position `winning` leads to.
    #[must_use]
    pub fn target(&self, winning: &WinningMove) -> String {
        self.position
            .replacing(winning.group, winning.part, &winning.leaves)
    }
}

/// How a component's nimber is known.
enum Known {
    Theory(BigUint),
    Node(u32),
}

/// Answers `position`.
///
/// # Errors
/// [`SearchError::StateLimit`] when a search needs more positions than
/// `options.max_states`.
pub fn solve(position: &Position, options: &SolveOptions) -> Result<Answer, SearchError> {
    match position.convention {
        Convention::Normal => solve_normal(position, options),
        Convention::Misere => solve_misere(position, options),
    }
}

fn solve_normal(position: &Position, options: &SolveOptions) -> Result<Answer, SearchError> {
    let mut explorer = Explorer::new(options.max_states);
    let mut methods = BTreeSet::new();
    let mut known = Vec::with_capacity(position.groups.len());
    for group in &position.groups {
        let mut parts = Vec::with_capacity(group.parts.len());
        for part in &group.parts {
            parts.push(match part.nimber_by_theory() {
                Some((nimber, method)) => {
                    methods.insert(method);
                    Known::Theory(nimber)
                }
                None => {
                    methods.insert("search");
                    Known::Node(explorer.explore(&group.head, part)?)
                }
            });
        }
        known.push(parts);
    }
    let game = GraphGame::new(&explorer);
    let mut solver = Solver::new(&game).with_state_limit(options.max_states);
    let mut nimbers = Vec::with_capacity(known.len());
    let mut total = BigUint::zero();
    for parts in &known {
        let mut group_nimbers = Vec::with_capacity(parts.len());
        for known in parts {
            let nimber = match known {
                Known::Theory(nimber) => nimber.clone(),
                Known::Node(id) => solver.nimber(&explorer.multiset([*id]))?.into(),
            };
            total ^= &nimber;
            group_nimbers.push(nimber);
        }
        nimbers.push(group_nimbers);
    }
    let mut moves = Vec::new();
    let mut count = BigUint::zero();
    if !total.is_zero() {
        for (g, group) in position.groups.iter().enumerate() {
            for (i, part) in group.parts.iter().enumerate() {
                let target = &nimbers[g][i] ^ &total;
                let room = options.max_moves.saturating_sub(moves.len());
                let (found, listed) = match &known[g][i] {
                    Known::Node(id) => {
                        let mut found = 0u64;
                        let mut listed = Vec::new();
                        for option in explorer.options(*id) {
                            let value =
                                solver.nimber(&explorer.multiset(option.iter().copied()))?;
                            if BigUint::from(value) == target {
                                found += 1;
                                if listed.len() < room {
                                    listed.push(
                                        option.iter().map(|&o| explorer.part(o).clone()).collect(),
                                    );
                                }
                            }
                        }
                        (BigUint::from(found), listed)
                    }
                    Known::Theory(_) => moves_to_nimber(&group.head, part, &target, room, options)?,
                };
                count += found;
                for leaves in listed {
                    moves.push(WinningMove {
                        description: part.describe_move(&leaves),
                        group: g,
                        part: i,
                        leaves,
                    });
                }
            }
        }
    }
    let method = if methods.len() == 1 {
        methods.into_iter().next().unwrap_or("search").to_owned()
    } else {
        format!(
            "nim-sum of {}",
            methods.into_iter().collect::<Vec<_>>().join(", ")
        )
    };
    let truncated = count > BigUint::from(moves.len());
    Ok(Answer {
        position: PositionText::new(position),
        convention: Convention::Normal,
        outcome: if total.is_zero() {
            Outcome::PreviousPlayerWins
        } else {
            Outcome::NextPlayerWins
        },
        nimber: Some(total),
        winning_moves: moves,
        winning_move_count: count,
        truncated,
        method,
    })
}

/// The moves of a component whose nimber is known by theory to positions of
/// nimber `target`: by theory if the component has one, otherwise by
/// enumerating its moves and valuing each result.
fn moves_to_nimber(
    head: &str,
    part: &Part,
    target: &BigUint,
    room: usize,
    options: &SolveOptions,
) -> Result<(BigUint, Vec<Vec<Part>>), SearchError> {
    if let Some(theory) = part.moves_to_nimber_by_theory(target, room) {
        return Ok((theory.count, theory.listed));
    }
    let mut found = 0u64;
    let mut listed = Vec::new();
    for to in part.moves(options.max_states)? {
        let mut value = BigUint::zero();
        for piece in &to {
            value ^= match piece.nimber_by_theory() {
                Some((nimber, _)) => nimber,
                None => {
                    let mut explorer = Explorer::new(options.max_states);
                    let id = explorer.explore(head, piece)?;
                    let game = GraphGame::new(&explorer);
                    let mut solver = Solver::new(&game).with_state_limit(options.max_states);
                    solver.nimber(&explorer.multiset([id]))?.into()
                }
            };
        }
        if &value == target {
            found += 1;
            if listed.len() < room {
                listed.push(to);
            }
        }
    }
    Ok((found.into(), listed))
}

fn solve_misere(position: &Position, options: &SolveOptions) -> Result<Answer, SearchError> {
    let mut explorer = Explorer::new(options.max_states);
    let mut ids = Vec::with_capacity(position.groups.len());
    for group in &position.groups {
        let group_ids: Vec<u32> = group
            .parts
            .iter()
            .map(|part| explorer.explore(&group.head, part))
            .collect::<Result<_, _>>()?;
        ids.push(group_ids);
    }
    let game = GraphGame::new(&explorer);
    let mut solver = Solver::new(&game).with_state_limit(options.max_states);
    let all = || ids.iter().flatten().copied();
    let root = explorer.multiset(all());
    let outcome = solver.misere_outcome(&root)?;
    let mut moves = Vec::new();
    let mut count = 0u64;
    if outcome == Outcome::NextPlayerWins {
        for (g, group) in position.groups.iter().enumerate() {
            for (i, part) in group.parts.iter().enumerate() {
                let id = ids[g][i];
                for option in explorer.options(id) {
                    // The sum without this one component, plus what the move leaves.
                    let mut rest: Vec<u32> = all().collect();
                    let at = rest.iter().position(|&x| x == id).unwrap_or(0);
                    rest.swap_remove(at);
                    let next = explorer.multiset(rest.into_iter().chain(option.iter().copied()));
                    if solver.misere_outcome(&next)? == Outcome::PreviousPlayerWins {
                        count += 1;
                        if moves.len() < options.max_moves {
                            let leaves: Vec<Part> =
                                option.iter().map(|&o| explorer.part(o).clone()).collect();
                            moves.push(WinningMove {
                                description: part.describe_move(&leaves),
                                group: g,
                                part: i,
                                leaves,
                            });
                        }
                    }
                }
            }
        }
    }
    let truncated = count > moves.len() as u64;
    Ok(Answer {
        position: PositionText::new(position),
        convention: Convention::Misere,
        outcome,
        nimber: None,
        winning_moves: moves,
        winning_move_count: count.into(),
        truncated,
        method: "misère search".to_owned(),
    })
}
