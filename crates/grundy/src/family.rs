//! The unit of extension: a game family, written once, typed.
//!
//! A [`Family`] is the rules of one kind of game (Nim, Wythoff's game, a
//! staircase) over its own position type: the moves, and where theory knows
//! them, the nimber of a position, its moves to a given nimber, or its whole
//! answer (outcome and winning moves without a nimber). One generic adapter
//! turns a family's positions into [`Part`]s, the components of the sums
//! `grundy solve` answers, so a family gets sums, winning moves and their
//! count, misère play, `every(...)` and `rounds[k](...)` with no further code.
//! Components are compared and hashed by their typed positions, never by
//! printed text.
//!
//! ```
//! use std::sync::Arc;
//! use grundy::sums::analysis::{solve, SolveOptions};
//! use grundy::family::{parts, Family};
//! use grundy::theory::game::Convention;
//! use grundy::theory::limits::SearchError;
//! use grundy::sums::position::{Group, Position};
//!
//! #[derive(Debug, PartialEq)]
//! struct SubtractASquare;
//!
//! impl Family for SubtractASquare {
//!     type Position = u64;
//!     fn write_position(&self, heap: &u64, out: &mut String) {
//!         out.push_str(&heap.to_string());
//!     }
//!     fn moves(&self, heap: &u64, _limit: usize) -> Result<Vec<Vec<u64>>, SearchError> {
//!         let squares = (1..).map(|k: u64| k * k).take_while(|s| s <= heap);
//!         Ok(squares.map(|s| vec![heap - s]).collect())
//!     }
//!     fn describe_move(&self, heap: &u64, to: &[u64]) -> String {
//!         format!("take {} from the heap of {heap}", heap - to[0])
//!     }
//! }
//!
//! let game = Arc::new(SubtractASquare);
//! let position = Position::sum(
//!     Convention::Normal,
//!     vec![Group::new("squares", parts(&game, [4, 6]))],
//! );
//! let answer = solve(&position, &SolveOptions::default()).unwrap();
//! assert_eq!(answer.nimber, Some(3u32.into())); // G(4) = 2, G(6) = 1
//! assert_eq!(answer.winning_move_count, 1u32.into());
//! assert_eq!(answer.target(&answer.winning_moves[0]), "squares(3, 6)");
//! ```

use std::any::Any;
use std::fmt;
use std::hash::{BuildHasher, Hash};
use std::sync::Arc;

use num_bigint::BigUint;

use crate::drawing::Drawing;
use crate::rules::HeapRule;
use crate::theory::checkpoint::CheckpointFile;
use crate::theory::game::{ImpartialGame, Outcome};
use crate::theory::loopy::LoopyValue;
use crate::theory::solver::{Budget, Refusal, SearchError};

