//! How a term of the position language becomes part of a sum: the entries the
//! catalogue lists, and what building a position may take.

use crate::lang::{LangError, Sum, Term, ValueKind};
use crate::theory::game::Convention;

use super::position::{Compound, Group, Position};

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

/// One game of the catalogue, with the text `grundy games` shows.
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

/// The sums a wrapper term holds (`every(SUM)`, `rounds[k](START, CURRENT)`),
/// each built as a plain disjunctive sum under normal play, with its span.
/// `counts` is how many sums the wrapper accepts.
///
/// # Errors
/// An argument that is not a sum, a sum that is itself wrapped, or the wrong
/// number of arguments; `example` is offered as help.
pub(crate) fn wrapped_sums(
    term: &Term,
    context: &BuildContext<'_>,
    counts: std::ops::RangeInclusive<usize>,
    example: &str,
) -> Result<Vec<(Vec<Group>, crate::lang::Span)>, LangError> {
    let name = &term.name;
    if !counts.contains(&term.args.len()) {
        let wanted = if counts.start() == counts.end() {
            format!("exactly {}", counts.start())
        } else {
            format!("{} or {}", counts.start(), counts.end())
        };
        let many = if *counts.end() == 1 { "sum" } else { "sums" };
        return Err(LangError::new(
            format!(
                "`{name}(...)` wraps {wanted} {many} of games, found {}",
                term.args.len()
            ),
            term.span,
        )
        .with_help(format!("for example `{example}`")));
    }
    let mut sums = Vec::with_capacity(term.args.len());
    for value in &term.args {
        let ValueKind::Sum(inner) = &value.kind else {
            return Err(
                LangError::new(format!("`{name}(...)` wraps a sum of games"), value.span)
                    .with_help(format!("for example `{example}`")),
            );
        };
        let position = context.build_sum(inner)?;
        if position.convention != Convention::Normal || !matches!(position.compound, Compound::Sum)
        {
            return Err(LangError::new(
                format!("`{name}(...)` wraps a plain sum of games, not another wrapper"),
                inner.span,
            ));
        }
        sums.push((position.groups, inner.span));
    }
    Ok(sums)
}

/// Builds `misere(SUM)`: the sum it wraps under `convention`.
///
/// # Errors
/// Parameters given, not exactly one sum, or a sum that is itself wrapped.
pub(crate) fn wrapped(
    term: &Term,
    convention: Convention,
    context: &BuildContext<'_>,
) -> Result<Position, LangError> {
    let name = &term.name;
    if term.has_brackets {
        return Err(LangError::new(
            format!("`{name}` takes no parameters"),
            term.name_span,
        ));
    }
    let inner = match term.args.as_slice() {
        [value] => match &value.kind {
            ValueKind::Sum(inner) => inner,
            _ => {
                return Err(LangError::new(
                    format!("`{name}(...)` wraps a sum of games"),
                    value.span,
                )
                .with_help(format!("for example `{name}(nim(1, 2, 3))`")));
            }
        },
        _ => {
            return Err(LangError::new(
                format!("`{name}(...)` wraps exactly one sum of games"),
                term.span,
            )
            .with_help(format!(
                "join the games with `+`: `{name}(nim(1, 2) + bash[3](5))`"
            )));
        }
    };
    let position = context.build_sum(inner)?;
    if position.convention != Convention::Normal || !matches!(position.compound, Compound::Sum) {
        return Err(LangError::new(
            format!("`{name}(...)` cannot wrap another convention"),
            inner.span,
        ));
    }
    Ok(Position {
        convention,
        ..position
    })
}
