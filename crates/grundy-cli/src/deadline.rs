//! `--max-time SECONDS`: the bound on any command's running time.
//!
//! The command runs under the library's cancellation signal with the limit as
//! its deadline ([`signal`]): every search loop of the library looks at it and
//! stops within milliseconds, the command returns, and [`out_of_time`] is its
//! error (exit 3, naming the flag). Output already written stays written (a
//! `seq --out` file resumes from it: the reader checks what it finds there).
//! Work that never looks at the signal (writing a very long answer, say) is
//! ended by a watchdog [`LAST_RESORT`] later, with the same message; the
//! watchdog waits for a checkpoint being saved (`solve --checkpoint`).

use std::time::{Duration, Instant};

use grundy::theory::cancel::Cancel;

use crate::failure::{Failure, print_error};

/// How long past the limit the watchdog waits for a command to stop by
/// itself before it ends the process.
const LAST_RESORT: Duration = Duration::from_secs(2);

/// Reads `--max-time`: seconds, a decimal number at least 0 (`0.5`, `30`, `600`).
pub fn parse_seconds(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds (e.g. 30 or 0.5)"))?;
    Duration::try_from_secs_f64(seconds)
        .map_err(|_| format!("`{text}` is not a number of seconds between 0 and 10^19"))
}

/// The signal a command runs under for `--max-time limit`, raised when the
/// limit has passed; the watchdog of last resort is started with it. A limit
/// of 0 refuses at once, before any work (exit 3, as `--max-memory 0` is).
pub fn signal(limit: Duration) -> Cancel {
    if limit.is_zero() {
        print_error(
            "error: --max-time 0 leaves no time to run the command; raise it with --max-time SECONDS",
        );
        std::process::exit(3)
    }
    let signal = Cancel::with_deadline(Instant::now() + limit);
    std::thread::spawn(move || {
        std::thread::sleep(limit + LAST_RESORT);
        // A search stopped by the limit saves its checkpoint before it
        // returns: that save is let finish.
        while grundy::theory::checkpoint::saving() {
            std::thread::sleep(Duration::from_millis(20));
        }
        print_error(&message(limit));
        std::process::exit(3)
    });
    signal
}

/// The error of a command stopped by `--max-time limit`.
pub fn out_of_time(limit: Duration) -> Failure {
    Failure::limit(message(limit))
}

fn message(limit: Duration) -> String {
    format!(
        "error: the command did not finish within {} s (the time limit); raise it with \
         --max-time SECONDS",
        limit.as_secs_f64()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_are_read_as_decimals_and_bad_ones_are_explained() {
        assert_eq!(parse_seconds("30"), Ok(Duration::from_secs(30)));
        assert_eq!(parse_seconds("0.5"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_seconds("0"), Ok(Duration::ZERO));
        for bad in ["", "-1", "ten", "NaN", "inf", "1e30"] {
            let error = parse_seconds(bad).unwrap_err();
            assert!(error.contains("seconds"), "{bad}: {error}");
        }
    }
}