/// The rules of a game family over typed positions.
///
/// Only [`write_position`](Family::write_position),
/// [`moves`](Family::moves) and [`describe_move`](Family::describe_move) are
/// required; each theory method is optional and, where given, must agree with
/// the moves (every family's tests check that against the generic solver).
pub trait Family: fmt::Debug + PartialEq + Send + Sync + 'static {
    /// A position of one component. Equal positions must have equal futures.
    type Position: Clone + Eq + Hash + fmt::Debug + Send + Sync + 'static;

    /// Appends the position's arguments in canonical form (`7`, or `3, 5`):
    /// what stands between the parentheses of the term.
    fn write_position(&self, position: &Self::Position, out: &mut String);

    /// Every move, as the components it leaves (none, one, or several after a
    /// split); one entry per move, as a player makes them.
    ///
    /// # Errors
    /// [`SearchError::StateLimit`] when there are more than `limit` moves or the
    /// position is too large to enumerate; [`SearchError::TheoryLimit`] when the
    /// family knows the search cannot succeed.
    fn moves(
        &self,
        position: &Self::Position,
        limit: usize,
    ) -> Result<Vec<Vec<Self::Position>>, SearchError>;

    /// At most `max` of the moves, without enumerating the others: all of
    /// them when there are at most `max` ([`FirstMoves::complete`]), otherwise
    /// a sample (the first in the family's order, or any the family can name
    /// cheaply: a heap of 10^40 tokens lists moves to its first nimbers). Each
    /// is a move [`moves`](Family::moves) would list. A front end lists these
    /// where `moves` refuses a position for having too many moves.
    ///
    /// The default asks [`moves`](Family::moves); when it refuses for having
    /// too many, the sample is the moves theory finds to nimbers 0, 1, 2, ...
    /// ([`moves_to_nimber_by_theory`](Family::moves_to_nimber_by_theory)),
    /// and none without theory. Families whose large positions have no such
    /// theory give a sample of their own.
    ///
    /// # Errors
    /// As [`Family::moves`], but never for having more than `max` moves.
    fn first_moves(
        &self,
        position: &Self::Position,
        max: usize,
    ) -> Result<FirstMoves<Self::Position>, SearchError> {
        match self.moves(position, max) {
            Ok(moves) if moves.len() <= max => Ok(FirstMoves {
                moves,
                complete: true,
            }),
            Ok(_) | Err(SearchError::StateLimit { .. }) => Ok(FirstMoves {
                moves: moves_by_nimber(self, position, max),
                complete: false,
            }),
            Err(error) => Err(error),
        }
    }

    /// A description of the move from `from` to `to`, for people ("take 2 from
    /// the heap of 7").
    fn describe_move(&self, from: &Self::Position, to: &[Self::Position]) -> String;

    /// The nimber under normal play by a theorem, with the method's name, for a
    /// position of any size; `None` sends the position to search.
    fn nimber_by_theory(&self, _position: &Self::Position) -> Option<(BigUint, &'static str)> {
        None
    }

    /// The generalized Sprague-Grundy value (Smith; see
    /// [`crate::theory::loopy`]) of a position of a game whose play may go on
    /// for ever (tokens on a digraph with cycles): `None` (the default) for
    /// a family whose games always end. A family that gives it gives the same
    /// nimber by [`nimber_by_theory`](Family::nimber_by_theory) where the
    /// value is finite and `None` there where it is infinite, and its
    /// [`moves_to_nimber_by_theory`](Family::moves_to_nimber_by_theory)
    /// counts the moves to positions of a finite value: a sum with an
    /// infinite component is answered by Smith's rule from these alone. The
    /// method's name comes with the value.
    fn loopy_value(&self, _position: &Self::Position) -> Option<(LoopyValue, &'static str)> {
        None
    }

    /// A lower bound on the nimber by theory, for a position whose nimber
    /// theory does not know ([`nimber_by_theory`](Family::nimber_by_theory)
    /// is `None`) and whose family's search would need more than `budget`:
    /// the nimber is at least the value given, with the method's name. A sum
    /// whose other components have a nim-sum below it is a first-player win
    /// whatever the exact nimber, and its moves in this component to that
    /// nim-sum are its winning moves there (Fibonacci Nim, whose values up to
    /// 3 alone are known).
    fn nimber_floor_by_theory(
        &self,
        _position: &Self::Position,
        _budget: Budget,
    ) -> Option<(BigUint, &'static str)> {
        None
    }

    /// The Every-SG steps of `position` and of its options by theory (see
    /// [`crate::sums::every_sg`]), for positions whose game graph is too large
    /// to explore: the options grouped by their steps, each group counted,
    /// with its first `max` options listed. `None` (the default) without such
    /// theory: `every(...)` then explores the component.
    fn every_steps_by_theory(
        &self,
        _position: &Self::Position,
        _max: usize,
    ) -> Option<EverySteps<Self::Position>> {
        None
    }

    /// The moves from `position` to positions of nimber `target`, by theory:
    /// their exact number and the first `max`. `None` when there is no theory;
    /// the moves are then enumerated and valued one by one.
    fn moves_to_nimber_by_theory(
        &self,
        _position: &Self::Position,
        _target: &BigUint,
        _max: usize,
    ) -> Option<MovesTo<Self::Position>> {
        None
    }

    /// Why the moves to `target` can be neither counted by theory nor
    /// enumerated, when theory knows it before trying; asked only after
    /// [`moves_to_nimber_by_theory`](Family::moves_to_nimber_by_theory) gave
    /// `None`. The answer becomes [`SearchError::CountLimit`].
    fn moves_to_nimber_refusal(
        &self,
        _position: &Self::Position,
        _target: &BigUint,
    ) -> Option<Refusal> {
        None
    }

    /// The outcome and winning moves by theory, for families whose outcome has
    /// a closed form but whose nimber does not (Wythoff, Fibonacci Nim, Moore's
    /// Nim). Used when this component is the whole position under normal play;
    /// its nimber is then found by a bounded search of the component alone.
    fn outcome_by_theory(
        &self,
        _position: &Self::Position,
        _max: usize,
    ) -> Option<OutcomeAnswer<Self::Position>> {
        None
    }

    /// The nimber of `position` and of each of its moves by the family's own
    /// search (a dense table, say), for positions whose game graph is too large
    /// for the generic explorer, which stores every move: `None` when the
    /// family has none. `budget` bounds what the search may store, in
    /// positions (as the explorer's state limit does) and in bytes; a search
    /// that knows its size checks it before it allocates.
    ///
    /// # Errors
    /// [`SearchError::StateLimit`] or [`SearchError::MemoryLimit`] when the
    /// search needs more than `budget`.
    fn nimbers_by_search(
        &self,
        _position: &Self::Position,
        _budget: Budget,
    ) -> Option<Result<SearchedNimbers<Self::Position>, SearchError>> {
        None
    }

    /// The nimber alone of [`nimbers_by_search`](Family::nimbers_by_search), for
    /// callers that need no options (a table's cells): the default makes the
    /// options and drops them; a family whose options cost more than its
    /// nimber gives it directly.
    ///
    /// # Errors
    /// As [`nimbers_by_search`](Family::nimbers_by_search).
    fn nimber_by_search(
        &self,
        position: &Self::Position,
        budget: Budget,
    ) -> Option<Result<BigUint, SearchError>> {
        Some(
            self.nimbers_by_search(position, budget)?
                .map(|found| found.nimber),
        )
    }

    /// A search of `position` by the family's own algorithm that keeps what it
    /// learns from one question to the next: its nimber, then its moves to a
    /// given nimber (the winning moves, in a sum), each found without valuing
    /// every option exactly (Cram's pruned search). `None` (the default) when
    /// the family has none; when it has one, `solve` asks it rather than
    /// [`nimbers_by_search`](Family::nimbers_by_search). `budget` bounds what
    /// the search may store, as there.
    fn position_search(
        &self,
        _position: &Self::Position,
        _budget: Budget,
    ) -> Option<Box<dyn PositionSearch<Self::Position>>> {
        None
    }

    /// Whether the family's [`position_search`](Family::position_search)
    /// keeps its progress in a checkpoint file
    /// ([`PositionSearch::keep_progress`]; `solve --checkpoint FILE`). False
    /// (the default) for a family that has none, or whose search cannot.
    fn keeps_checkpoints(&self) -> bool {
        false
    }

    /// A representative of the positions equivalent to `position` (the same
    /// game up to renaming: Wythoff's piles in either order), when the family
    /// knows one: searches store one node per class, so equivalent positions
    /// are explored once. `None` (the default) when `position` is its own
    /// representative. It must have the same options up to equivalence; each
    /// family that gives one tests its answers with and without it.
    fn canonical_form(&self, _position: &Self::Position) -> Option<Self::Position> {
        None
    }

    /// Whether every position of the family satisfies the condition of the
    /// Anti-SG rule (a non-terminal position of nimber 0 can move to nimber 1;
    /// see [`crate::sums::misere`]), known by theory.
    fn satisfies_anti_sg_condition(&self) -> bool {
        false
    }

    /// The picture of `position`, for front ends that draw positions (the
    /// web playground); `None` (the default) when the family has none. Its
    /// kind should be the [`DrawingKind`](crate::drawing::DrawingKind) of the
    /// family's catalogue entry.
    fn drawing(&self, _position: &Self::Position) -> Option<Drawing> {
        None
    }

    /// The heap rule and the size of a position of a heap game, for the misère
    /// quotient of sums of its heaps (`crate::quotient`); `None` for every
    /// other family.
    fn as_heap(&self, _position: &Self::Position) -> Option<(HeapRule, BigUint)> {
        None
    }

    /// The position of a heap of `size` tokens, for a heap game.
    fn heap_position(&self, _size: BigUint) -> Option<Self::Position> {
        None
    }

    /// The bytes `position` holds on the heap beyond a small fixed size, which
    /// searches count against their memory limit with each position they store:
    /// 0 (the default) for positions of a few machine words; a script's position
    /// may be an array of thousands of values.
    fn held_bytes(&self, _position: &Self::Position) -> usize {
        0
    }

    /// What each thread other than the one that built the family holds to list
    /// its moves, as a key naming it (two components of one family hold it
    /// once) and its bytes, which searches count against their memory limit
    /// once per thread: a script's own compiled copy. `None` (the default)
    /// when threads hold nothing of their own.
    fn thread_copy(&self) -> Option<(u64, usize)> {
        None
    }
}

