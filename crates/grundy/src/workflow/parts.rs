//! A position given in parts, as the Python package takes it
//! (`grundy.solve("nim(3)", g(7), play="misere")`): expressions of the
//! position language and positions of a front end's own games
//! ([`crate::games::callback`]), added up and played as asked; and the
//! nimber of each component alone, for a plain sum's nim-sum table.

use num_bigint::BigUint;

use super::watch::CutShort;
use super::{Door, Failure, Limits};
use crate::catalogue::build_with;
use crate::lang::{LangError, Span, parse_with_limits};
use crate::sums::analysis::{Answer, SolveOptions, solve};
use crate::sums::position::{Compound, Group, Position};
use crate::theory::game::Convention;

/// The most components whose nimbers [`component_nimbers`] gives, each
/// searched alone.
pub const MOST_PARTS: usize = 64;

/// One part of a sum as given.
#[derive(Debug, Clone)]
pub enum Part {
    /// An expression of the position language: `"nim(3, 5)"`.
    Text(String),
    /// A term made by the front end: a position of one of its games.
    Group(Group),
}

/// How the sum of the parts is played: Python's `play=` and `rounds=`.
#[derive(Debug, Clone)]
pub struct Play {
    /// Normal or misère play.
    pub convention: Convention,
    /// Every-SG (`every(...)`): each move moves every component that can.
    pub every: bool,
    /// A match of this many rounds (`rounds[k](...)`), each starting from
    /// the sum.
    pub rounds: Option<BigUint>,
}

impl Default for Play {
    /// A plain sum under normal play.
    fn default() -> Self {
        Self {
            convention: Convention::Normal,
            every: false,
            rounds: None,
        }
    }
}

impl Play {
    /// Reads `play` (`"normal"`, `"misere"` or `"every"`) and `rounds`, as
    /// the keywords `play=` and `rounds=` give them.
    ///
    /// # Errors
    /// [`Failure::Input`] for another `play`, 0 rounds, or rounds of a sum
    /// not played normally.
    pub fn read(play: &str, rounds: Option<BigUint>) -> Result<Self, Failure> {
        let (convention, every) = match play {
            "normal" => (Convention::Normal, false),
            "misere" | "misère" => (Convention::Misere, false),
            "every" => (Convention::Normal, true),
            other => {
                return Err(Failure::input(format!(
                    "error: play is \"normal\", \"misere\" or \"every\", not {other:?}"
                )));
            }
        };
        if rounds.as_ref().is_some_and(|rounds| rounds.bits() == 0) {
            return Err(Failure::input("error: rounds is at least 1"));
        }
        if rounds.is_some() && (every || convention == Convention::Misere) {
            return Err(Failure::input(
                "error: a match of rounds= plays each round as a normal sum: give play=\"normal\" with rounds=",
            ));
        }
        Ok(Self {
            convention,
            every,
            rounds,
        })
    }

    fn is_plain(&self) -> bool {
        self.convention == Convention::Normal && !self.every && self.rounds.is_none()
    }

    /// The position of `groups` played this way.
    fn position(&self, groups: Vec<Group>) -> Position {
        let compound = match (&self.rounds, self.every) {
            (Some(rounds), _) => Compound::Rounds {
                rounds: rounds.clone(),
                start: groups.clone(),
            },
            (None, true) => Compound::Every,
            (None, false) => Compound::Sum,
        };
        Position {
            convention: self.convention,
            compound,
            groups,
        }
    }
}

/// The sum of `parts`, played as `play` says, built within `limits`.
/// Expressions alone, played normally, are read as one expression, `" + "`
/// between them, so that the answer is the command line's for that text;
/// otherwise each expression must be a plain sum under normal play (no
/// `misere(...)`, `every(...)`, `rounds[k](...)`: `play` says that for the
/// whole sum).
///
/// # Errors
/// A [`Failure`] said in the words of `door`, rendered against the
/// expression at fault: no part at all, or an expression that does not parse
/// or build (a cancelled build is the time limit's).
pub fn position_of(
    parts: &[Part],
    limits: &Limits,
    play: &Play,
    door: Door,
) -> Result<Position, Failure> {
    let bad = |error: LangError, source: &str| Failure::language(&error, source, door);
    let built = |source: &str| {
        parse_with_limits(source, limits.digits)
            .and_then(|sum| build_with(&sum, limits.build()))
            .map_err(|error| bad(error, source))
    };
    if parts.is_empty() {
        let error = LangError::new(
            "give a position: an expression such as \"nim(3, 5)\", or a position of a grundy.Game",
            Span::default(),
        );
        return Err(bad(error, ""));
    }
    let texts: Option<Vec<&str>> = parts
        .iter()
        .map(|part| match part {
            Part::Text(text) => Some(text.as_str()),
            Part::Group(_) => None,
        })
        .collect();
    if let Some(texts) = texts.filter(|_| play.is_plain()) {
        return built(&texts.join(" + "));
    }
    let mut groups = Vec::new();
    for part in parts {
        match part {
            Part::Group(group) => groups.push(group.clone()),
            Part::Text(text) => {
                let position = built(text)?;
                if position.convention != Convention::Normal || position.compound != Compound::Sum {
                    let error = LangError::new(
                        "with positions of Python games, or with play= or rounds=, each expression is a plain sum under normal play: say misere(...), every(...) or rounds[k](...) for the whole sum with play=\"misere\", play=\"every\" or rounds=k",
                        Span {
                            start: 0,
                            end: text.len(),
                        },
                    );
                    return Err(bad(error, text));
                }
                groups.extend(position.groups);
            }
        }
    }
    Ok(play.position(groups))
}

