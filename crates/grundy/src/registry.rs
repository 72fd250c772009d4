//! The registry: one entry per game family, holding everything grundy knows of
//! it by name, so that adding a family is one module plus one line in
//! `games::ENTRIES`.
//!
//! A [`GameEntry`] says how a term becomes components ([`EntryKind`]), the text
//! `grundy games` shows, the heap rule `grundy seq` and `grundy table` compute
//! for the name (if it is a heap game given by a rule), how the positions are
//! drawn ([`DrawingKind`]), and for graph games the answer for every start
//! vertex at once ([`EveryStart`]). The catalogue ([`crate::catalogue`]) lists
//! the entries of [`crate::games`] and the wrappers of its `wrappers` module, and looks
//! names up.

pub(crate) mod wrappers;

use std::sync::Arc;

pub use crate::drawing::DrawingKind;
use crate::lang::{LangError, Sum, Term};
use crate::rules::HeapRule;
use crate::sums::position::{Group, Position};
use crate::theory::game::{Convention, Outcome};
use crate::theory::loopy::LoopyValue;

/// How a catalogue entry turns a term into components.
#[derive(Clone, Copy, Debug)]
pub enum EntryKind {
    /// A game: builds the group of a term.
    Game(fn(&Term, &BuildContext<'_>) -> Result<Group, LangError>),
    /// A wrapper that sets the convention of the whole sum, like `misere(...)`.
    Convention(Convention),
    /// A wrapper that plays the sums it holds together in another way, like
    /// `every(...)` or `rounds[k](...)`: builds the whole position from the
    /// wrapping term (see `wrapped_sums`).
    Compound(fn(&Term, &BuildContext<'_>) -> Result<Position, LangError>),
}

/// Reads the heap rule a term names (the term has no arguments): the rule
/// and its canonical text, `bash[3]`, `octal[0.07]`.
pub type HeapRuleReader = fn(&Term) -> Result<(HeapRule, String), LangError>;

/// Answers every start vertex of a graph game given its graph alone.
pub type EveryStartSolver = fn(&Term, &BuildContext<'_>) -> Result<EveryStart, LangError>;

/// One game of the catalogue: how its terms are built, the text `grundy
/// games` shows, and what else grundy does with the name.
#[derive(Clone, Copy, Debug)]
pub struct GameEntry {
    /// The name in the position language.
    pub name: &'static str,
    /// One line: what the game is.
    pub summary: &'static str,
    /// The rules in full, with the theory grundy applies and its source.
    pub rules: &'static str,
    /// The term's syntax.
    pub syntax: &'static str,
    /// Example positions, each accepted by `solve`.
    pub examples: &'static [&'static str],
    /// How terms become components.
    pub kind: EntryKind,
    /// The heap rule of the name for `grundy seq` and `grundy table`, when
    /// the game is a heap game given by a rule; `None` otherwise.
    pub heap_rule: Option<HeapRuleReader>,
    /// How the positions are drawn: the kind of
    /// [`Family::drawing`](crate::family::Family::drawing) its components give.
    pub drawing: DrawingKind,
    /// The answer for every start vertex of the graph a term names alone
    /// (`solve --every-start`), for graph games with a token to place.
    pub every_start: Option<EveryStartSolver>,
}

/// What a position may take to build: heap games given by rules compute their
/// Grundy values when it is built (see [`crate::games::heap::take_and_break`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BuildLimits {
    /// The most work, in the sequence engine's estimated steps (as `grundy seq
    /// --max-work`; 10^8 take about a second).
    pub work: u64,
    /// The most memory, in bytes, by the same estimate.
    pub bytes: u64,
    /// The largest heap whose values are computed when no period is proven.
    pub largest_heap: u64,
}

impl Default for BuildLimits {
    /// A few seconds and 4 GiB, heaps up to ten million.
    fn default() -> Self {
        Self {
            work: 300_000_000,
            bytes: 4 << 30,
            largest_heap: 10_000_000,
        }
    }
}

/// What builders are given besides their term: the limits of the position
/// being built, and the catalogue itself for terms that wrap whole sums.
#[derive(Clone, Copy)]
pub struct BuildContext<'a> {
    /// What the position may take to build.
    pub limits: BuildLimits,
    sums: &'a dyn SumBuilder,
}

impl std::fmt::Debug for BuildContext<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BuildContext")
            .field("limits", &self.limits)
            .finish_non_exhaustive()
    }
}

/// Builds the sums that wrapper terms hold (the catalogue does).
pub trait SumBuilder {
    /// The position of `sum` within `limits`.
    ///
    /// # Errors
    /// Whatever is wrong with the sum's terms.
    fn build_sum(&self, sum: &Sum, limits: BuildLimits) -> Result<Position, LangError>;
}

impl<'a> BuildContext<'a> {
    /// A context building within `limits`, inner sums by `sums`.
    pub fn new(limits: BuildLimits, sums: &'a dyn SumBuilder) -> Self {
        Self { limits, sums }
    }

    /// The position of a sum a wrapper holds, within the same limits.
    ///
    /// # Errors
    /// As [`SumBuilder::build_sum`].
    pub fn build_sum(&self, sum: &Sum) -> Result<Position, LangError> {
        self.sums.build_sum(sum, self.limits)
    }
}

/// The answer for every start vertex of a graph game at once
/// (`grundy solve --every-start`): the position `game(GRAPH, v)` for each
/// vertex `v`.
#[derive(Clone, Debug)]
pub struct EveryStart {
    /// The game's name: `dag`, `geography`, `tree_walk`.
    pub game: &'static str,
    /// The graph argument as given (`@PATH` or the quoted string).
    pub graph: Arc<str>,
    /// Who wins from each start (0-based vertex): the player to move from
    /// the token on it.
    pub outcomes: Vec<Outcome>,
    /// The nimber of each start, where theory gives it.
    pub nimbers: Option<Vec<u32>>,
    /// The generalized Sprague-Grundy value of each start, for games that may
    /// go on for ever (`digraph`; see [`crate::theory::loopy`]).
    pub loopy: Option<Vec<LoopyValue>>,
    /// The theorem or algorithm used.
    pub method: &'static str,
}

impl EveryStart {
    /// The position of a token on `vertex` (0-based), as `solve` reads it.
    #[must_use]
    pub fn position(&self, vertex: usize) -> String {
        format!("{}({}, {})", self.game, self.graph, vertex + 1)
    }
}
