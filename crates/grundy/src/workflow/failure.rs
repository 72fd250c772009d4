//! Why a workflow failed, in the words of the front end it was asked through.
//!
//! The library names a budget ([`Limit`]); a front end names the setting that
//! raises it: `--max-states N` on the command line and in the playground's
//! server, `max_states=N` in Python ([`Door`]). Every message of a failure is
//! written here once, for every front end.

use std::io;
use std::path::Path;
use std::time::Duration;

use crate::lang::LangError;
use crate::theory::checkpoint::CheckpointError;
use crate::theory::limits::{Door, Limit, SearchError};

/// Why `script[...]` is refused by a grundy built without the `script` feature.
#[cfg(not(feature = "script"))]
pub const WITHOUT_SCRIPT: &str = "error: scripted games (`script[...]`) need the `script` feature, and this grundy was built without it: build it with `--features script` (on by default)";

/// Why a workflow failed. Messages begin with `error: `, as the command line
/// prints them; the Python package drops that word.
#[derive(Debug)]
pub enum Failure {
    /// Bad input: exit 2 (`ParseError`, or `ValueError`, in Python).
    Input {
        /// What is wrong and where, in words.
        message: String,
        /// The column of the input where it is wrong, counted in characters
        /// from 1, when the input is a text.
        column: Option<usize>,
    },
    /// A game that cannot be played: its script failed, or a position can be
    /// reached from itself. Exit 2 (`GameError` in Python).
    Game(String),
    /// A limit was reached: exit 3 (`LimitError`, or `TimeoutError` for the
    /// time limit, in Python).
    Limit {
        /// What was reached, and the setting that raises it.
        message: String,
        /// The budget whose setting raises it, when one does.
        raised_by: Option<Limit>,
    },
    /// Writing the answer failed (a full disk, an input/output error): exit 4;
    /// a closed pipe is not an error (exit 0). Errors writing a file name it.
    Output(io::Error),
    /// The errors were told as they came (one per line of a batch, or the
    /// note of an interrupted run); this is the exit code they make.
    Reported(u8),
}

impl Failure {
    /// Bad input, said by `message`.
    pub fn input(message: impl Into<String>) -> Self {
        Self::Input {
            message: message.into(),
            column: None,
        }
    }

    /// A limit reached, said by `message` (which names the setting, if any).
    pub fn limit(message: impl Into<String>) -> Self {
        Self::Limit {
            message: message.into(),
            raised_by: None,
        }
    }

    /// A language error, rendered against its source text.
    pub fn language(error: &LangError, source: &str, door: Door) -> Self {
        if error.cancelled {
            return Self::search(&SearchError::Cancelled, door);
        }
        #[cfg(not(feature = "script"))]
        if error.message == "unknown game `script`" {
            let help = WITHOUT_SCRIPT.trim_start_matches("error: ");
            return Self::input(error.clone().with_help(help).render(source));
        }
        let rendered = error.render(source);
        if let Some(limit) = error.limit {
            return Self::Limit {
                message: format!(
                    "{rendered}\nhelp: raise the limit with {}",
                    door.setting(limit)
                ),
                raised_by: Some(limit),
            };
        }
        let start = error.span.start.min(source.len());
        let column = source.get(..start).map_or(1, |before| {
            before.rsplit('\n').next().unwrap_or("").chars().count() + 1
        });
        Self::Input {
            message: rendered,
            column: Some(column),
        }
    }

