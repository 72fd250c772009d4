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

use crate::family::{Part, PositionSearch, SearchedNimbers};
use crate::sums::explorer::Explorer;
use crate::sums::explorer::{GraphGame, SlotGame};
use crate::sums::position::{Compound, Position, PositionText};
use crate::theory::game::{Convention, ImpartialGame, Outcome};
use crate::theory::solver::{SearchError, Solver};

/// The default budget of a search for one answer: two million components or
/// positions (and four moves per component in the explored graphs), so that
/// `solve` answers or refuses within a few seconds; `--max-states` raises it.
pub const DEFAULT_MAX_STATES: usize = 2_000_000;

/// How far the exploration of a search has come, for a progress indicator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchProgress {
    /// Components explored so far.
    pub positions: usize,
    /// Moves stored so far.
    pub moves: usize,
    /// The most components the search may store (the state limit).
    pub limit: usize,
}

/// Called now and then while a search explores (every 2^16 components).
pub type ProgressHook = std::sync::Arc<dyn Fn(SearchProgress) + Send + Sync>;

/// Limits of one answer, and who hears of its progress.
#[derive(Clone)]
pub struct SolveOptions {
    /// The most winning moves listed (all are counted).
    pub max_moves: usize,
    /// The most positions a search may store.
    pub max_states: usize,
    /// Told of a long search's progress, if anyone is listening.
    pub progress: Option<ProgressHook>,
    /// Whether the winning moves are looked for at all. Without them a sum
    /// under normal play is answered by its nimber alone (for a searched
    /// component such as Cram, only the nimber is searched); the answer then
    /// lists none and says its count is unknown (`moves_counted` false, with
    /// a note).
    pub winning_moves: bool,
}

impl std::fmt::Debug for SolveOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SolveOptions")
            .field("max_moves", &self.max_moves)
            .field("max_states", &self.max_states)
            .field("progress", &self.progress.is_some())
            .field("winning_moves", &self.winning_moves)
            .finish()
    }
}

impl Default for SolveOptions {
    fn default() -> Self {
        Self {
            max_moves: 100,
            max_states: DEFAULT_MAX_STATES,
            progress: None,
            winning_moves: true,
        }
    }
}

impl SolveOptions {
    /// An explorer within these options' state limit, reporting to their hook.
    pub(crate) fn explorer(&self) -> Explorer {
        Explorer::new(self.max_states).with_progress(self.progress.clone())
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
    /// The whole position after the move, for moves that change more than
    /// one component (Every-SG) or positions printed around their sum (a match
    /// of rounds); [`Answer::target`] gives it. `None` for a move in one
    /// component of a sum, whose target is spliced from the position's text.
    pub whole: Option<String>,
}

impl WinningMove {
    /// The move of component `part` of group `group` that leaves `leaves`.
    fn in_component(component: &Part, group: usize, part: usize, leaves: Vec<Part>) -> Self {
        Self {
            description: component.describe_move(&leaves),
            group,
            part,
            leaves,
            whole: None,
        }
    }
}

/// The answer to a position.
#[derive(Clone, Debug)]
pub struct Answer {
    /// The canonical text of the position.
    pub position: PositionText,
    /// The play convention.
    pub convention: Convention,
    /// How the command-line contract names the play: `normal`, `misere`, or
    /// for wrapped compounds `every` and `rounds`.
    pub play: &'static str,
    /// Who wins.
    pub outcome: Outcome,
    /// The nimber, where the position has one (not under misère play).
    pub nimber: Option<BigUint>,
    /// The first winning moves, at most [`SolveOptions::max_moves`].
    pub winning_moves: Vec<WinningMove>,
    /// The number of winning moves: exact when
    /// [`moves_counted`](Answer::moves_counted), otherwise only those of the
    /// components whose moves could be counted (the notes name the others).
    pub winning_move_count: BigUint,
    /// Whether every winning move was counted; false when a component has too
    /// many moves to enumerate and no theory counts them (a Rest Nim heap above
    /// 1024 tokens). The outcome and nimber are exact either way.
    pub moves_counted: bool,
    /// Whether `winning_moves` was cut short.
    pub truncated: bool,
    /// The theorem or algorithm that gave the answer.
    pub method: String,
    /// What the answer leaves out and why, in words (a nimber not searched,
    /// moves not counted); empty for a complete answer.
    pub notes: Vec<String>,
    /// What searching cost, if anything was searched.
    pub search: SearchCost,
}

/// The work a search did for an answer.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SearchCost {
    /// Distinct components explored as explicit graphs.
    pub components_explored: usize,
    /// Positions of sums the solver expanded.
    pub positions_expanded: u64,
    /// Positions the solver's tables hold.
    pub positions_stored: usize,
    /// Bytes per stored position in the solver's tables.
    pub bytes_per_position: f64,
}