/// How many nimbers in a row with no move to them end the search of
/// [`moves_by_nimber`]: past the values a family takes, no target has a move.
const NIMBERS_WITHOUT_MOVES: u32 = 16;

/// At most `max` moves of `position` found by theory, to nimbers 0, 1, 2, ...
/// in turn, until `max` are found, theory has no answer, or
/// [`NIMBERS_WITHOUT_MOVES`] nimbers in a row have no move (so at most
/// `max + 16` questions after the last move found, each by theory), or until the
/// work is stopped ([`crate::theory::cancel`]).
fn moves_by_nimber<F: Family + ?Sized>(
    family: &F,
    position: &F::Position,
    max: usize,
) -> Vec<Vec<F::Position>> {
    let mut found = Vec::new();
    let mut without = 0;
    let mut target = BigUint::default();
    while found.len() < max && without < NIMBERS_WITHOUT_MOVES {
        // Each move copies the position: a stopped caller gets what was found.
        if crate::theory::cancel::stop_requested() {
            break;
        }
        let Some(moves) = family.moves_to_nimber_by_theory(position, &target, max - found.len())
        else {
            break;
        };
        if moves.listed.is_empty() {
            without += 1;
        } else {
            without = 0;
        }
        found.extend(moves.listed);
        target += 1u32;
    }
    found
}