    /// A search that stopped, said with the setting that raises its limit.
    pub fn search(error: &SearchError, door: Door) -> Self {
        let limited =
            |message: String, raised_by: Option<Limit>| Self::Limit { message, raised_by };
        match error {
            SearchError::StateLimit { limit } => limited(
                format!(
                    "error: the search needs more than {limit} positions, or more than 4 moves stored per position allowed (the state limit); raise it with {}",
                    door.setting(Limit::States)
                ),
                Some(Limit::States),
            ),
            SearchError::MemoryLimit { limit } => limited(
                format!(
                    "error: the search needs more than {limit} bytes of memory (the memory limit); raise it with {}",
                    door.setting(Limit::Memory)
                ),
                Some(Limit::Memory),
            ),
            SearchError::Cycle => Self::Game(format!("error: {error}")),
            SearchError::Script { message } => Self::Game(format!("error: {message}")),
            // In Python a stop is the time limit's: Ctrl-C raises its own exception.
            SearchError::Cancelled if door == Door::Python => Self::out_of_time(None, door),
            SearchError::Cancelled => limited(
                format!("error: {error} (the time limit)"),
                Some(Limit::Time),
            ),
            SearchError::CountLimit { refusal, nimber } => limited(
                match nimber {
                    Some(nimber) => format!(
                        "error: the first player wins (nimber {nimber}), but the winning moves cannot be counted: {}{}",
                        refusal.reason,
                        door.raise_with(&refusal.raised_by)
                    ),
                    None => format!("error: {error}{}", door.raise_with(&refusal.raised_by)),
                },
                refusal.raised_by.first().copied(),
            ),
            SearchError::Checkpoint(CheckpointError::TooLarge {
                path,
                positions,
                limit,
                by_memory,
                bytes_each,
            }) => {
                let (what, raised_by) = if *by_memory {
                    (
                        format!(
                            "the memory limit of {limit} bytes allows ({bytes_each} bytes a position)"
                        ),
                        Limit::Memory,
                    )
                } else {
                    (
                        format!("the state limit of {limit} positions allows"),
                        Limit::States,
                    )
                };
                limited(
                    format!(
                        "error: the checkpoint `{path}` holds {positions} positions, more than {what}; raise it with {}",
                        door.setting(raised_by)
                    ),
                    Some(raised_by),
                )
            }
            SearchError::Checkpoint(error) => Self::input(format!("error: {error}")),
            SearchError::TheoryLimit { refusal } => limited(
                format!(
                    "error: {}{}",
                    refusal.reason,
                    door.raise_with(&refusal.raised_by)
                ),
                refusal.raised_by.first().copied(),
            ),
        }
    }

    /// The computation did not finish within the time limit `limit` (said
    /// without its seconds when `None`).
    pub fn out_of_time(limit: Option<Duration>, door: Door) -> Self {
        let within = limit.map_or_else(String::new, |limit| {
            format!(" within {} s", limit.as_secs_f64())
        });
        Self::Limit {
            message: format!(
                "error: the computation did not finish{within} (the time limit); raise it with {}",
                door.setting(Limit::Time)
            ),
            raised_by: Some(Limit::Time),
        }
    }

    /// Writing the file at `path` failed with `error`: exit 4, naming the file.
    pub fn unwritten(path: &Path, error: &io::Error) -> Self {
        Self::Output(io::Error::new(
            error.kind(),
            format!("`{}`: {error}", path.display()),
        ))
    }

    /// The same failure, said of line `number` of a file: `error: line N: ...`.
    #[must_use]
    pub fn on_line(self, number: usize) -> Self {
        self.reworded(|message| {
            let rest = message.strip_prefix("error: ").unwrap_or(&message);
            format!("error: line {number}: {rest}")
        })
    }

    /// The same failure with its message rewritten by `change` (a failure
    /// with no message of its own is kept).
    #[must_use]
    pub fn reworded(self, change: impl FnOnce(String) -> String) -> Self {
        match self {
            Self::Input { message, column } => Self::Input {
                message: change(message),
                column,
            },
            Self::Game(message) => Self::Game(change(message)),
            Self::Limit { message, raised_by } => Self::Limit {
                message: change(message),
                raised_by,
            },
            other => other,
        }
    }

    /// The message, as the command line prints it (`error: ...`).
    pub fn message(&self) -> String {
        match self {
            Self::Input { message, .. } | Self::Game(message) | Self::Limit { message, .. } => {
                message.clone()
            }
            Self::Output(error) => format!("error: the answer could not be written: {error}"),
            Self::Reported(code) => format!("error: failed with exit code {code}"),
        }
    }

    /// The message in pieces, for a front end that shows them apart
    /// (Python's `ParseError`: its text, message, column and caret).
    pub fn said(&self) -> Said {
        let message = self.message();
        let text = message
            .strip_prefix("error: ")
            .unwrap_or(&message)
            .to_owned();
        let (reason, place) = match self {
            // A language error rendered against its source: the first line
            // says what is wrong and where, the next ones show the place.
            Self::Input {
                column: Some(_), ..
            } => {
                let first = text.lines().next().unwrap_or(&text);
                let reason = first
                    .rsplit_once(" (")
                    .filter(|(_, place)| place.contains("column "))
                    .map_or(first, |(reason, _)| reason);
                let place = text.lines().skip(1);
                let place = place.take_while(|line| !line.starts_with("help: "));
                (reason.to_owned(), place.collect::<Vec<_>>().join("\n"))
            }
            _ => (text.clone(), String::new()),
        };
        Said {
            text,
            reason,
            place,
        }
    }

