//! Peak memory of the binary's runs, in a test program of its own. A child's
//! peak as wait4(2) reports it (`ru_maxrss`) includes the memory of the process
//! that started it, up to its exec: among the other command-line tests, whose
//! process holds large outputs, every figure would be inflated. The estimate
//! is checked within a factor 2 of the peak, down to runs of a few MiB.

#[path = "../cli/support.rs"]
#[allow(
    dead_code,
    reason = "the helpers of every command-line test; these use a few"
)]
mod support;

mod memory;
