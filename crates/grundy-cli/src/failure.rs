//! How a failed command looks to a person, and its exit code.
//!
//! Errors go to standard error by [`print_error`], which never fails: a closed
//! or broken standard error (`2>&-`, a reader that went away) must not turn a
//! documented exit code into an abort.

use std::io::{self, Write};
use std::process::ExitCode;

pub use grundy::workflow::{Door, Failure};

/// A failure told on standard error, with the exit code it makes.
pub trait Told {
    /// Prints the failure and gives the exit code.
    fn report(self) -> ExitCode;
    /// Prints the failure and gives the exit code as a number: 2 for bad
    /// input, 3 for a limit, 4 for an answer that could not be written.
    fn print(self) -> u8;
}

impl Told for Failure {
    fn report(self) -> ExitCode {
        ExitCode::from(self.print())
    }

    fn print(self) -> u8 {
        let code = self.exit_code();
        // A reader that stopped reading (`grundy ... | head`) and errors
        // told as they came are not told again.
        if code != 0 && !matches!(self, Self::Reported(_)) {
            print_error(&self.message());
        }
        code
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
