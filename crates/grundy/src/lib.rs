//! grundy: solve impartial combinatorial games.
//!
//! The crate is laid out as the theory is (docs/ARCHITECTURE.md in the
//! repository says where a new game goes), each module standing only on those
//! before it:
//!
//! * [`theory`]: what an impartial game is ([`theory::game::ImpartialGame`]),
//!   nimbers ([`theory::nimber`]: nim-sum, mex, Conway's nim field), the
//!   generic memoized [`theory::solver`] (the oracle for everything else), the
//!   limits a search counts against ([`theory::limits`]), the cancellation it
//!   obeys ([`theory::cancel`]) and the context of caches it keeps what it
//!   computed in for later work ([`theory::caches`]);
//! * [`lang`]: the position language of the command-line contract;
//! * [`rules`]: heap rules as data (octal codes, subtraction sets) and the closed
//!   forms of a rule alone;
//! * [`sequence`]: Grundy sequences of heap rules, periods and their proofs;
//! * [`quotient`]: misère quotients of heap rules (Plambeck-Siegel) and
//!   Conway's genus;
//! * [`pattern`]: the periods, residue classes, recurrences and complementary
//!   pairs found in a table of values, each stated on its range;
//! * [`family`]: the unit of extension, a game family over typed positions,
//!   and [`drawing`]: the pictures of positions a front end draws;
//! * [`sums`]: sums of components of any families and how they are answered
//!   ([`sums::analysis`]: who wins, nimber, winning moves; misère, every,
//!   rounds; [`sums::table`]: many positions answered with one shared search);
//! * [`registry`]: one entry per game, everything grundy knows of it by name
//!   (how its terms are built, its heap rule, its drawing), and the wrappers
//!   `misere`, `every` and `rounds`;
//! * [`games`]: every family grundy knows, one module each, with its entry;
//! * [`catalogue`]: the entries by name, turning expressions into positions;
//! * [`workflow`]: what a front end asks (a sequence, a table, the
//!   playground's answers) under one [`workflow::Limits`], failing with one
//!   [`workflow::Failure`]: the command line, the Python package and the web
//!   server only parse their input, call these and print.
//!
//! Each item has one public path, the module the list above names; the
//! machinery inside them (the sequence engine's stages, the solver's tables,
//! the explorer of game graphs, the misère search) is private to the crate.
//!
//! ```
//! use grundy::sums::analysis::{solve, SolveOptions};
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