/// Writes integer arguments in canonical form: `3, 5, 7`.
pub fn write_integers(out: &mut String, values: &[BigUint]) {
    for (i, value) in values.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(&value.to_string());
    }
}

/// Some of a position's moves ([`Family::first_moves`]).
#[derive(Clone, Debug)]
pub struct FirstMoves<P> {
    /// The moves, each as the components it leaves.
    pub moves: Vec<Vec<P>>,
    /// Whether they are all the position's moves.
    pub complete: bool,
}

impl<P> FirstMoves<P> {
    /// At most `max` of `moves` (an iterator of moves in the family's
    /// order), complete when the iterator ends within `max`: what a family
    /// whose moves come lazily gives.
    pub fn take(moves: impl IntoIterator<Item = Vec<P>>, max: usize) -> Self {
        let mut moves = moves.into_iter();
        let listed: Vec<Vec<P>> = moves.by_ref().take(max).collect();
        let complete = moves.next().is_none();
        Self {
            moves: listed,
            complete,
        }
    }
}

/// The Every-SG steps of a position and of its options, by theory
/// ([`Family::every_steps_by_theory`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EverySteps<P> {
    /// The position's steps.
    pub steps: BigUint,
    /// Its options grouped by their steps, in increasing steps, no group empty.
    pub options: Vec<OptionsWithSteps<P>>,
}

/// The options of a position that have the same Every-SG steps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionsWithSteps<P> {
    /// Their steps.
    pub steps: BigUint,
    /// How many options have them (at least 1).
    pub count: BigUint,
    /// The first of them (as many as asked), each as the components it leaves.
    pub first: Vec<Vec<P>>,
}

impl<P> EverySteps<P> {
    /// The steps of a position whose options' steps are those of `options`,
    /// by the definition of steps (see [`crate::sums::every_sg`]): 0 without
    /// options, otherwise one more than the largest even steps of an option
    /// if there is one, and than the least steps otherwise.
    #[must_use]
    pub fn from_options(options: Vec<OptionsWithSteps<P>>) -> Self {
        let even = options.iter().rev().find(|group| !group.steps.bit(0));
        let steps = match (even, options.first()) {
            (Some(even), _) => &even.steps + 1u32,
            (None, Some(least)) => &least.steps + 1u32,
            (None, None) => BigUint::ZERO,
        };
        Self { steps, options }
    }

    /// The same steps with each listed option's components mapped by `f`.
    pub fn map<Q>(self, f: impl Fn(P) -> Q) -> EverySteps<Q> {
        EverySteps {
            steps: self.steps,
            options: self
                .options
                .into_iter()
                .map(|group| OptionsWithSteps {
                    steps: group.steps,
                    count: group.count,
                    first: group
                        .first
                        .into_iter()
                        .map(|leaves| leaves.into_iter().map(&f).collect())
                        .collect(),
                })
                .collect(),
        }
    }
}

/// Moves counted and listed by theory.
#[derive(Clone, Debug)]
pub struct MovesTo<P> {
    /// How many moves there are.
    pub count: BigUint,
    /// The first of them, each as the components it leaves.
    pub listed: Vec<Vec<P>>,
}

