//! The catalogue: every game grundy knows, as a value built from the entries
//! of the family modules ([`crate::games`]) and the wrappers that play sums
//! another way ([`crate::registry`]).
//!
//! [`Catalogue::standard`] lists them all; [`Catalogue::build`] turns a parsed
//! expression into a [`Position`] within [`BuildLimits`], and [`build`] does so
//! with the standard catalogue and the default limits. Everything else asked
//! of a name goes through its entry: [`Catalogue::parse_rule`] (the heap rule of
//! `grundy seq`) and [`Catalogue::every_start`].

use std::sync::OnceLock;

use crate::lang::{LangError, Sum, Term};
use crate::registry::wrappers::{self, wrapped};
use crate::registry::{BuildContext, SumBuilder};
use crate::rules::HeapRule;
use crate::theory::cancel::stop_requested;
use crate::theory::game::Convention;

pub(crate) use crate::registry::{BuildLimits, EntryKind, EveryStart, GameEntry};
pub(crate) use crate::sums::position::{Group, Position};

/// Games and wrappers by name.
#[derive(Debug)]
pub struct Catalogue {
    entries: Vec<GameEntry>,
    /// Other names of entries, as contest problems often name them: `(alias, name)`.
    aliases: Vec<(&'static str, &'static str)>,
}

