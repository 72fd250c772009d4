//! Property tests of the library, in one test program (one link instead of one per
//! file): the whole expression language fuzzed (`language_fuzz`, `robustness`), the
//! sequence-file reader attacked (`resume_fuzz`), random sums against a brute force
//! (`sums`), every search stopped at its deadline (`cancellation`), and the values
//! taken from a proven period against the engine's (`period_shortcut`); every
//! proof of a period checked on every small rule (`proof_sweep`).

mod cancellation;
mod language_fuzz;
mod period_shortcut;
mod proof_sweep;
mod resume_fuzz;
mod robustness;
mod sums;