impl<P> Default for MovesTo<P> {
    fn default() -> Self {
        Self {
            count: BigUint::default(),
            listed: Vec::new(),
        }
    }
}

impl<P> MovesTo<P> {
    fn map<Q>(self, f: impl Fn(P) -> Q) -> MovesTo<Q> {
        MovesTo {
            count: self.count,
            listed: self
                .listed
                .into_iter()
                .map(|leaves| leaves.into_iter().map(&f).collect())
                .collect(),
        }
    }
}

/// A family's own search of one position ([`Family::position_search`]).
pub trait PositionSearch<P>: Send {
    /// The nimber of the position.
    ///
    /// # Errors
    /// [`SearchError::StateLimit`] when the search needs more than its limit.
    fn nimber(&mut self) -> Result<BigUint, SearchError>;

    /// The moves to positions of nimber `target`: their exact number and the
    /// first `max`, in the order of [`Family::moves`].
    ///
    /// # Errors
    /// [`SearchError::StateLimit`] when the search needs more than its limit.
    fn moves_to_nimber(&mut self, target: &BigUint, max: usize) -> Result<MovesTo<P>, SearchError>;

    /// Keeps the search's progress in `file` (`solve --checkpoint FILE`):
    /// reads what an earlier search saved there (a file of another position or
    /// version is refused), then saves as the search goes and whenever
    /// [`nimber`](PositionSearch::nimber) or
    /// [`moves_to_nimber`](PositionSearch::moves_to_nimber) returns, answered
    /// or stopped. `None` (the default) for a search that cannot.
    ///
    /// # Errors
    /// [`SearchError::Checkpoint`] when the file cannot be read or written,
    /// is refused, or holds more than the search may store.
    fn keep_progress(&mut self, _file: CheckpointFile) -> Option<Result<(), SearchError>> {
        None
    }

    /// What the checkpoint gave and what the search did since, for the
    /// answer's notes; `None` without a checkpoint.
    fn progress_note(&self) -> Option<String> {
        None
    }
}

/// A position's nimber and its options' nimbers, found by a family's own search.
#[derive(Clone, Debug)]
pub struct SearchedNimbers<P> {
    /// The nimber of the position.
    pub nimber: BigUint,
    /// Each move, as the components it leaves, with the nimber after it.
    pub options: Vec<(Vec<P>, BigUint)>,
}

/// The outcome of one component by theory, with its winning moves.
#[derive(Clone, Debug)]
pub struct OutcomeAnswer<P> {
    /// Who wins.
    pub outcome: Outcome,
    /// The winning moves: their exact count and the first ones.
    pub winning: MovesTo<P>,
    /// The theorem used.
    pub method: &'static str,
}

/// A shared component of a sum: a typed position of some family, behind the
/// generic adapter.
pub type Part = Arc<dyn Component>;

mod sealed {
    pub trait Sealed {}
}

/// What the sums need of a component, whatever its family: the object-safe
/// face of [`Family`]. Implemented once, by the generic adapter, for every
/// family's positions; build components with [`part`].
pub trait Component: fmt::Debug + Send + Sync + sealed::Sealed {
    /// Appends the component's arguments in canonical form.
    fn write_arguments(&self, out: &mut String);

