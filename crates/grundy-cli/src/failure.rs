//! How a failed command looks to a person, and its exit code.
//!
//! Errors go to standard error by [`print_error`], which never fails: a closed
//! or broken standard error (`2>&-`, a reader that went away) must not turn a
//! documented exit code into an abort.

use std::io::{self, Write};
use std::process::ExitCode;

use grundy::lang::LangError;
use grundy::solver::{Limit, SearchError};

/// The exit code of an answer that could not be written (a full disk, an
/// input/output error); a reader that went away is not one (exit 0).
pub const OUTPUT_ERROR: u8 = 4;

/// Why `script[...]` is refused by a binary built without the `script` feature.
#[cfg(not(feature = "script"))]
pub const WITHOUT_SCRIPT: &str = "error: scripted games (`script[...]`) need the `script` feature, and this grundy was built without it: build it with `--features script` (on by default)";

/// Why a command failed.
#[derive(Debug)]
pub enum Failure {
    /// Bad input: exit 2.
    Input(String),
    /// A limit was reached: exit 3.
    Limit(String),
    /// Writing the answer failed (a full disk, an input/output error): exit 4;
    /// a closed pipe is not an error (exit 0). Errors writing a file name it in
    /// their text (see [`Failure::unwritten`]).
    Output(io::Error),
    /// The errors were printed as they came (one per line of a batch); this is
    /// the worst exit code among them.
    Reported(u8),
}

impl Failure {
    /// A language error, rendered against its source text.
    pub fn language(error: &LangError, source: &str) -> Self {
        #[cfg(not(feature = "script"))]
        if error.message == "unknown game `script`" {
            let help = WITHOUT_SCRIPT.trim_start_matches("error: ");
            return Self::Input(error.clone().with_help(help).render(source));
        }
        if error.cancelled {
            return Self::search(&SearchError::Cancelled);
        }
        let rendered = error.render(source);
        match error.limit {
            Some(limit) => Self::Limit(format!(
                "{rendered}\nhelp: raise the limit with {}",
                Self::flag(limit)
            )),
            None => Self::Input(rendered),
        }
    }

    /// Writing the file at `path` failed with `error`: exit 4, naming the file.
    pub fn unwritten(path: &std::path::Path, error: &io::Error) -> Self {
        Self::Output(io::Error::new(
            error.kind(),
            format!("`{}`: {error}", path.display()),
        ))
    }

    /// A search that stopped; `flag` raises the limit.
    pub fn search(error: &SearchError) -> Self {
        match error {
            SearchError::StateLimit { limit } => Self::Limit(format!(
                "error: the search needs more than {limit} positions, or more than 4 moves stored per position allowed (the state limit); raise it with --max-states N"
            )),
            SearchError::MemoryLimit { limit } => Self::Limit(format!(
                "error: the search needs more than {limit} bytes of memory (the memory limit); raise it with --max-memory BYTES"
            )),
            SearchError::Cycle => Self::Input(format!("error: {error}")),
            SearchError::Script { message } => Self::Input(format!("error: {message}")),
            SearchError::Cancelled => Self::Limit(format!("error: {error} (the time limit)")),
            SearchError::CountLimit { refusal, nimber } => Self::Limit(match nimber {
                Some(nimber) => format!(
                    "error: the first player wins (nimber {nimber}), but the winning moves cannot be counted: {}{}",
                    refusal.reason,
                    raise_with(&refusal.raised_by)
                ),
                None => format!("error: {error}{}", raise_with(&refusal.raised_by)),
            }),
            SearchError::TheoryLimit { refusal } => Self::Limit(format!(
                "error: {}{}",
                refusal.reason,
                raise_with(&refusal.raised_by)
            )),
        }
    }

    /// The flag that raises `limit`, with its value's form.
    pub const fn flag(limit: Limit) -> &'static str {
        match limit {
            Limit::States => "--max-states N",
            Limit::Work => "--max-work STEPS",
            Limit::Memory => "--max-memory BYTES",
            Limit::LargestHeap => "--max-heap N",
            Limit::Digits => "--max-digits N",
        }
    }

    /// The same failure, said of line `number` of a file: `error: line N: ...`.
    #[must_use]
    pub fn on_line(self, number: usize) -> Self {
        let said = |message: String| {
            let rest = message.strip_prefix("error: ").unwrap_or(&message);
            format!("error: line {number}: {rest}")
        };
        match self {
            Self::Input(message) => Self::Input(said(message)),
            Self::Limit(message) => Self::Limit(said(message)),
            other => other,
        }
    }

    /// Prints the failure and gives the exit code.
    pub fn report(self) -> ExitCode {
        ExitCode::from(self.print())
    }

    /// Prints the failure and gives the exit code as a number: 2 for bad
    /// input, 3 for a limit, 4 for an answer that could not be written.
    pub fn print(self) -> u8 {
        match self {
            Self::Input(message) => {
                print_error(&message);
                2
            }
            Self::Limit(message) => {
                print_error(&message);
                3
            }
            // The reader stopped reading (`grundy ... | head`): nothing is wrong.
            Self::Output(error) if error.kind() == io::ErrorKind::BrokenPipe => 0,
            Self::Output(error) => {
                print_error(&format!("error: the answer could not be written: {error}"));
                OUTPUT_ERROR
            }
            Self::Reported(code) => code,
        }
    }
}

/// Reports a panic as an internal error on standard error, never panicking
/// itself (a second panic would abort): the panic hooks of `main` and of
/// `grundy serve`.
pub fn report_panic(info: &std::panic::PanicHookInfo<'_>) {
    let message = info
        .payload()
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| info.payload().downcast_ref::<String>().cloned())
        .unwrap_or_default();
    let place = info
        .location()
        .map(|at| format!(" (at {}:{})", at.file(), at.line()))
        .unwrap_or_default();
    print_error(&format!(
        "error: internal error, please report it: {message}{place}"
    ));
}

/// Writes `message` and a line break to standard error, ignoring any failure
/// to write: unlike `eprintln!`, it never panics.
pub fn print_error(message: &str) {
    write_quietly(&mut io::stderr().lock(), message);
}

/// Writes `message` and a line break to `out`, ignoring any failure.
fn write_quietly(out: &mut impl Write, message: &str) {
    let _ = writeln!(out, "{message}").and_then(|()| out.flush());
}

impl From<io::Error> for Failure {
    fn from(error: io::Error) -> Self {
        Self::Output(error)
    }
}

/// "; raise it with --max-work STEPS and --max-memory BYTES", or nothing when
/// no flag raises the limit.
fn raise_with(limits: &[Limit]) -> String {
    let flags: Vec<&str> = limits.iter().map(|&limit| Failure::flag(limit)).collect();
    match flags.as_slice() {
        [] => String::new(),
        [one] => format!("; raise it with {one}"),
        [rest @ .., last] => format!("; raise them with {} and {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer whose every write fails, as a broken pipe does.
    struct Broken;

    impl Write for Broken {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::ErrorKind::BrokenPipe.into())
        }

        fn flush(&mut self) -> io::Result<()> {
            Err(io::ErrorKind::BrokenPipe.into())
        }
    }

    #[test]
    fn writing_an_error_to_a_broken_stream_does_not_panic() {
        write_quietly(&mut Broken, "error: internal error, please report it");
    }
}