impl SearchCost {
    fn of<G: ImpartialGame>(explorer: &Explorer, solver: &Solver<'_, G>) -> Self {
        Self {
            components_explored: explorer.len(),
            positions_expanded: solver.statistics().positions_expanded,
            positions_stored: solver.stored_positions(),
            bytes_per_position: solver.bytes_per_stored_position(),
        }
    }
}

impl Answer {
    /// The canonical text of the position `winning` leads to.
    #[must_use]
    pub fn target(&self, winning: &WinningMove) -> String {
        match &winning.whole {
            Some(whole) => whole.clone(),
            None => self
                .position
                .replacing(winning.group, winning.part, &winning.leaves),
        }
    }
}

/// How a component's nimber is known.
enum Known {
    Theory(BigUint),
    Node(u32),
    /// Found by the family's own search, with every option's nimber.
    Searched(SearchedNimbers<Part>),
    /// Found by the family's own search, which is kept to find the moves to a
    /// given nimber afterwards.
    Searching(Box<dyn PositionSearch<Part>>, BigUint),
}

/// Answers `position`.
///
/// # Errors
/// [`SearchError::StateLimit`] when a search needs more positions than
/// `options.max_states`; [`SearchError::CountLimit`] when the winning moves of
/// a component are beyond counting (a Rest Nim heap above 1024 tokens);
/// [`SearchError::Cycle`] for a loopy game.
pub fn solve(position: &Position, options: &SolveOptions) -> Result<Answer, SearchError> {
    match &position.compound {
        Compound::Sum => {}
        Compound::Every => return crate::sums::every_sg::solve_every(position, options),
        Compound::Rounds { rounds, start } => {
            return crate::sums::rounds::solve_rounds(position, rounds, start, options);
        }
    }
    match position.convention {
        Convention::Normal => solve_normal(position, options),
        Convention::Misere => solve_misere(position, options),
    }
}

/// The most components the search for the nimber of a lone component whose
/// outcome is known by theory explores (a tenth of a second or so), within the
/// state limit: the answer is already exact without it, and for the walking
/// games on large graphs the search is hopeless, so it must give up fast.
const ALONE_NIMBER_SEARCH_LIMIT: usize = 1 << 16;

/// A position of one component whose outcome and winning moves are known by
/// theory though its nimber may not be: the nimber is 0 for a P-position, and
/// otherwise found by a bounded search of the component alone, or said to be
/// unknown and why.
fn solve_alone(position: &Position, options: &SolveOptions) -> Option<Answer> {
    let [group] = position.groups.as_slice() else {
        return None;
    };
    let [part] = group.parts.as_slice() else {
        return None;
    };
    if part.nimber_by_theory().is_some() {
        return None;
    }
    let alone = part.outcome_by_theory(options.max_moves)?;
    let mut notes = Vec::new();
    let nimber = if alone.outcome == Outcome::PreviousPlayerWins {
        Some(BigUint::zero())
    } else {
        let limit = options.max_states.min(ALONE_NIMBER_SEARCH_LIMIT);
        let searched = match part.nimbers_by_search(options.max_states) {
            Some(found) => found.map(|found| found.nimber),
            None => nimber_by_search(part, limit).map(BigUint::from),
        };
        match searched {
            Ok(nimber) => Some(nimber),
            Err(error) => {
                notes.push(format!(
                    "the nimber has no closed form and was not searched: {error} \
                     (the outcome and the winning moves are exact)"
                ));
                None
            }
        }
    };
    let moves: Vec<WinningMove> = alone
        .winning
        .listed
        .into_iter()
        .take(options.max_moves)
        .map(|leaves| WinningMove::in_component(part, 0, 0, leaves))
        .collect();
    let truncated = alone.winning.count > BigUint::from(moves.len());
    Some(Answer {
        position: PositionText::new(position),
        convention: Convention::Normal,
        play: "normal",
        outcome: alone.outcome,
        nimber,
        winning_moves: moves,
        winning_move_count: alone.winning.count,
        moves_counted: true,
        truncated,
        method: alone.method.to_owned(),
        notes,
        search: SearchCost::default(),
    })
}