impl Catalogue {
    /// Every game of [`crate::games`] and every wrapper of the registry, in
    /// the order `grundy games` lists them.
    #[must_use]
    pub fn standard() -> &'static Self {
        static STANDARD: OnceLock<Catalogue> = OnceLock::new();
        STANDARD.get_or_init(|| Self {
            entries: crate::games::ENTRIES
                .iter()
                .chain(wrappers::ENTRIES)
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
    /// `misere(...)`, or whatever a game finds wrong with its term; or
    /// [`LangError::stopped`] when the work was cancelled while building (a
    /// heap rule's values cut short would otherwise read as a limit).
    pub fn build(&self, sum: &Sum, limits: BuildLimits) -> Result<Position, LangError> {
        let built = self.build_uncancelled(sum, limits);
        if stop_requested() {
            return Err(LangError::stopped(sum.span));
        }
        built
    }

    fn build_uncancelled(&self, sum: &Sum, limits: BuildLimits) -> Result<Position, LangError> {
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
    /// The entry named by `term`, or the error for an unknown name: with the
    /// nearest known name as a hint, else as `otherwise` makes it.
    fn entry_or_unknown(
        &self,
        term: &Term,
        otherwise: impl FnOnce(LangError) -> LangError,
    ) -> Result<&GameEntry, LangError> {
        self.find(&term.name).ok_or_else(|| {
            let error = LangError::new(format!("unknown game `{}`", term.name), term.name_span);
            match self.nearest_name(&term.name) {
                Some(near) => error.with_help(format!("did you mean `{near}`?")),
                None => otherwise(error),
            }
        })
    }

    /// The names of the entries for which `has` holds, each written by
    /// `write`.
    fn names_with(
        &self,
        has: impl Fn(&GameEntry) -> bool,
        write: impl Fn(&str) -> String,
    ) -> Vec<String> {
        self.entries
            .iter()
            .filter(|entry| has(entry))
            .map(|entry| write(entry.name))
            .collect()
    }

    /// The heap rule a text names, for the sequence engine, with its
    /// canonical text: `kayles`, `octal[0.137]`, `sub[1, 3, 4]`, `bash[3]`,
    /// `nim`, ... (the entries with a [`GameEntry::heap_rule`], by name or
    /// alias). A rule is written without arguments; `kayles` and `kayles()`
    /// are the same.
    ///
    /// # Errors
    /// A [`LangError`] for a malformed text, arguments given, an unknown name
    /// (with the nearest known name as a hint), or a game that is not a heap
    /// game given by a rule (with the names that are).
    pub fn parse_rule(&self, text: &str) -> Result<(HeapRule, String), LangError> {
        let source = if text.trim_end().ends_with(')') {
            text.to_owned()
        } else {
            format!("{text}()")
        };
        let sum = crate::lang::parse(&source)?;
        let [term] = sum.terms.as_slice() else {
            return Err(LangError::new("a rule is one game, not a sum", sum.span));
        };
        if let Some(arg) = term.args.first() {
            return Err(LangError::new(
                format!(
                    "a rule takes no heaps: write `{}` without arguments",
                    term.name
                ),
                arg.span,
            ));
        }
        let heap_games = || {
            format!(
                "sequences exist for {}",
                self.names_with(|entry| entry.heap_rule.is_some(), str::to_owned)
                    .join(", ")
            )
        };
        let entry = self.entry_or_unknown(term, |error| error.with_help(heap_games()))?;
        match entry.heap_rule {
            Some(rule) => rule(term),
            None => Err(LangError::new(
                format!("`{}` is not a heap game with a Grundy sequence", term.name),
                term.name_span,
            )
            .with_help(heap_games())),
        }
    }

    /// The answer for every start vertex of a graph game given its graph
    /// alone, such as `dag(GRAPH)`, `geography(GRAPH)` or `tree_walk(GRAPH)`
    /// (the entries with a [`GameEntry::every_start`]): one pass for all
    /// vertices.
    ///
    /// # Errors
    /// A [`LangError`] when `sum` is not one such term, or its graph is bad.
    pub fn every_start(&self, sum: &Sum, limits: BuildLimits) -> Result<EveryStart, LangError> {
        let games = || {
            let names = self.names_with(
                |entry| entry.every_start.is_some(),
                |name| format!("`{name}(GRAPH)`"),
            );
            match names.split_last() {
                Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
                _ => names.concat(),
            }
        };
        let [term] = sum.terms.as_slice() else {
            return Err(LangError::new(
                format!("every start is asked of one graph game: {}", games()),
                sum.span,
            ));
        };
        if term.args.len() != 1 || !term.params.is_empty() {
            return Err(LangError::new(
                format!(
                    "every start is asked of a graph game given its graph alone: {}",
                    games()
                ),
                term.span,
            ));
        }
        let Some(every_start) = self.find(&term.name).and_then(|entry| entry.every_start) else {
            return Err(LangError::new(
                format!(
                    "every start is asked of {}, not of `{}`",
                    games(),
                    term.name
                ),
                term.name_span,
            ));
        };
        every_start(term, &BuildContext::new(limits, self))
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

/// [`Catalogue::parse_rule`] with the standard catalogue.
///
/// ```
/// use grundy::catalogue::parse_rule;
///
/// let (rule, text) = parse_rule("octal[0.07]").unwrap();
/// assert_eq!(text, "octal[0.07]");
/// assert_eq!(rule.max_removed(), Some(2));
/// assert_eq!(parse_rule("bash[3]").unwrap().1, "bash[3]");
/// assert!(parse_rule("kayles(5)").is_err());
/// ```
///
/// # Errors
/// As [`Catalogue::parse_rule`].
pub fn parse_rule(text: &str) -> Result<(HeapRule, String), LangError> {
    Catalogue::standard().parse_rule(text)
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

    /// The head of a one-term example, without its arguments: `sub[1, 3, 4]`
    /// of `sub[1, 3, 4](30)`.
    fn rule_of_example(example: &str) -> &str {
        example.split('(').next().unwrap_or(example)
    }

    #[test]
    fn every_drawable_entry_draws_the_parts_of_its_examples() {
        // The entries shown as text only: stones on a line, the words, a
        // script's positions (any shape) and the wrappers of whole sums.
        let undrawn: Vec<&str> = entries()
            .iter()
            .filter(|entry| entry.drawing == crate::registry::DrawingKind::None)
            .map(|entry| entry.name)
            .collect();
        assert_eq!(
            undrawn,
            [
                "stones",
                "prefix_game",
                "substring_game",
                "script",
                "misere",
                "every",
                "rounds"
            ]
        );
        for entry in entries() {
            if entry.drawing == crate::registry::DrawingKind::None {
                continue;
            }
            let mut drawn = 0;
            // Examples reading files are left out: their paths are relative to
            // the repository, not to where tests run.
            for example in entry.examples.iter().filter(|e| !e.contains('@')) {
                // Each term of the entry alone: examples may add other games.
                let sum = crate::lang::parse(example).unwrap();
                for term in sum.terms.iter().filter(|term| term.name == entry.name) {
                    let alone = Sum {
                        terms: vec![term.clone()],
                        span: term.span,
                    };
                    let position = build(&alone).unwrap();
                    for part in position.groups.iter().flat_map(|group| &group.parts) {
                        let drawing = part.drawing();
                        assert_eq!(
                            drawing.as_ref().map(crate::drawing::Drawing::kind),
                            Some(entry.drawing),
                            "{example}: {drawing:?}"
                        );
                        drawn += 1;
                    }
                }
            }
            assert!(drawn > 0, "no example of `{}` was drawn", entry.name);
        }
    }

    #[test]
    fn every_heap_rule_entry_gives_a_rule_the_sequence_engine_computes() {
        let mut names = Vec::new();
        for entry in entries().iter().filter(|entry| entry.heap_rule.is_some()) {
            names.push(entry.name);
            for example in entry.examples {
                let head = rule_of_example(example);
                let (rule, text) = parse_rule(head).unwrap_or_else(|e| panic!("{head}: {e}"));
                // The canonical text reads back as the same rule.
                let (again, same) = parse_rule(&text).unwrap();
                assert_eq!((again.to_string(), same), (rule.to_string(), text.clone()));
                let values = crate::sequence::grundy_values(&rule, 20);
                assert_eq!(values.len(), 21, "{text}");
            }
        }
        assert_eq!(
            names,
            [
                "nim",
                "bash",
                "sub",
                "all_but",
                "octal",
                "kayles",
                "dawson_kayles",
                "grundy_game",
                "lasker",
                "rest_nim"
            ]
        );
        // Aliases name the same rules.
        assert_eq!(parse_rule("nim_k[4]").unwrap().1, "bash[4]");
        assert_eq!(parse_rule("multi_nim").unwrap().1, "lasker");
    }

    #[test]
    fn rules_of_games_without_one_are_refused_with_the_names_that_have_one() {
        let heap_games = "sequences exist for nim, bash, sub, all_but, octal, kayles, \
                          dawson_kayles, grundy_game, lasker, rest_nim";
        for name in ["wythoff", "anti_nim", "misere", "script[\"x\"]"] {
            let error = parse_rule(name).unwrap_err();
            let bare = rule_of_example(name).split('[').next().unwrap();
            assert_eq!(
                error.message,
                format!("`{bare}` is not a heap game with a Grundy sequence"),
                "{name}"
            );
            assert_eq!(error.help.as_deref(), Some(heap_games), "{name}");
        }
        let error = parse_rule("kaylse").unwrap_err();
        assert_eq!(error.message, "unknown game `kaylse`");
        assert_eq!(error.help.as_deref(), Some("did you mean `kayles`?"));
        let error = parse_rule("zzzzzzzzzzzz").unwrap_err();
        assert_eq!(error.help.as_deref(), Some(heap_games));
        assert_eq!(
            parse_rule("kayles(5)").unwrap_err().message,
            "a rule takes no heaps: write `kayles` without arguments"
        );
        assert_eq!(
            parse_rule("nim() + kayles()").unwrap_err().message,
            "a rule is one game, not a sum"
        );
        let error = parse_rule("bash[2000000]").unwrap_err();
        assert!(error.message.contains("needs m at most 1048576"), "{error}");
        assert!(parse_rule("kayles[3]").is_err());
    }

    #[test]
    fn every_start_is_asked_of_the_entries_that_answer_it() {
        let every = |text: &str| {
            Catalogue::standard()
                .every_start(&crate::lang::parse(text).unwrap(), BuildLimits::default())
        };
        let answer = every("dag(\"3 2; 1 2; 2 3\")").unwrap();
        assert_eq!(answer.nimbers, Some(vec![0, 1, 0]));
        assert_eq!(answer.position(0), "dag(\"3 2; 1 2; 2 3\", 1)");
        assert_eq!(every("geography(\"2 1; 1 2\")").unwrap().outcomes.len(), 2);
        assert_eq!(every("tree_walk(\"2 1; 1 2\")").unwrap().game, "tree_walk");
        let error = every("nim(3)").unwrap_err();
        assert_eq!(
            error.message,
            "every start is asked of `dag(GRAPH)`, `digraph(GRAPH)`, `geography(GRAPH)` or \
             `tree_walk(GRAPH)`, not of `nim`"
        );
        let error = every("dag(\"2 1; 1 2\", 1)").unwrap_err();
        assert!(error.message.contains("given its graph alone"), "{error}");
    }
}
