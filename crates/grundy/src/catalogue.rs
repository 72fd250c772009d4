//! The catalogue: every game grundy knows, as terms of the position language.
//!
//! A [`Position`] is what `grundy solve` answers: a disjunctive sum of
//! [`Group`]s (one per term of the expression), each holding independent
//! [`Component`]s (the heaps of `nim(3, 5, 7)` are three components), under a
//! play [`Convention`]. A game family joins the catalogue by implementing
//! [`Component`] for its positions and adding one [`GameEntry`] to the registry in
//! [`crate::games`]; sums, winning moves, counting, misère search and the
//! canonical printer then work for it with no further code.
//!
//! A component may know its nimber and its moves to a given nimber by theory (a
//! closed form, working for positions of any size); otherwise the catalogue
//! explores its positions as an explicit graph and runs the generic
//! [`Solver`](crate::solver::Solver) on it.

mod arguments;
pub(crate) mod explorer;

use std::fmt;
use std::sync::Arc;

use num_bigint::BigUint;

use crate::game::Convention;
use crate::lang::{LangError, Sum, Term, ValueKind};

pub use arguments::{
    GivenSize, heap_sizes, heap_sizes_with_text, integer_param, no_params, read_integers,
};
pub(crate) use explorer::Explorer;

pub use crate::family::{Component, MovesTo, OutcomeAnswer, Part};

/// Writes integer arguments in canonical form: `3, 5, 7`.
pub fn write_integers(out: &mut String, values: &[BigUint]) {
    for (i, value) in values.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(&value.to_string());
    }
}

/// The components of one term: `nim(3, 5, 7)` is the group `nim` with three heaps.
#[derive(Clone, Debug)]
pub struct Group {
    /// The term's canonical name and parameters: `nim`, `bash[3]`, `sub[1, 3, 4]`.
    pub head: Arc<str>,
    /// The components, in argument order.
    pub parts: Vec<Part>,
}

impl Group {
    /// A group of `parts` under the canonical `head`.
    pub fn new(head: impl Into<Arc<str>>, parts: Vec<Part>) -> Self {
        Self {
            head: head.into(),
            parts,
        }
    }
}

/// How the components of a position are played together.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Compound {
    /// A disjunctive sum: each move is made in one component.
    #[default]
    Sum,
    /// Every-SG, `every(SUM)`: each move moves every component that can move
    /// (see [`crate::games::every_sg`]).
    Every,
    /// A match of rounds, `rounds[k](START, CURRENT)`: the groups of the
    /// position are the round being played, `rounds` counts the rounds left
    /// including it, and every later round restarts at `start`, the loser of a
    /// round starting the next (see [`crate::games::rounds`]).
    Rounds {
        /// The rounds left, this one included; at least 1.
        rounds: BigUint,
        /// The position each round starts from.
        start: Vec<Group>,
    },
}

impl Compound {
    /// The name of the compound in the language, if it has one.
    #[must_use]
    pub const fn name(&self) -> Option<&'static str> {
        match self {
            Self::Sum => None,
            Self::Every => Some("every"),
            Self::Rounds { .. } => Some("rounds"),
        }
    }
}

/// A position: a sum of groups under a convention.
#[derive(Clone, Debug)]
pub struct Position {
    /// Normal or misère play.
    pub convention: Convention,
    /// How the groups are played together: a disjunctive sum unless wrapped
    /// by `every(...)` or `rounds[k](...)`.
    pub compound: Compound,
    /// The terms of the sum.
    pub groups: Vec<Group>,
}

impl Position {
    /// A disjunctive sum of `groups` under `convention`.
    #[must_use]
    pub const fn sum(convention: Convention, groups: Vec<Group>) -> Self {
        Self {
            convention,
            compound: Compound::Sum,
            groups,
        }
    }

    /// The groups after component `part` of group `group` is replaced by the
    /// components `leaves`.
    #[must_use]
    pub fn groups_after(&self, group: usize, part: usize, leaves: &[Part]) -> Vec<Group> {
        let mut groups = self.groups.clone();
        groups[group]
            .parts
            .splice(part..=part, leaves.iter().cloned());
        groups
    }

    /// The number of components over all groups.
    #[must_use]
    pub fn component_count(&self) -> usize {
        self.groups.iter().map(|g| g.parts.len()).sum()
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(PositionText::new(self).as_str())
    }
}

/// The canonical text of a position, with where each component stands in it,
/// so that the text after a move is spliced rather than printed anew (a
/// position of a million heaps prints once, not once per winning move).
#[derive(Clone, Debug)]
pub struct PositionText {
    text: String,
    /// `spans[group][part]`: the byte range of the component's arguments.
    spans: Vec<Vec<(usize, usize)>>,
}

