//! How a failed command looks to a person, and its exit code.

use std::io;
use std::process::ExitCode;

use grundy::lang::LangError;
use grundy::solver::SearchError;

/// Why a command failed.
#[derive(Debug)]
pub enum Failure {
    /// Bad input: exit 2.
    Input(String),
    /// A limit was reached: exit 3.
    Limit(String),
    /// Writing the answer failed; a closed pipe is not an error.
    Output(io::Error),
}

impl Failure {
    /// A language error, rendered against its source text.
    pub fn language(error: &LangError, source: &str) -> Self {
        let rendered = error.render(source);
        if error.is_limit {
            Self::Limit(rendered)
        } else {
            Self::Input(rendered)
        }
    }

    /// A search that stopped; `flag` raises the limit.
    pub fn search(error: &SearchError) -> Self {
        match error {
            SearchError::StateLimit { limit } => Self::Limit(format!(
                "error: the search needs more than {limit} positions (the state limit); raise it with --max-states N"
            )),
            SearchError::Cycle => Self::Input(format!("error: {error}")),
            SearchError::CountLimit { reason, nimber } => Self::Limit(match nimber {
                Some(nimber) => format!(
                    "error: the first player wins (nimber {nimber}), but the winning moves cannot be counted: {reason}"
                ),
                None => format!("error: {error}"),
            }),
            SearchError::TheoryLimit { reason } => Self::Limit(format!("error: {reason}")),
        }
    }

    /// Prints the failure and gives the exit code.
    pub fn report(self) -> ExitCode {
        match self {
            Self::Input(message) => {
                eprintln!("{message}");
                ExitCode::from(2)
            }
            Self::Limit(message) => {
                eprintln!("{message}");
                ExitCode::from(3)
            }
            Self::Output(error) if error.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
            Self::Output(error) => {
                eprintln!("error: cannot write the answer: {error}");
                ExitCode::from(1)
            }
        }
    }
}

impl From<io::Error> for Failure {
    fn from(error: io::Error) -> Self {
        Self::Output(error)
    }
}
