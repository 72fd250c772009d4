//! Giving the memory a request freed back to the system.
//!
//! The system's allocator (glibc) keeps the memory freed by a computation in
//! its per-thread arenas: after a burst of large requests the idle server held
//! 600 MB it no longer used. `malloc_trim(0)` returns the free pages of every
//! arena (glibc 2.8 and later: `madvise` on the pages inside free chunks, not
//! only the top of the heap). The server calls it after each computation that
//! took long enough to have held much ([`TRIM_AFTER`]), so that the last
//! request of a burst leaves the server near its size at start. Elsewhere
//! (macOS, musl, Windows) there is no such call and nothing is done.

use std::time::Duration;

/// Computations shorter than this are not followed by a trim: they cannot
/// have held much, and a trim costs a walk of the arenas' free chunks.
pub const TRIM_AFTER: Duration = Duration::from_millis(20);

/// Returns the free memory of the allocator's arenas to the system.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(
    unsafe_code,
    reason = "malloc_trim(3) has no safe binding: a call with no pointer, safe at any time"
)]
pub fn give_back() {
    // SAFETY: malloc_trim takes a size and touches only the allocator's own
    // free lists, under its locks; it may be called from any thread at any
    // time.
    unsafe {
        nix::libc::malloc_trim(0);
    }
}

/// Returns the free memory of the allocator's arenas to the system: nothing
/// to do without glibc.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub const fn give_back() {}