    /// The exit code of the command line: 2 for bad input or a game that
    /// cannot be played, 3 for a limit, 4 for an answer that could not be
    /// written (0 when its reader went away).
    pub fn exit_code(&self) -> u8 {
        match self {
            Self::Input { .. } | Self::Game(_) => 2,
            Self::Limit { .. } => 3,
            Self::Output(error) if error.kind() == io::ErrorKind::BrokenPipe => 0,
            Self::Output(_) => 4,
            Self::Reported(code) => *code,
        }
    }
}

/// A failure's message in pieces ([`Failure::said`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Said {
    /// The whole message, without its `error: `.
    pub text: String,
    /// What is wrong: for a language error, its first line without the
    /// place (`(column 8)`); otherwise the whole text.
    pub reason: String,
    /// For a language error, the source line and the caret under the place
    /// (without the help); otherwise empty.
    pub place: String,
}

impl From<io::Error> for Failure {
    fn from(error: io::Error) -> Self {
        Self::Output(error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_door_names_every_limit_by_its_own_setting() {
        for limit in [
            Limit::States,
            Limit::Work,
            Limit::Memory,
            Limit::LargestHeap,
            Limit::Digits,
            Limit::Time,
            Limit::Order,
            Limit::Cells,
        ] {
            let flag = Door::CommandLine.setting(limit);
            let keyword = Door::Python.setting(limit);
            assert!(flag.starts_with("--max-"), "{flag}");
            assert!(keyword.starts_with("max_"), "{keyword}");
            assert_eq!(
                Door::CommandLine.setting_name(limit).replace('-', "_"),
                Door::Python.setting_name(limit)
            );
        }
    }

    #[test]
    fn a_search_limit_names_the_setting_and_the_budget() {
        let failure = Failure::search(&SearchError::StateLimit { limit: 10 }, Door::Python);
        let Failure::Limit { message, raised_by } = failure else {
            panic!("not a limit");
        };
        assert!(message.ends_with("raise it with max_states=N"), "{message}");
        assert_eq!(raised_by, Some(Limit::States));
    }

    #[test]
    fn a_language_error_knows_its_column() {
        let source = "nim(3, %)";
        let error = crate::lang::parse(source).unwrap_err();
        let Failure::Input { message, column } =
            Failure::language(&error, source, Door::CommandLine)
        else {
            panic!("not bad input");
        };
        assert!(message.starts_with("error: "), "{message}");
        assert_eq!(column, Some(8));
    }

    #[test]
    fn a_language_error_is_said_in_pieces() {
        let source = "nim(3, %)";
        let error = crate::lang::parse(source).unwrap_err();
        let said = Failure::language(&error, source, Door::Python).said();
        assert_eq!(
            said.text,
            error.render(source).trim_start_matches("error: ")
        );
        assert_eq!(said.reason, error.message);
        assert_eq!(said.place, "  nim(3, %)\n         ^");
        let help = error.clone().with_help("a help");
        let said = Failure::language(&help, source, Door::Python).said();
        assert_eq!(said.place, "  nim(3, %)\n         ^");
        assert!(said.text.ends_with("\nhelp: a help"), "{}", said.text);
        let plain = Failure::input("error: no such thing").said();
        assert_eq!(
            (
                plain.text.as_str(),
                plain.reason.as_str(),
                plain.place.as_str()
            ),
            ("no such thing", "no such thing", "")
        );
    }

    #[test]
    fn out_of_time_says_the_time_limit_and_its_setting() {
        let failure = Failure::out_of_time(Some(Duration::from_millis(250)), Door::Python);
        assert_eq!(
            failure.message(),
            "error: the computation did not finish within 0.25 s (the time limit); raise it with max_time=SECONDS"
        );
        let cancelled = Failure::search(&SearchError::Cancelled, Door::Python);
        assert_eq!(
            cancelled.message(),
            "error: the computation did not finish (the time limit); raise it with max_time=SECONDS"
        );
        assert!(matches!(
            cancelled,
            Failure::Limit {
                raised_by: Some(Limit::Time),
                ..
            }
        ));
    }
}
