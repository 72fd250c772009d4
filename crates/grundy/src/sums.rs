//! Sums of games and the ways of playing them.
//!
//! A [`position::Position`] is a sum of components of any families. Under
//! normal play [`analysis::solve`] answers it by the Sprague-Grundy theorem;
//! misère play ([`misere`]), Every-SG ([`every_sg`]) and matches of rounds
//! ([`rounds`]) play the same sums by other rules. Components without a
//! closed form are searched through explicit game graphs (the explorer).

pub mod analysis;
pub(crate) mod answer;
mod disjunctive;
pub mod every_sg;
pub(crate) mod explorer;
pub mod misere;
pub mod position;
pub mod remoteness;
pub mod report;
pub mod rounds;
pub mod table;
