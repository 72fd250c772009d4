//! `--max-time SECONDS`: the last-resort bound on any command's running time.
//!
//! The library bounds its searches by states, work and memory, each checked as
//! the search grows; a clock is the one limit it cannot check for every
//! computation alike. So the time limit is kept here, by a watchdog thread: when
//! the time is up it prints the error naming the flag and ends the process with
//! exit 3, whatever the command was doing. Output already written stays written
//! (a `seq --out` file resumes from it: the reader checks what it finds there).

use std::time::Duration;

use crate::failure::print_error;

/// Reads `--max-time`: seconds, a decimal number at least 0 (`0.5`, `30`, `600`).
pub fn parse_seconds(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds (e.g. 30 or 0.5)"))?;
    Duration::try_from_secs_f64(seconds)
        .map_err(|_| format!("`{text}` is not a number of seconds between 0 and 10^19"))
}

/// Starts the watchdog: after `limit`, the process ends with exit 3 and an
/// error naming `--max-time`. A limit of 0 refuses at once, before any work
/// (exit 3, as `--max-memory 0` is).
pub fn start(limit: Duration) {
    if limit.is_zero() {
        print_error(
            "error: --max-time 0 leaves no time to run the command; raise it with --max-time SECONDS",
        );
        std::process::exit(3)
    }
    std::thread::spawn(move || {
        std::thread::sleep(limit);
        time_is_up(limit);
    });
}

fn time_is_up(limit: Duration) -> ! {
    // `grundy serve` tells its children's time limit from other limits by
    // "(the time limit)".
    print_error(&format!(
        "error: the command did not finish within {} s (the time limit); raise it with \
         --max-time SECONDS",
        limit.as_secs_f64()
    ));
    std::process::exit(3)
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
