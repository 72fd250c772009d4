//! The catalogue: every game grundy knows, as a value built from the family
//! modules ([`crate::games`]) and the ways of playing sums ([`crate::sums`]).
//!
//! [`Catalogue::standard`] lists them all; [`Catalogue::build`] turns a parsed
//! expression into a [`Position`] within [`BuildLimits`], and [`build`] does so
//! with the standard catalogue and the default limits.

use std::sync::OnceLock;

use crate::lang::{LangError, Sum, Term};
use crate::sums::entry::{BuildContext, SumBuilder, wrapped};
use crate::theory::game::Convention;

pub use crate::games::graph::EveryStart;
pub use crate::sums::entry::{BuildLimits, EntryKind, GameEntry};
pub use crate::sums::position::{Compound, Group, Position, PositionText};

/// Games and wrappers by name.
#[derive(Debug)]
pub struct Catalogue {
    entries: Vec<GameEntry>,
    /// Other names of entries, as contest problems often name them: `(alias, name)`.
    aliases: Vec<(&'static str, &'static str)>,
}

impl Catalogue {
    /// Every game of [`crate::games`] and every wrapper of [`crate::sums`], in
    /// the order `grundy games` lists them.
    #[must_use]
    pub fn standard() -> &'static Self {
        static STANDARD: OnceLock<Catalogue> = OnceLock::new();
        STANDARD.get_or_init(|| Self {
            entries: crate::games::ENTRIES
                .iter()
                .chain(crate::sums::ENTRIES)
                .copied()
                .collect(),
            aliases: crate::games::ALIASES.to_vec(),
        })
    }

    /// Every entry, in catalogue order.
    #[must_use]
    pub fn entries(&self) -> &[GameEntry] {
        &self.entries
    }

    /// The entry named `name` (or one of its aliases), if there is one.
    #[must_use]
    pub fn find(&self, name: &str) -> Option<&GameEntry> {
        let name = self
            .aliases
            .iter()
            .find(|(alias, _)| *alias == name)
            .map_or(name, |(_, entry)| entry);
        self.entries.iter().find(|entry| entry.name == name)
    }

    /// Other names of the entry `name`.
    pub fn aliases_of(&self, name: &str) -> impl Iterator<Item = &'static str> + '_ {
        let name = name.to_owned();
        self.aliases
            .iter()
            .filter(move |(_, entry)| *entry == name)
            .map(|(alias, _)| *alias)
    }

    /// The known name closest to `name`, if any is close enough to be a likely typo.
    #[must_use]
    pub fn nearest_name(&self, name: &str) -> Option<&'static str> {
        let name = name.to_ascii_lowercase();
        self.entries
            .iter()
            .map(|entry| entry.name)
            .chain(self.aliases.iter().map(|(alias, _)| *alias))
            .map(|known| (edit_distance(&name, known), known))
            .filter(|&(distance, known)| distance <= 2.max(known.len() / 3))
            .min()
            .map(|(_, known)| known)
    }

    /// Turns a parsed sum into a position within `limits`.
    ///
    /// # Errors
    /// An unknown game (with the nearest known name as a hint), a misplaced
    /// `misere(...)`, or whatever a game finds wrong with its term.
    pub fn build(&self, sum: &Sum, limits: BuildLimits) -> Result<Position, LangError> {
        let context = BuildContext::new(limits, self);
        if let [term] = sum.terms.as_slice() {
            match self.find(&term.name).map(|entry| entry.kind) {
                Some(EntryKind::Convention(convention)) => {
                    return wrapped(term, convention, &context);
                }
                Some(EntryKind::Compound(build)) => return build(term, &context),
                _ => {}
            }
        }
        Ok(Position::sum(
            Convention::Normal,
            sum.terms
                .iter()
                .map(|term| self.build_group(term, &context))
                .collect::<Result<_, _>>()?,
        ))
    }

    fn build_group(&self, term: &Term, context: &BuildContext<'_>) -> Result<Group, LangError> {
        match self.find(&term.name) {
            Some(GameEntry {
                kind: EntryKind::Game(build),
                ..
            }) => build(term, context),
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
                Err(match self.nearest_name(&term.name) {
                    Some(near) => error.with_help(format!(
                        "did you mean `{near}`? `grundy games` lists them all"
                    )),
                    None => error.with_help("`grundy games` lists the games grundy knows"),
                })
            }
        }
    }
}

