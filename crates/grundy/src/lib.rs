//! grundy: solve impartial combinatorial games.
//!
//! The crate is laid out as the theory is (docs/ARCHITECTURE.md in the
//! repository says where a new game goes), each module standing only on those
//! before it:
//!
//! * [`theory`]: what an impartial game is ([`game::ImpartialGame`]), nimbers
//!   ([`nimber`]: nim-sum, mex, Conway's nim field) and the generic memoized
//!   [`solver`], the oracle for everything else;
//! * [`lang`]: the position language of the command-line contract;
//! * [`rules`]: heap rules as data (octal codes, subtraction sets) and the closed
//!   forms of a rule alone;
//! * [`sequence`]: Grundy sequences of heap rules, periods and their proofs;
//! * [`family`]: the unit of extension, a game family over typed positions,
//!   and [`drawing`]: the pictures of positions a front end draws;
//! * [`sums`]: sums of components of any families and how they are answered
//!   ([`analysis`]: who wins, nimber, winning moves; misère, every, rounds);
//! * [`registry`]: one entry per game, everything grundy knows of it by name
//!   (how its terms are built, its heap rule, its drawing), and the wrappers
//!   `misere`, `every` and `rounds`;
//! * [`games`]: every family grundy knows, one module each, with its entry;
//! * [`catalogue`]: the entries by name, turning expressions into positions;
//! * [`table`] and [`pattern`]: many positions answered with one shared search
//!   (`grundy table`), and the periods, residue classes, recurrences and
//!   complementary pairs found in such tables, each stated on its range.
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
pub mod drawing;
pub mod family;
pub mod games;
pub mod lang;
pub mod pattern;
pub mod quotient;
#[doc(hidden)]
pub mod random;
pub mod registry;
pub mod rules;
pub mod sequence;
pub mod sums;
pub mod theory;
pub mod workflow;

#[cfg(test)]
mod layers;
#[cfg(test)]
pub(crate) mod testing;

pub use sums::{analysis, table};
pub use theory::{cancel, game, nimber, solver};