impl PositionText {
    /// Prints `position`.
    #[must_use]
    ///
    /// A match of rounds prints its start and its current round,
    /// `rounds[k](START, CURRENT)`, or only `rounds[k](START)` when the two are
    /// the same position (a round not begun).
    pub fn new(position: &Position) -> Self {
        let mut text = String::new();
        if position.convention == Convention::Misere {
            text.push_str("misere(");
        }
        let spans = match &position.compound {
            Compound::Sum => push_groups(&mut text, &position.groups),
            Compound::Every => {
                text.push_str("every(");
                let spans = push_groups(&mut text, &position.groups);
                text.push(')');
                spans
            }
            Compound::Rounds { rounds, start } => {
                let mut start_text = String::new();
                push_groups(&mut start_text, start);
                let mut current = String::new();
                let spans = push_groups(&mut current, &position.groups);
                text.push_str(&format!("rounds[{rounds}]("));
                let offset = if current == start_text {
                    text.len()
                } else {
                    text.push_str(&start_text);
                    text.push_str(", ");
                    text.len()
                };
                text.push_str(&current);
                text.push(')');
                spans
                    .into_iter()
                    .map(|group| {
                        group
                            .into_iter()
                            .map(|(a, b)| (a + offset, b + offset))
                            .collect()
                    })
                    .collect()
            }
        };
        if position.convention == Convention::Misere {
            text.push(')');
        }
        Self { text, spans }
    }

    /// The text.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The text after component `part` of group `group` is replaced by the
    /// components `with` (none when a move removes the component entirely).
    #[must_use]
    pub fn replacing(&self, group: usize, part: usize, with: &[Part]) -> String {
        let spans = &self.spans[group];
        let (mut start, mut end) = spans[part];
        let mut middle = String::new();
        for (i, new) in with.iter().enumerate() {
            if i > 0 {
                middle.push_str(", ");
            }
            new.write_arguments(&mut middle);
        }
        if with.is_empty() && spans.len() > 1 {
            // Remove the separator too: the following one, or for the last
            // component the preceding one.
            if part + 1 < spans.len() {
                end = spans[part + 1].0;
            } else {
                start = spans[part - 1].1;
            }
        }
        let mut out = String::with_capacity(self.text.len() - (end - start) + middle.len());
        out.push_str(&self.text[..start]);
        out.push_str(&middle);
        out.push_str(&self.text[end..]);
        out
    }
}

/// Prints `groups` as a sum, giving where each component's arguments stand.
fn push_groups(text: &mut String, groups: &[Group]) -> Vec<Vec<(usize, usize)>> {
    let mut spans = Vec::with_capacity(groups.len());
    for (g, group) in groups.iter().enumerate() {
        if g > 0 {
            text.push_str(" + ");
        }
        text.push_str(&group.head);
        text.push('(');
        let mut group_spans = Vec::with_capacity(group.parts.len());
        for (i, part) in group.parts.iter().enumerate() {
            if i > 0 {
                text.push_str(", ");
            }
            let start = text.len();
            part.write_arguments(text);
            group_spans.push((start, text.len()));
        }
        text.push(')');
        spans.push(group_spans);
    }
    spans
}

/// Positions are equal when they are the same sum of the same typed
/// components, played the same way.
impl PartialEq for Position {
    fn eq(&self, other: &Self) -> bool {
        self.convention == other.convention
            && self.compound == other.compound
            && self.groups == other.groups
    }
}

impl PartialEq for Group {
    fn eq(&self, other: &Self) -> bool {
        self.head == other.head
            && self.parts.len() == other.parts.len()
            && self
                .parts
                .iter()
                .zip(&other.parts)
                .all(|(a, b)| a.same_as(b.as_ref()))
    }
}

/// How a catalogue entry turns a term into components.
#[derive(Clone, Copy, Debug)]
pub enum EntryKind {
    /// A game: builds the group of a term.
    Game(fn(&Term) -> Result<Group, LangError>),
    /// A wrapper that sets the convention of the whole sum, like `misere(...)`.
    Convention(Convention),
    /// A wrapper that plays the sums it holds together in another way, like
    /// `every(...)` or `rounds[k](...)`: builds the whole position from the
    /// wrapping term (see [`wrapped_sums`]).
    Compound(fn(&Term) -> Result<Position, LangError>),
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

/// The entry named `name`, if there is one.
#[must_use]
pub fn find(name: &str) -> Option<&'static GameEntry> {
    crate::games::CATALOGUE
        .iter()
        .find(|entry| entry.name == name)
}

/// Every entry, in catalogue order.
#[must_use]
pub fn entries() -> &'static [GameEntry] {
    crate::games::CATALOGUE
}

