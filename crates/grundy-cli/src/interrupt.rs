//! Ctrl-C: a command that can stop between steps keeps what it computed.
//!
//! A command that polls [`requested`] between its steps (a table between
//! cells, `seq` between blocks of values) calls [`keep_partial_results`]
//! first: the first Ctrl-C then only raises a flag, and the command writes
//! what it has and exits with 130 (128 + SIGINT, as a shell reports a run
//! stopped by Ctrl-C). Any other command, or a second Ctrl-C, ends the process
//! at once with 130 and a one-line message, never a backtrace.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, Once, PoisonError};

use grundy::theory::cancel::Cancel;

use crate::failure::print_error;

/// The exit code of a run stopped by Ctrl-C.
pub const EXIT_CODE: u8 = 130;

static POLLED: AtomicBool = AtomicBool::new(false);
static REQUESTED: AtomicBool = AtomicBool::new(false);
static INSTALL: Once = Once::new();
/// The signal the first Ctrl-C cancels, if the command gave one.
static SIGNAL: Mutex<Option<Cancel>> = Mutex::new(None);

/// Installs the handler (once); until [`keep_partial_results`] is called, a
/// Ctrl-C ends the process at once.
pub fn install() {
    INSTALL.call_once(|| {
        // No handler (another one is installed, or the platform has none):
        // Ctrl-C keeps its default meaning, which ends the process.
        let _ = ctrlc::set_handler(|| {
            if POLLED.load(Ordering::SeqCst) && !REQUESTED.swap(true, Ordering::SeqCst) {
                if let Some(signal) = SIGNAL
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .as_ref()
                {
                    signal.cancel();
                }
                return;
            }
            print_error("error: interrupted (Ctrl-C)");
            std::process::exit(i32::from(EXIT_CODE));
        });
    });
}

/// Says that this command polls [`requested`] and stops by itself.
pub fn keep_partial_results() {
    install();
    POLLED.store(true, Ordering::SeqCst);
}

/// Says that this command stops by itself, as [`keep_partial_results`] does, when
/// `signal` is cancelled: the first Ctrl-C cancels it (a library computation that
/// looks at its cancellation signal, such as a misère quotient's construction).
pub fn cancel_on_ctrl_c(signal: &Cancel) {
    *SIGNAL.lock().unwrap_or_else(PoisonError::into_inner) = Some(signal.clone());
    keep_partial_results();
}

/// Whether Ctrl-C was pressed since [`keep_partial_results`].
pub fn requested() -> bool {
    REQUESTED.load(Ordering::Relaxed)
}
