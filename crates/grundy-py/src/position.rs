//! The parts of `grundy.solve(*parts)` and of a table's cells, as one position:
//! expression strings and positions of Python games, added up.

use grundy::catalogue::build_with;
use grundy::lang::{LangError, Span, parse_with_limits};
use grundy::registry::BuildLimits;
use grundy::sums::position::Position;
use grundy::sums::position::{Compound, Group};
use grundy::theory::game::Convention;
use grundy::theory::limits::SearchError;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

use crate::errors::{language_error, search_error};
use crate::game::GamePosition;

/// One part of a sum as given.
#[derive(Debug, Clone)]
pub enum PartArg {
    /// An expression of the position language: `"nim(3, 5)"`.
    Text(String),
    /// A position of a Python game: `g(7)`.
    Game(Group),
}

impl PartArg {
    /// Reads a part: a str or a position of a Python game.
    ///
    /// # Errors
    /// `TypeError` for anything else.
    pub fn from_python(value: &Bound<'_, PyAny>) -> PyResult<Self> {
        if let Ok(text) = value.extract::<String>() {
            return Ok(Self::Text(text));
        }
        if let Ok(position) = value.cast::<GamePosition>() {
            return Ok(Self::Game(position.get().group()));
        }
        Err(PyTypeError::new_err(format!(
            "a part of a position is an expression (a str, e.g. \"nim(3, 5)\") or a position of a grundy.Game (g(7)), not {}",
            value.get_type().name()?
        )))
    }

    /// The parts of a value: one part, or a tuple or list of them.
    ///
    /// # Errors
    /// `TypeError` for a value that is none of these.
    pub fn all_from_python(value: &Bound<'_, PyAny>) -> PyResult<Vec<Self>> {
        if value.extract::<String>().is_err()
            && value.cast::<GamePosition>().is_err()
            && let Ok(items) = value.try_iter()
        {
            return items.map(|item| Self::from_python(&item?)).collect();
        }
        Ok(vec![Self::from_python(value)?])
    }
}

/// Why a position could not be had.
#[derive(Debug)]
pub enum Failure {
    /// Bad input (or a limit of the input), in the source text given.
    Language(LangError, String),
    /// A search stopped.
    Search(SearchError),
    /// A Python exception, raised by a function of the caller's.
    Python(PyErr),
}

impl Failure {
    /// Whether the computation was cancelled (Ctrl-C or the time limit).
    pub fn was_cancelled(&self) -> bool {
        match self {
            Self::Search(error) => matches!(error, SearchError::Cancelled),
            Self::Language(error, _) => error.cancelled,
            Self::Python(_) => false,
        }
    }

    /// The Python exception.
    pub fn into_python(self, py: Python<'_>) -> PyErr {
        match self {
            Self::Language(error, source) => language_error(py, &error, &source),
            Self::Search(error) => search_error(py, &error),
            Self::Python(error) => error,
        }
    }
}

/// How the sum of the parts is played: `grundy.solve(..., play=...,
/// rounds=...)`.
#[derive(Debug, Clone)]
pub struct Play {
    /// Normal or misère play.
    pub convention: Convention,
    /// Every-SG (`every(...)`): each move moves every component that can.
    pub every: bool,
    /// A match of this many rounds (`rounds[k](...)`), each starting from
    /// the sum.
    pub rounds: Option<num_bigint::BigUint>,
}

impl Default for Play {
    fn default() -> Self {
        Self {
            convention: Convention::Normal,
            every: false,
            rounds: None,
        }
    }
}

impl Play {
    /// Reads `play` (`"normal"`, `"misere"` or `"every"`) and `rounds`.
    ///
    /// # Errors
    /// `ValueError` for another `play`, or 0 rounds.
    pub fn from_python(play: &str, rounds: Option<num_bigint::BigUint>) -> PyResult<Self> {
        let (convention, every) = match play {
            "normal" => (Convention::Normal, false),
            "misere" | "misère" => (Convention::Misere, false),
            "every" => (Convention::Normal, true),
            other => {
                return Err(PyValueError::new_err(format!(
                    "play is \"normal\", \"misere\" or \"every\", not {other:?}"
                )));
            }
        };
        if rounds.as_ref().is_some_and(|rounds| rounds.bits() == 0) {
            return Err(PyValueError::new_err("rounds is at least 1"));
        }
        if rounds.is_some() && (every || convention == Convention::Misere) {
            return Err(PyValueError::new_err(
                "a match of rounds= plays each round as a normal sum: give play=\"normal\" with rounds=",
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
    fn position(self, groups: Vec<Group>) -> Position {
        let compound = match (self.rounds, self.every) {
            (Some(rounds), _) => Compound::Rounds {
                rounds,
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

/// The sum of `parts`, played as `play` says. Expression strings alone,
/// played normally, are read as one expression, `" + "` between them, so that
/// the answer is the command line's for that text; otherwise each string must
/// be a plain sum under normal play (no `misere(...)`, `every(...)`,
/// `rounds[k](...)`: `play` and `rounds` say that for the whole sum).
///
/// # Errors
/// A [`Failure::Language`] for an expression that does not parse or build.
pub fn position_of(
    parts: &[PartArg],
    max_digits: usize,
    limits: BuildLimits,
    play: &Play,
) -> Result<Position, Failure> {
    let texts: Option<Vec<&str>> = parts
        .iter()
        .map(|part| match part {
            PartArg::Text(text) => Some(text.as_str()),
            PartArg::Game(_) => None,
        })
        .collect();
    let built = |source: &str| {
        parse_with_limits(source, max_digits)
            .and_then(|sum| build_with(&sum, limits))
            .map_err(|error| Failure::Language(error, source.to_owned()))
    };
    if parts.is_empty() {
        let error = LangError::new(
            "give a position: an expression such as \"nim(3, 5)\", or a position of a grundy.Game",
            Span::default(),
        );
        return Err(Failure::Language(error, String::new()));
    }
    if let Some(texts) = texts.filter(|_| play.is_plain()) {
        return built(&texts.join(" + "));
    }
    let mut groups = Vec::new();
    for part in parts {
        match part {
            PartArg::Game(group) => groups.push(group.clone()),
            PartArg::Text(text) => {
                let position = built(text)?;
                if position.convention != Convention::Normal || position.compound != Compound::Sum {
                    let error = LangError::new(
                        "with positions of Python games, or with play= or rounds=, each expression is a plain sum under normal play: say misere(...), every(...) or rounds[k](...) for the whole sum with play=\"misere\", play=\"every\" or rounds=k",
                        Span {
                            start: 0,
                            end: text.len(),
                        },
                    );
                    return Err(Failure::Language(error, text.clone()));
                }
                groups.extend(position.groups);
            }
        }
    }
    Ok(play.clone().position(groups))
}