/// A position is built whole, or its build fails.
impl CutShort for Position {
    fn cut_short(&self) -> bool {
        false
    }
}

/// An answer, with the position it answers.
#[derive(Debug)]
pub struct Solved {
    /// The answer.
    pub answer: Answer,
    /// The position answered.
    pub position: Position,
}

/// A search stopped by the signal fails.
impl CutShort for Solved {
    fn cut_short(&self) -> bool {
        false
    }
}

/// Answers the sum of `parts` played as `play` ([`position_of`]) with
/// `options`, within `limits`.
///
/// # Errors
/// A [`Failure`] said in the words of `door`: a position that cannot be
/// built, or a search that stopped (a limit, a game that cannot be played).
pub fn solve_parts(
    parts: &[Part],
    play: &Play,
    limits: &Limits,
    options: &SolveOptions,
    door: Door,
) -> Result<Solved, Failure> {
    let position = position_of(parts, limits, play, door)?;
    let answer = solve(&position, options).map_err(|error| Failure::search(&error, door))?;
    Ok(Solved { answer, position })
}

/// The nimber of each component of `position` alone under normal play, with
/// its term (`("nim(3)", 3)`), for the nim-sum table of a plain sum; `None`
/// for a component that cannot be valued within `limits`. Empty for
/// `misere(...)`, `every(...)`, `rounds[k](...)` and for sums of more than
/// [`MOST_PARTS`] components.
#[must_use]
pub fn component_nimbers(position: &Position, limits: &Limits) -> Vec<(String, Option<BigUint>)> {
    if position.compound != Compound::Sum || position.component_count() > MOST_PARTS {
        return Vec::new();
    }
    let options = SolveOptions {
        winning_moves: false,
        ..limits.solve_options(0)
    };
    let alone = |group: &Group, part| {
        let alone = group.with_parts(vec![part]);
        let term = alone.term_with(&alone.parts);
        let single = Position::sum(Convention::Normal, vec![alone]);
        let nimber = solve(&single, &options)
            .ok()
            .and_then(|answer| answer.nimber);
        (term, nimber)
    };
    position
        .groups
        .iter()
        .flat_map(|group| group.parts.iter().map(|part| alone(group, part.clone())))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(parts: &[&str]) -> Vec<Part> {
        parts.iter().map(|p| Part::Text((*p).to_owned())).collect()
    }

    #[test]
    fn expressions_played_normally_are_one_expression() {
        let limits = Limits::default();
        let position = position_of(
            &text(&["nim(3)", "nim(5, 7)"]),
            &limits,
            &Play::default(),
            Door::Python,
        )
        .unwrap();
        let nimbers = component_nimbers(&position, &limits);
        assert_eq!(
            nimbers,
            [("nim(3)", 3u32), ("nim(5)", 5), ("nim(7)", 7)]
                .map(|(term, n)| (term.to_owned(), Some(BigUint::from(n))))
        );
    }

    #[test]
    fn play_applies_to_the_whole_sum() {
        let limits = Limits::default();
        let misere = Play::read("misere", None).unwrap();
        let position =
            position_of(&text(&["nim(1)", "nim(1)"]), &limits, &misere, Door::Python).unwrap();
        assert_eq!(position.convention, Convention::Misere);
        let every = Play::read("every", None).unwrap();
        let position = position_of(&text(&["nim(1)"]), &limits, &every, Door::Python).unwrap();
        assert!(component_nimbers(&position, &limits).is_empty());
        let bad = position_of(&text(&["misere(nim(1))"]), &limits, &misere, Door::Python);
        let Err(Failure::Input { message, column }) = bad else {
            panic!("not bad input");
        };
        assert!(message.contains("plain sum"), "{message}");
        assert_eq!(column, Some(1));
        let rounds = Play::read("normal", Some(3u32.into())).unwrap();
        let position = position_of(&text(&["nim(2)"]), &limits, &rounds, Door::Python).unwrap();
        assert!(matches!(position.compound, Compound::Rounds { .. }));
    }

    #[test]
    fn parts_are_answered_with_their_position() {
        let limits = Limits::default();
        let options = limits.solve_options(5);
        let solved = solve_parts(
            &text(&["nim(1)", "nim(2)"]),
            &Play::default(),
            &limits,
            &options,
            Door::Python,
        )
        .unwrap();
        assert_eq!(solved.answer.nimber, Some(BigUint::from(3u32)));
        assert_eq!(solved.position.component_count(), 2);
        let small = SolveOptions {
            max_states: 10,
            ..options
        };
        let limited = solve_parts(
            &text(&["cram(5, 5)"]),
            &Play::default(),
            &limits,
            &small,
            Door::Python,
        );
        assert!(
            limited
                .unwrap_err()
                .message()
                .ends_with("raise it with max_states=N")
        );
    }

    #[test]
    fn bad_play_and_no_parts_are_said() {
        assert!(Play::read("loopy", None).is_err());
        assert!(Play::read("normal", Some(0u32.into())).is_err());
        assert!(Play::read("every", Some(2u32.into())).is_err());
        let none = position_of(&[], &Limits::default(), &Play::default(), Door::Python);
        let message = none.unwrap_err().message();
        assert!(message.starts_with("error: give a position"), "{message}");
    }
}
