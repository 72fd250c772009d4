//! Property tests of the library, in one test program (one link instead of one per
//! file): the whole expression language fuzzed (`language_fuzz`, `robustness`), the
//! sequence-file reader attacked (`resume_fuzz`), random sums against a brute force
//! (`sums`), every search stopped at its deadline (`cancellation`), and the values
//! taken from a proven period against the engine's (`period_shortcut`).

mod cancellation;
mod language_fuzz;
mod period_shortcut;
mod resume_fuzz;
mod robustness;
mod sums;
