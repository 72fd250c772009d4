//! grundy: solve impartial combinatorial games.
#![warn(missing_docs)]
#![warn(missing_debug_implementations)]

pub mod game;
pub mod lang;
pub mod nimber;
pub mod solver;
pub mod analysis;
pub mod catalogue;
pub mod games;