    /// As [`Family::nimber_by_theory`].
    fn nimber_by_theory(&self) -> Option<(BigUint, &'static str)>;

    /// As [`Family::nimber_floor_by_theory`].
    fn nimber_floor_by_theory(&self, budget: Budget) -> Option<(BigUint, &'static str)>;

    /// As [`Family::loopy_value`].
    fn loopy_value(&self) -> Option<(LoopyValue, &'static str)>;

    /// As [`Family::every_steps_by_theory`].
    fn every_steps_by_theory(&self, max: usize) -> Option<EverySteps<Part>>;

    /// As [`Family::moves`].
    ///
    /// # Errors
    /// As [`Family::moves`].
    fn moves(&self, limit: usize) -> Result<Vec<Vec<Part>>, SearchError>;

    /// As [`Family::first_moves`].
    ///
    /// # Errors
    /// As [`Family::first_moves`].
    fn first_moves(&self, max: usize) -> Result<FirstMoves<Part>, SearchError>;

    /// As [`Family::moves_to_nimber_by_theory`].
    fn moves_to_nimber_by_theory(&self, target: &BigUint, max: usize) -> Option<MovesTo<Part>>;

    /// As [`Family::moves_to_nimber_refusal`].
    fn moves_to_nimber_refusal(&self, target: &BigUint) -> Option<Refusal>;

    /// As [`Family::describe_move`]; `to` holds components of the same family.
    fn describe_move(&self, to: &[Part]) -> String;

    /// As [`Family::outcome_by_theory`].
    fn outcome_by_theory(&self, max: usize) -> Option<OutcomeAnswer<Part>>;

    /// As [`Family::satisfies_anti_sg_condition`].
    fn satisfies_anti_sg_condition(&self) -> bool;

    /// As [`Family::canonical_form`].
    fn canonical_form(&self) -> Option<Part>;

    /// As [`Family::drawing`].
    fn drawing(&self) -> Option<Drawing>;

    /// As [`Family::nimbers_by_search`].
    fn nimbers_by_search(
        &self,
        budget: Budget,
    ) -> Option<Result<SearchedNimbers<Part>, SearchError>>;

    /// As [`Family::nimber_by_search`].
    fn nimber_by_search(&self, budget: Budget) -> Option<Result<BigUint, SearchError>>;

    /// As [`Family::position_search`].
    fn position_search(&self, budget: Budget) -> Option<Box<dyn PositionSearch<Part>>>;

    /// As [`Family::keeps_checkpoints`].
    fn keeps_checkpoints(&self) -> bool;

    /// See [`Family::as_heap`].
    fn as_heap(&self) -> Option<(HeapRule, BigUint)>;
    /// A component of a heap of `size` tokens of the same game (heap games).
    fn heap_part(&self, size: BigUint) -> Option<Part>;
    /// As [`Family::held_bytes`].
    fn held_bytes(&self) -> usize;
    /// As [`Family::thread_copy`].
    fn thread_copy(&self) -> Option<(u64, usize)>;

    /// A hash of the typed position (not of its family's parameters).
    fn position_hash(&self) -> u64;

    /// Whether `other` is the same position of the same family, compared as
    /// typed values.
    fn same_as(&self, other: &dyn Component) -> bool;

    /// The component as [`Any`], for [`same_as`](Component::same_as).
    fn as_any(&self) -> &dyn Any;
}

/// A position of family `F`: the generic adapter.
#[derive(Debug)]
struct Typed<F: Family> {
    family: Arc<F>,
    position: F::Position,
}

/// The component of `position` in `family`.
pub fn part<F: Family>(family: &Arc<F>, position: F::Position) -> Part {
    Arc::new(Typed {
        family: Arc::clone(family),
        position,
    })
}

/// The components of `positions` in `family`.
pub fn parts<F: Family>(
    family: &Arc<F>,
    positions: impl IntoIterator<Item = F::Position>,
) -> Vec<Part> {
    positions.into_iter().map(|p| part(family, p)).collect()
}

/// The typed position of a component of family `F`, if it is one.
#[must_use]
pub fn position_of<F: Family>(component: &dyn Component) -> Option<&F::Position> {
    component
        .as_any()
        .downcast_ref::<Typed<F>>()
        .map(|typed| &typed.position)
}

impl<F: Family> sealed::Sealed for Typed<F> {}

impl<F: Family> Typed<F> {
    fn wrap(&self, position: F::Position) -> Part {
        part(&self.family, position)
    }
}

impl<F: Family> Component for Typed<F> {
    fn write_arguments(&self, out: &mut String) {
        self.family.write_position(&self.position, out);
    }

    fn nimber_by_theory(&self) -> Option<(BigUint, &'static str)> {
        self.family.nimber_by_theory(&self.position)
    }

    fn nimber_floor_by_theory(&self, budget: Budget) -> Option<(BigUint, &'static str)> {
        self.family.nimber_floor_by_theory(&self.position, budget)
    }

    fn loopy_value(&self) -> Option<(LoopyValue, &'static str)> {
        self.family.loopy_value(&self.position)
    }

    fn every_steps_by_theory(&self, max: usize) -> Option<EverySteps<Part>> {
        let found = self.family.every_steps_by_theory(&self.position, max)?;
        Some(found.map(|p| self.wrap(p)))
    }

    fn moves(&self, limit: usize) -> Result<Vec<Vec<Part>>, SearchError> {
        Ok(self
            .family
            .moves(&self.position, limit)?
            .into_iter()
            .map(|leaves| leaves.into_iter().map(|p| self.wrap(p)).collect())
            .collect())
    }

    fn first_moves(&self, max: usize) -> Result<FirstMoves<Part>, SearchError> {
        let found = self.family.first_moves(&self.position, max)?;
        Ok(FirstMoves {
            moves: found
                .moves
                .into_iter()
                .map(|leaves| leaves.into_iter().map(|p| self.wrap(p)).collect())
                .collect(),
            complete: found.complete,
        })
    }

    fn moves_to_nimber_by_theory(&self, target: &BigUint, max: usize) -> Option<MovesTo<Part>> {
        Some(
            self.family
                .moves_to_nimber_by_theory(&self.position, target, max)?
                .map(|p| self.wrap(p)),
        )
    }

    fn moves_to_nimber_refusal(&self, target: &BigUint) -> Option<Refusal> {
        self.family.moves_to_nimber_refusal(&self.position, target)
    }

    fn describe_move(&self, to: &[Part]) -> String {
        let to: Option<Vec<F::Position>> = to
            .iter()
            .map(|part| position_of::<F>(part.as_ref()).cloned())
            .collect();
        match to {
            Some(to) => self.family.describe_move(&self.position, &to),
            None => "a move".to_owned(),
        }
    }

    fn outcome_by_theory(&self, max: usize) -> Option<OutcomeAnswer<Part>> {
        let answer = self.family.outcome_by_theory(&self.position, max)?;
        Some(OutcomeAnswer {
            outcome: answer.outcome,
            winning: answer.winning.map(|p| self.wrap(p)),
            method: answer.method,
        })
    }

    fn satisfies_anti_sg_condition(&self) -> bool {
        self.family.satisfies_anti_sg_condition()
    }

    fn canonical_form(&self) -> Option<Part> {
        Some(self.wrap(self.family.canonical_form(&self.position)?))
    }

    fn drawing(&self) -> Option<Drawing> {
        self.family.drawing(&self.position)
    }

    fn as_heap(&self) -> Option<(HeapRule, BigUint)> {
        self.family.as_heap(&self.position)
    }

    fn heap_part(&self, size: BigUint) -> Option<Part> {
        let position = self.family.heap_position(size)?;
        Some(self.wrap(position))
    }

    fn held_bytes(&self) -> usize {
        self.family.held_bytes(&self.position)
    }

    fn thread_copy(&self) -> Option<(u64, usize)> {
        self.family.thread_copy()
    }

    fn nimber_by_search(&self, budget: Budget) -> Option<Result<BigUint, SearchError>> {
        self.family.nimber_by_search(&self.position, budget)
    }

    fn nimbers_by_search(
        &self,
        budget: Budget,
    ) -> Option<Result<SearchedNimbers<Part>, SearchError>> {
        Some(
            self.family
                .nimbers_by_search(&self.position, budget)?
                .map(|found| SearchedNimbers {
                    nimber: found.nimber,
                    options: found
                        .options
                        .into_iter()
                        .map(|(leaves, nimber)| {
                            (leaves.into_iter().map(|p| self.wrap(p)).collect(), nimber)
                        })
                        .collect(),
                }),
        )
    }

    fn position_search(&self, budget: Budget) -> Option<Box<dyn PositionSearch<Part>>> {
        let search = self.family.position_search(&self.position, budget)?;
        Some(Box::new(TypedSearch {
            family: Arc::clone(&self.family),
            search,
        }))
    }

    fn keeps_checkpoints(&self) -> bool {
        self.family.keeps_checkpoints()
    }

    fn position_hash(&self) -> u64 {
        rustc_hash::FxBuildHasher.hash_one(&self.position)
    }

    fn same_as(&self, other: &dyn Component) -> bool {
        other.as_any().downcast_ref::<Self>().is_some_and(|other| {
            other.position == self.position
                && (Arc::ptr_eq(&other.family, &self.family) || other.family == self.family)
        })
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// A family's search of one position, answering with components.
struct TypedSearch<F: Family> {
    family: Arc<F>,
    search: Box<dyn PositionSearch<F::Position>>,
}

impl<F: Family> PositionSearch<Part> for TypedSearch<F> {
    fn nimber(&mut self) -> Result<BigUint, SearchError> {
        self.search.nimber()
    }

    fn moves_to_nimber(
        &mut self,
        target: &BigUint,
        max: usize,
    ) -> Result<MovesTo<Part>, SearchError> {
        let found = self.search.moves_to_nimber(target, max)?;
        Ok(found.map(|p| part(&self.family, p)))
    }

    fn keep_progress(&mut self, file: CheckpointFile) -> Option<Result<(), SearchError>> {
        self.search.keep_progress(file)
    }

    fn progress_note(&self) -> Option<String> {
        self.search.progress_note()
    }
}

/// A component as a hash-map key: hashed and compared by its typed position.
#[derive(Clone, Debug)]
pub(crate) struct PartKey(pub(crate) Part);

impl PartKey {
    /// The key of `part`'s class: its canonical form when its family has one.
    pub(crate) fn of_class(part: &Part) -> Self {
        Self(part.canonical_form().unwrap_or_else(|| Arc::clone(part)))
    }
}

impl PartialEq for PartKey {
    fn eq(&self, other: &Self) -> bool {
        self.0.same_as(other.0.as_ref())
    }
}

impl Eq for PartKey {}

impl Hash for PartKey {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(self.0.position_hash());
    }
}

/// A family's rules as an [`ImpartialGame`] for the generic
/// [`Solver`](crate::theory::solver::Solver): a position is a sum of the family's
/// components (a vector, in order), split into single components by the
/// Sprague-Grundy theorem. This is the oracle each family's closed forms are
/// tested against: it knows only the moves.
#[derive(Debug)]
pub struct Rules<F: Family> {
    family: F,
}

impl<F: Family> Rules<F> {
    /// The rules of `family`.
    pub const fn new(family: F) -> Self {
        Self { family }
    }

    /// The family.
    pub const fn family(&self) -> &F {
        &self.family
    }
}

impl<F: Family> ImpartialGame for Rules<F> {
    type Position = Vec<F::Position>;

    fn moves(&self, position: &Vec<F::Position>, moves: &mut Vec<Vec<F::Position>>) {
        // Without a way to fail, a position the family cannot enumerate has no
        // moves here; the solver calls `try_moves`, which reports it.
        let _ = self.try_moves(position, moves);
    }

    fn try_moves(
        &self,
        position: &Vec<F::Position>,
        moves: &mut Vec<Vec<F::Position>>,
    ) -> Result<(), SearchError> {
        for (index, component) in position.iter().enumerate() {
            for leaves in self.family.moves(component, usize::MAX)? {
                let mut next = Vec::with_capacity(position.len() + leaves.len());
                next.extend_from_slice(&position[..index]);
                next.extend(leaves);
                next.extend_from_slice(&position[index + 1..]);
                moves.push(next);
            }
        }
        Ok(())
    }

    fn components(&self, position: &Vec<F::Position>) -> Option<Vec<Vec<F::Position>>> {
        (position.len() > 1).then(|| position.iter().map(|c| vec![c.clone()]).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq)]
    struct Subtract(u64);

    impl Family for Subtract {
        type Position = u64;
        fn write_position(&self, heap: &u64, out: &mut String) {
            out.push_str(&heap.to_string());
        }
        fn moves(&self, heap: &u64, _limit: usize) -> Result<Vec<Vec<u64>>, SearchError> {
            Ok((1..=self.0)
                .filter(|take| take <= heap)
                .map(|take| vec![heap - take])
                .collect())
        }
        fn describe_move(&self, heap: &u64, to: &[u64]) -> String {
            format!("{heap} -> {to:?}")
        }
    }

    #[test]
    fn components_compare_by_typed_position_and_family() {
        let two = Arc::new(Subtract(2));
        let other_two = Arc::new(Subtract(2));
        let three = Arc::new(Subtract(3));
        let a = PartKey(part(&two, 5));
        assert_eq!(a, PartKey(part(&two, 5)));
        assert_eq!(a, PartKey(part(&other_two, 5)));
        assert_ne!(a, PartKey(part(&three, 5)));
        assert_ne!(a, PartKey(part(&two, 4)));
        assert_eq!(position_of::<Subtract>(a.0.as_ref()), Some(&5));
        assert_eq!(a.0.describe_move(&parts(&two, [3])), "5 -> [3]");
    }

    #[test]
    fn rules_search_sums_by_the_moves_alone() {
        let rules = Rules::new(Subtract(2));
        let mut solver = crate::theory::solver::Solver::new(&rules);
        for heap in 0..20 {
            assert_eq!(solver.nimber(&vec![heap]).unwrap(), (heap % 3) as u32);
        }
        assert_eq!(solver.nimber(&vec![4, 5]).unwrap(), 1 ^ 2);
    }
}