/// The known name closest to `name`, if any is close enough to be a likely typo.
#[must_use]
pub fn nearest_name(name: &str) -> Option<&'static str> {
    let name = name.to_ascii_lowercase();
    entries()
        .iter()
        .map(|entry| (edit_distance(&name, entry.name), entry.name))
        .filter(|&(distance, known)| distance <= 2.max(known.len() / 3))
        .min()
        .map(|(_, known)| known)
}

/// Levenshtein distance: the fewest insertions, deletions and substitutions.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let substitution = diagonal + usize::from(ca != cb);
            diagonal = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(row[j + 1] + 1);
        }
    }
    row[b.len()]
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

thread_local! {
    /// The limits of the position being built on this thread ([`build_with`]).
    static LIMITS: std::cell::Cell<BuildLimits> = std::cell::Cell::new(BuildLimits::default());
}

/// The limits in force while a position is built on this thread: those given to
/// [`build_with`] during its call, the defaults otherwise. (The builders of the
/// catalogue take only their term; the few that compute read their limits here.)
pub(crate) fn build_limits() -> BuildLimits {
    LIMITS.with(std::cell::Cell::get)
}

/// [`build`] within `limits` instead of the defaults.
///
/// # Errors
/// As [`build`].
pub fn build_with(sum: &Sum, limits: BuildLimits) -> Result<Position, LangError> {
    let previous = LIMITS.with(|cell| cell.replace(limits));
    let position = build(sum);
    LIMITS.with(|cell| cell.set(previous));
    position
}

/// Turns a parsed sum into a position, within the default [`BuildLimits`].
///
/// # Errors
/// An unknown game (with the nearest known name as a hint), a misplaced
/// `misere(...)`, or whatever a game finds wrong with its term.
pub fn build(sum: &Sum) -> Result<Position, LangError> {
    if let [term] = sum.terms.as_slice() {
        match find(&term.name) {
            Some(GameEntry {
                kind: EntryKind::Convention(convention),
                ..
            }) => return wrapped(term, *convention),
            Some(GameEntry {
                kind: EntryKind::Compound(build),
                ..
            }) => return build(term),
            _ => {}
        }
    }
    Ok(Position::sum(
        Convention::Normal,
        sum.terms
            .iter()
            .map(build_group)
            .collect::<Result<_, _>>()?,
    ))
}

/// The sums a wrapper term holds (`every(SUM)`, `rounds[k](START, CURRENT)`),
/// each built as a plain disjunctive sum under normal play, with its span.
/// `counts` is how many sums the wrapper accepts.
///
/// # Errors
/// An argument that is not a sum, a sum that is itself wrapped, or the wrong
/// number of arguments; `example` is offered as help.
pub fn wrapped_sums(
    term: &Term,
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
        let position = build(inner)?;
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

fn wrapped(term: &Term, convention: Convention) -> Result<Position, LangError> {
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
    let position = build(inner)?;
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

fn build_group(term: &Term) -> Result<Group, LangError> {
    match find(&term.name) {
        Some(GameEntry {
            kind: EntryKind::Game(build),
            ..
        }) => build(term),
        Some(_) => Err(LangError::new(
            format!("`{}(...)` must wrap the whole sum", term.name),
            term.name_span,
        )
        .with_help(format!(
            "write `{}(a + b)` rather than `a + {}(b)`",
            term.name, term.name
        ))),
        None => {
            let error = LangError::new(format!("unknown game `{}`", term.name), term.name_span);
            Err(match nearest_name(&term.name) {
                Some(near) => error.with_help(format!(
                    "did you mean `{near}`? `grundy games` lists them all"
                )),
                None => error.with_help("`grundy games` lists the games grundy knows"),
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distance_counts_edits() {
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "nim"), 3);
        assert_eq!(edit_distance("nim", "nim"), 0);
    }

    #[test]
    fn unknown_names_suggest_the_nearest() {
        let error = build(&crate::lang::parse("nmi(3)").unwrap()).unwrap_err();
        assert_eq!(error.message, "unknown game `nmi`");
        assert_eq!(
            error.help.as_deref(),
            Some("did you mean `nim`? `grundy games` lists them all")
        );
        assert_eq!(nearest_name("bahs"), Some("bash"));
        assert_eq!(nearest_name("zzzzzzzzzz"), None);
    }

    #[test]
    fn misere_must_wrap_the_whole_sum() {
        let error = build(&crate::lang::parse("nim(1) + misere(nim(2))").unwrap()).unwrap_err();
        assert_eq!(error.message, "`misere(...)` must wrap the whole sum");
        assert_eq!(error.span.start, 9);
        let error = build(&crate::lang::parse("misere(3)").unwrap()).unwrap_err();
        assert_eq!(error.message, "`misere(...)` wraps a sum of games");
        let error = build(&crate::lang::parse("misere(misere(nim(1)))").unwrap()).unwrap_err();
        assert_eq!(
            error.message,
            "`misere(...)` cannot wrap another convention"
        );
    }
}
