//! grundy: solve impartial combinatorial games.
//!
//! The crate is laid out as the theory is:
//!
//! * [`nimber`]: nim-sum, mex, and Conway's nim field (products, inverses);
//! * [`game`]: what an impartial game is ([`game::ImpartialGame`]);
//! * [`solver`]: the generic memoized solver, the oracle for everything else;
//! * [`lang`]: the position language of the command-line contract;
//! * [`catalogue`] and [`games`]: every game grundy knows, one module per family;
//! * [`analysis`]: answering a position (who wins, nimber, winning moves);
//! * [`sequence`]: Grundy sequences of heap games, periods and their proofs.
//!
//! ```
//! use grundy::analysis::{solve, SolveOptions};
//! use grundy::catalogue::build;
//! use grundy::lang::parse;
//!
//! let position = build(&parse("nim(3, 5, 7) + bash[3](10)").unwrap()).unwrap();
//! let answer = solve(&position, &SolveOptions::default()).unwrap();
//! assert_eq!(answer.outcome.in_words(), "first player wins");
//! ```
#![warn(missing_docs)]
#![warn(missing_debug_implementations)]

pub mod catalogue;
pub mod family;
pub mod games;
pub mod lang;
pub mod rules;
pub mod sequence;
pub mod sums;
pub mod theory;

pub use sums::analysis;
pub use theory::{game, nimber, solver};
