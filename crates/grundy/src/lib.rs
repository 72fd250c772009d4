//! grundy: solve impartial combinatorial games.
#![warn(missing_docs)]
#![warn(missing_debug_implementations)]

pub mod analysis;
pub mod catalogue;
pub mod game;
pub mod games;
pub mod lang;
pub mod nimber;
pub mod solver;