/// The nimber of one component by search of its game graph alone, storing at
/// most `limit` components.
///
/// # Errors
/// As [`Explorer::explore`] and [`Solver::nimber`].
fn nimber_by_search(part: &Part, limit: usize) -> Result<u32, SearchError> {
    let mut explorer = Explorer::new(limit);
    let id = explorer.explore(part)?;
    let game = GraphGame::new(&explorer);
    let mut solver = Solver::new(&game).with_state_limit(limit);
    solver.nimber(&explorer.multiset([id]))
}

/// A misère sum whose components all know their nimbers by theory and satisfy
/// the Anti-SG condition: the Anti-SG rule (Bouton's rule for misère Nim,
/// generalized; see [`crate::sums::misere`]) answers it. A move of a component
/// of nimber `n` to nimber `t` wins iff the sum after it is a loss by the rule;
/// only `t` in `{n xor X, 0, 1}` can be, so those are counted by theory.
fn solve_anti_sg(position: &Position, options: &SolveOptions) -> Option<Answer> {
    let mut nimbers = Vec::new();
    for group in &position.groups {
        for part in &group.parts {
            if !part.satisfies_anti_sg_condition() {
                return None;
            }
            nimbers.push(part.nimber_by_theory()?.0);
        }
    }
    let one = BigUint::from(1u8);
    let total = nimbers.iter().fold(BigUint::zero(), |x, n| x ^ n);
    let big = nimbers.iter().filter(|n| **n > one).count();
    let outcome = crate::sums::misere::anti_sg_outcome(&nimbers);
    let mut moves = Vec::new();
    let mut count = BigUint::zero();
    let mut index = 0;
    for (g, group) in position.groups.iter().enumerate() {
        for (i, part) in group.parts.iter().enumerate() {
            let nimber = &nimbers[index];
            index += 1;
            let mut targets = vec![nimber ^ &total, BigUint::zero(), one.clone()];
            targets.sort();
            targets.dedup();
            for target in targets.into_iter().filter(|t| t != nimber) {
                let total_after = &total ^ nimber ^ &target;
                let big_after = big - usize::from(*nimber > one) + usize::from(target > one);
                let loses_after = if total_after.is_zero() {
                    big_after > 0
                } else {
                    big_after == 0
                };
                if !loses_after {
                    continue;
                }
                let room = options.max_moves.saturating_sub(moves.len());
                let found = part.moves_to_nimber_by_theory(&target, room)?;
                count += found.count;
                for leaves in found.listed.into_iter().take(room) {
                    moves.push(WinningMove::in_component(part, g, i, leaves));
                }
            }
        }
    }
    let truncated = count > BigUint::from(moves.len());
    Some(Answer {
        position: PositionText::new(position),
        convention: Convention::Misere,
        play: "misere",
        outcome,
        nimber: None,
        winning_moves: moves,
        winning_move_count: count,
        moves_counted: true,
        truncated,
        method: "anti-sg rule".to_owned(),
        notes: Vec::new(),
        search: SearchCost::default(),
    })
}

