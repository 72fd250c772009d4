//! What an answer holds and what it may take: [`Answer`], its [`WinningMove`]s
//! and [`SearchCost`], and the [`SolveOptions`] that bound the search behind it.

use num_bigint::BigUint;

use crate::family::Part;
use crate::sums::explorer::{Explorer, ProgressHook};
use crate::sums::position::PositionText;
use crate::theory::checkpoint::Checkpoint;
use crate::theory::game::{Convention, ImpartialGame, Outcome};
use crate::theory::loopy::LoopyValue;
use crate::theory::solver::{Budget, Solver};

/// The default budget of a search for one answer: two million components or
/// positions (and four moves per component in the explored graphs), so that
/// `solve` answers or refuses within a few seconds; `--max-states` raises it.
pub const DEFAULT_MAX_STATES: usize = 2_000_000;

/// The default memory a search may hold: 4 GiB, as the command line's
/// `--max-memory`.
pub const DEFAULT_MAX_MEMORY: u64 = 4 << 30;

/// Limits of one answer, and who hears of its progress.
#[derive(Clone)]
pub struct SolveOptions {
    /// The most winning moves listed (all are counted).
    pub max_moves: usize,
    /// The most positions a search may store.
    pub max_states: usize,
    /// The most bytes a search may hold (its tables, keys and pending moves,
    /// counted as it grows).
    pub max_memory: u64,
    /// Told of a long search's progress, if anyone is listening.
    pub progress: Option<ProgressHook>,
    /// Whether the winning moves are looked for at all. Without them a sum
    /// under normal play is answered by its nimber alone (for a searched
    /// component such as Cram, only the nimber is searched); the answer then
    /// lists none and says its count is unknown (`moves_counted` false, with
    /// a note).
    pub winning_moves: bool,
    /// Where the search keeps its progress (`solve --checkpoint FILE`): read
    /// back before it starts, saved as it goes and when it stops. Only a
    /// position of one component under normal play whose family's search
    /// keeps one ([`crate::family::Family::keeps_checkpoints`]: Cram's) takes
    /// it; any other is refused with [`SearchError::Checkpoint`].
    ///
    /// [`SearchError::Checkpoint`]: crate::theory::limits::SearchError::Checkpoint
    pub checkpoint: Option<Checkpoint>,
}

impl std::fmt::Debug for SolveOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SolveOptions")
            .field("max_moves", &self.max_moves)
            .field("max_states", &self.max_states)
            .field("max_memory", &self.max_memory)
            .field("progress", &self.progress.is_some())
            .field("winning_moves", &self.winning_moves)
            .field("checkpoint", &self.checkpoint)
            .finish()
    }
}

impl Default for SolveOptions {
    fn default() -> Self {
        Self {
            max_moves: 100,
            max_states: DEFAULT_MAX_STATES,
            max_memory: DEFAULT_MAX_MEMORY,
            progress: None,
            winning_moves: true,
            checkpoint: None,
        }
    }
}

impl SolveOptions {
    /// An explorer within these options' limits, reporting to their hook.
    pub(crate) fn explorer(&self) -> Explorer {
        Explorer::new(self.max_states)
            .with_memory_limit(self.max_memory)
            .with_progress(self.progress.clone())
    }

    /// The budget of one search: these options' state and memory limits.
    #[must_use]
    pub const fn budget(&self) -> Budget {
        Budget {
            states: self.max_states,
            bytes: self.max_memory,
        }
    }

    /// A solver of `game` within these options' limits, with dense tables for
    /// numberings of at most `dense_slots` positions.
    pub(crate) fn solver<'g, G: ImpartialGame>(
        &self,
        game: &'g G,
        dense_slots: usize,
    ) -> Solver<'g, G> {
        Solver::new(game).with_budget(self.budget(), dense_slots)
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
    pub(crate) fn in_component(
        component: &Part,
        group: usize,
        part: usize,
        leaves: Vec<Part>,
    ) -> Self {
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
    /// The nimber, where the position has one (not under misère play, nor
    /// where its value is infinite).
    pub nimber: Option<BigUint>,
    /// The generalized Sprague-Grundy value of the sum (Smith; see
    /// [`crate::theory::loopy`]), when a component's game may go on for ever
    /// (a `digraph` token): a nimber, or `∞(K)`. `None` for the sums of games
    /// that always end.
    pub loopy_value: Option<LoopyValue>,
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
    pub(crate) fn of<G: ImpartialGame>(explorer: &Explorer, solver: &Solver<'_, G>) -> Self {
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

/// The bytes of whole positions a list of winning moves may hold, when each move
/// changes the whole position (`every(...)`, `rounds[k](...)`): a move of a sum of a
/// million components is as long as the position, and a hundred of them made
/// gigabytes of output.
pub(crate) const WHOLE_MOVES_BYTES: usize = 10_000_000;

/// How many of `max` moves, each written as a whole position of `text_bytes`
/// bytes, fit in [`WHOLE_MOVES_BYTES`]: at least one, so a winning move is always
/// shown. Their descriptions count too: see [`keep_whole_moves_within_budget`].
pub(crate) fn whole_moves_within_budget(max: usize, text_bytes: usize) -> usize {
    max.min((WHOLE_MOVES_BYTES / text_bytes.max(1)).max(1))
}

/// Drops the moves listed after the first whose whole positions and descriptions
/// together pass [`WHOLE_MOVES_BYTES`] (a move of Every-SG is described in every
/// component it changes, often longer than the position).
/// Returns whether it dropped any.
pub(crate) fn keep_whole_moves_within_budget(moves: &mut Vec<WinningMove>) -> bool {
    let mut bytes = 0;
    let kept = moves
        .iter()
        .take_while(|m| {
            bytes += m.description.len() + m.whole.as_ref().map_or(0, String::len);
            bytes <= WHOLE_MOVES_BYTES
        })
        .count();
    let listed = moves.len();
    moves.truncate(kept.max(1));
    moves.len() < listed
}

/// The note of an answer whose moves were cut by [`WHOLE_MOVES_BYTES`].
pub(crate) fn whole_moves_note(listed: usize) -> String {
    format!(
        "{listed} winning move(s) listed: each changes the whole position and is written \
         whole, and the moves listed stop at {WHOLE_MOVES_BYTES} bytes (the count is exact)"
    )
}