impl Catalogue {
    /// The answer for every start vertex of a graph game given its graph
    /// alone, `dag(GRAPH)`, `geography(GRAPH)` or `tree_walk(GRAPH)`: one
    /// pass for all vertices.
    ///
    /// # Errors
    /// A [`LangError`] when `sum` is not one such term, or its graph is bad.
    pub fn every_start(&self, sum: &Sum, limits: BuildLimits) -> Result<EveryStart, LangError> {
        let context = BuildContext::new(limits, self);
        match sum.terms.as_slice() {
            [term] => crate::games::graph::every_start(term, &context),
            _ => Err(LangError::new(
                "every start is asked of one graph game: `dag(GRAPH)`, `geography(GRAPH)` or \
                 `tree_walk(GRAPH)`",
                sum.span,
            )),
        }
    }
}

impl SumBuilder for Catalogue {
    fn build_sum(&self, sum: &Sum, limits: BuildLimits) -> Result<Position, LangError> {
        self.build(sum, limits)
    }
}

/// Every entry of the standard catalogue, in catalogue order.
#[must_use]
pub fn entries() -> &'static [GameEntry] {
    Catalogue::standard().entries()
}

/// The entry of the standard catalogue named `name`, if there is one.
#[must_use]
pub fn find(name: &str) -> Option<&'static GameEntry> {
    Catalogue::standard().find(name)
}

/// The known name closest to `name` in the standard catalogue.
#[must_use]
pub fn nearest_name(name: &str) -> Option<&'static str> {
    Catalogue::standard().nearest_name(name)
}

/// [`Catalogue::build`] with the standard catalogue.
///
/// # Errors
/// As [`Catalogue::build`].
pub fn build_with(sum: &Sum, limits: BuildLimits) -> Result<Position, LangError> {
    Catalogue::standard().build(sum, limits)
}

/// [`Catalogue::build`] with the standard catalogue and the default limits.
///
/// # Errors
/// As [`Catalogue::build`].
pub fn build(sum: &Sum) -> Result<Position, LangError> {
    build_with(sum, BuildLimits::default())
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
    fn contest_names_are_aliases() {
        use crate::sums::analysis::{SolveOptions, solve};
        let answer = |text: &str| {
            solve(
                &build(&crate::lang::parse(text).unwrap()).unwrap(),
                &SolveOptions::default(),
            )
            .unwrap()
        };
        for (alias, same) in [
            ("nim_k[3](5, 9)", "bash[3](5, 9)"),
            ("multi_nim(3, 4, 7)", "lasker(3, 4, 7)"),
            ("anti_nim(1, 1, 1)", "misere(nim(1, 1, 1))"),
            ("anti_nim(2, 3, 4)", "misere(nim(2, 3, 4))"),
        ] {
            let (by_alias, by_name) = (answer(alias), answer(same));
            // The position prints under its canonical name.
            assert_eq!(
                by_alias.position.as_str(),
                by_name.position.as_str(),
                "{alias}"
            );
            assert_eq!(by_alias.outcome, by_name.outcome, "{alias}");
            assert_eq!(by_alias.nimber, by_name.nimber, "{alias}");
            assert_eq!(
                by_alias.winning_move_count, by_name.winning_move_count,
                "{alias}"
            );
        }
        assert_eq!(
            Catalogue::standard().aliases_of("bash").collect::<Vec<_>>(),
            ["nim_k"]
        );
        assert_eq!(nearest_name("multinim"), Some("multi_nim"));
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