fn solve_normal(position: &Position, options: &SolveOptions) -> Result<Answer, SearchError> {
    if let Some(answer) = solve_alone(position, options) {
        return Ok(answer);
    }
    let mut explorer = options.explorer();
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
                    if let Some(mut search) = part.position_search(options.max_states) {
                        let nimber = search.nimber()?;
                        Known::Searching(search, nimber)
                    } else {
                        match part.nimbers_by_search(options.max_states) {
                            Some(found) => Known::Searched(found?),
                            None => Known::Node(explorer.explore(part)?),
                        }
                    }
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
                Known::Searched(found) => found.nimber.clone(),
                Known::Searching(_, nimber) => nimber.clone(),
            };
            total ^= &nimber;
            group_nimbers.push(nimber);
        }
        nimbers.push(group_nimbers);
    }
    let mut moves = Vec::new();
    let mut count = BigUint::zero();
    let mut uncounted = Vec::new();
    if !options.winning_moves && !total.is_zero() {
        uncounted
            .push("the winning moves were not looked for (asked for the nimber alone)".to_owned());
    } else if !total.is_zero() {
        for (g, group) in position.groups.iter().enumerate() {
            for (i, part) in group.parts.iter().enumerate() {
                let target = &nimbers[g][i] ^ &total;
                let room = options.max_moves.saturating_sub(moves.len());
                let (found, listed) = match &mut known[g][i] {
                    Known::Node(id) => {
                        let mut found = 0u64;
                        let mut listed = Vec::new();
                        for (index, option) in explorer.options(*id).iter().enumerate() {
                            let value =
                                solver.nimber(&explorer.multiset(option.iter().copied()))?;
                            if BigUint::from(value) == target {
                                found += 1;
                                if listed.len() < room {
                                    listed.push(explorer.leaves(*id, index)?);
                                }
                            }
                        }
                        (BigUint::from(found), listed)
                    }
                    Known::Searched(found) => {
                        let winning = found.options.iter().filter(|(_, n)| *n == target);
                        let listed = winning.clone().take(room).map(|(l, _)| l.clone()).collect();
                        (BigUint::from(winning.count()), listed)
                    }
                    Known::Searching(search, _) => {
                        let found = search.moves_to_nimber(&target, room)?;
                        (found.count, found.listed)
                    }
                    Known::Theory(_) => match moves_to_nimber(part, &target, room, options) {
                        Ok(found) => found,
                        Err(SearchError::CountLimit { refusal, .. }) => {
                            let reason = refusal.reason;
                            // The outcome and nimber stand; only this
                            // component's moves go uncounted, and the answer
                            // says so.
                            uncounted.push(format!(
                                "the winning moves of {}({}) were not counted: {reason}",
                                group.head,
                                arguments_of(part)
                            ));
                            continue;
                        }
                        Err(other) => return Err(other),
                    },
                };
                count += found;
                for leaves in listed {
                    moves.push(WinningMove::in_component(part, g, i, leaves));
                }
            }
        }
    }
    let method = if methods.is_empty() {
        // No component: the player to move cannot move and loses.
        "empty sum: no move".to_owned()
    } else if methods.len() == 1 {
        methods.into_iter().next().unwrap_or("search").to_owned()
    } else {
        format!(
            "nim-sum of {}",
            methods.into_iter().collect::<Vec<_>>().join(", ")
        )
    };
    let truncated = count > BigUint::from(moves.len());
    let search = SearchCost::of(&explorer, &solver);
    Ok(Answer {
        position: PositionText::new(position),
        convention: Convention::Normal,
        play: "normal",
        outcome: if total.is_zero() {
            Outcome::PreviousPlayerWins
        } else {
            Outcome::NextPlayerWins
        },
        nimber: Some(total),
        winning_moves: moves,
        winning_move_count: count,
        moves_counted: uncounted.is_empty(),
        truncated,
        method,
        notes: uncounted,
        search,
    })
}

/// A component's arguments as printed.
fn arguments_of(part: &Part) -> String {
    let mut text = String::new();
    part.write_arguments(&mut text);
    text
}

