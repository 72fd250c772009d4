//! grundy: solve impartial combinatorial games.
#![warn(missing_docs)]
#![warn(missing_debug_implementations)]

pub mod games;
pub mod sequence;
