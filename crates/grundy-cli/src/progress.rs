//! The progress bar of long commands (`seq`, `table`, `quotient`): drawn on
//! standard error when it is a terminal, once the work has lasted a second,
//! and cleared when the work ends.

use std::io::{self, IsTerminal};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

/// How long work runs before its bar appears: quick commands print no bar.
const QUIET_FOR: Duration = Duration::from_secs(1);

/// A progress bar that appears after [`QUIET_FOR`] on a terminal.
pub struct DelayedBar {
    started: Instant,
    template: &'static str,
    shown: bool,
    bar: Option<ProgressBar>,
}

impl DelayedBar {
    /// A bar drawn with the indicatif `template` (`{bar:40} {pos}/{len} cells`).
    pub fn new(template: &'static str) -> Self {
        Self {
            started: Instant::now(),
            template,
            shown: io::stderr().is_terminal(),
            bar: None,
        }
    }

    /// Shows `done` of `total`, with `message` for the template's `{msg}`.
    pub fn update(&mut self, done: u64, total: u64, message: &str) {
        if self.shown && self.bar.is_none() && self.started.elapsed() > QUIET_FOR {
            let bar = ProgressBar::new(total);
            bar.set_style(
                ProgressStyle::with_template(self.template)
                    .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            self.bar = Some(bar);
        }
        if let Some(bar) = &self.bar {
            bar.set_length(total);
            bar.set_position(done);
            bar.set_message(message.to_owned());
        }
    }
}

impl Drop for DelayedBar {
    fn drop(&mut self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