/// The moves of a component whose nimber is known by theory to positions of
/// nimber `target`: by theory if the component has one, otherwise by
/// enumerating its moves and valuing each result, unless theory says they are
/// too many ([`SearchError::CountLimit`]).
fn moves_to_nimber(
    part: &Part,
    target: &BigUint,
    room: usize,
    options: &SolveOptions,
) -> Result<(BigUint, Vec<Vec<Part>>), SearchError> {
    if let Some(theory) = part.moves_to_nimber_by_theory(target, room) {
        return Ok((theory.count, theory.listed));
    }
    if let Some(refusal) = part.moves_to_nimber_refusal(target) {
        return Err(SearchError::CountLimit {
            refusal,
            nimber: None,
        });
    }
    if let Some(mut search) = part.position_search(options.max_states) {
        let found = search.moves_to_nimber(target, room)?;
        return Ok((found.count, found.listed));
    }
    let mut found = 0u64;
    let mut listed = Vec::new();
    for to in part.moves(options.max_states)? {
        let mut value = BigUint::zero();
        for piece in &to {
            value ^= match piece.nimber_by_theory() {
                Some((nimber, _)) => nimber,
                None => nimber_by_search(piece, options.max_states)?.into(),
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

/// The largest mixed-radix numbering of a misère sum kept in dense arrays:
/// 8 slots (32 bytes) per position the search may store, so that a sum of
/// 7.9 million numbered positions is searched through arrays within the
/// default limit while the positions actually stored stay bounded by it.
const fn dense_slots(max_states: usize) -> usize {
    max_states.saturating_mul(8)
}

fn solve_misere(position: &Position, options: &SolveOptions) -> Result<Answer, SearchError> {
    if let Some(answer) = solve_anti_sg(position, options) {
        return Ok(answer);
    }
    let mut explorer = options.explorer();
    let mut roots = Vec::with_capacity(position.component_count());
    for group in &position.groups {
        for part in &group.parts {
            roots.push(explorer.explore(part)?);
        }
    }
    if let Some((game, start)) = SlotGame::new(&explorer, &roots, dense_slots(options.max_states)) {
        return search_misere(
            position,
            options,
            &explorer,
            &roots,
            &game,
            &start,
            |slot, option| game.after(start, slot, option),
        );
    }
    let game = GraphGame::new(&explorer);
    let start = explorer.multiset(roots.iter().copied());
    search_misere(
        position,
        options,
        &explorer,
        &roots,
        &game,
        &start,
        |slot, option| {
            let rest = roots
                .iter()
                .enumerate()
                .filter(|&(i, _)| i != slot)
                .map(|(_, &id)| id);
            let leaves = explorer.options(roots[slot])[option].iter().copied();
            explorer.multiset(rest.chain(leaves))
        },
    )
}

/// Searches a misère sum as one game and lists its winning moves: `after(slot,
/// option)` is the position after move `option` of component `slot` (numbered
/// over all groups), in the explorer's move order.
fn search_misere<G: ImpartialGame>(
    position: &Position,
    options: &SolveOptions,
    explorer: &Explorer,
    roots: &[u32],
    game: &G,
    start: &G::Position,
    after: impl Fn(usize, usize) -> G::Position,
) -> Result<Answer, SearchError> {
    let mut solver =
        Solver::new(game).with_limits(options.max_states, dense_slots(options.max_states));
    let outcome = solver.misere_outcome(start)?;
    let mut moves = Vec::new();
    let mut count = 0u64;
    if outcome == Outcome::NextPlayerWins {
        let mut slot = 0;
        for (g, group) in position.groups.iter().enumerate() {
            for (i, part) in group.parts.iter().enumerate() {
                for option in 0..explorer.options(roots[slot]).len() {
                    if solver.misere_outcome(&after(slot, option))? == Outcome::PreviousPlayerWins {
                        count += 1;
                        if moves.len() < options.max_moves {
                            let leaves = explorer.leaves(roots[slot], option)?;
                            moves.push(WinningMove::in_component(part, g, i, leaves));
                        }
                    }
                }
                slot += 1;
            }
        }
    }
    let truncated = count > moves.len() as u64;
    let search = SearchCost::of(explorer, &solver);
    Ok(Answer {
        position: PositionText::new(position),
        convention: Convention::Misere,
        play: "misere",
        outcome,
        nimber: None,
        winning_moves: moves,
        winning_move_count: count.into(),
        moves_counted: true,
        truncated,
        method: "misère search".to_owned(),
        notes: Vec::new(),
        search,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::build;
    use crate::lang::parse;

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
                    let mut explorer = options.explorer();
                    let mut roots = Vec::new();
                    for group in &position.groups {
                        for part in &group.parts {
                            roots.push(explorer.explore(part).unwrap());
                        }
                    }
                    let (slots, start) =
                        SlotGame::new(&explorer, &roots, dense_slots(options.max_states)).unwrap();
                    let by_slots = search_misere(
                        &position,
                        &options,
                        &explorer,
                        &roots,
                        &slots,
                        &start,
                        |s, o| slots.after(start, s, o),
                    )
                    .unwrap();
                    let graph = GraphGame::new(&explorer);
                    let by_graph = search_misere(
                        &position,
                        &options,
                        &explorer,
                        &roots,
                        &graph,
                        &explorer.multiset(roots.iter().copied()),
                        |slot, option| {
                            let rest = roots
                                .iter()
                                .enumerate()
                                .filter(|&(i, _)| i != slot)
                                .map(|(_, &id)| id);
                            explorer.multiset(
                                rest.chain(explorer.options(roots[slot])[option].iter().copied()),
                            )
                        },
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
}
