//! One module per subcommand, each an `Args` struct and a `run` function.

pub mod completions;
pub mod games;
pub mod pairs;
pub mod quotient;
pub mod seq;
#[cfg(feature = "serve")]
pub mod serve;
pub mod solve;
pub mod table;
