//! The workflows every front end offers (the command line, the Python package
//! and the web playground), written once: what a computation may take
//! ([`Limits`]), how a failure is said to the person at that front end
//! ([`Failure`], [`Door`]), and the workflows themselves: the Grundy sequence
//! of a heap rule ([`seq`]), its misère quotient ([`quotient`]), a table of
//! positions ([`table`]), a position given in parts ([`parts`]: Python's
//! `grundy.solve`), the sequences of many rules at once ([`survey`]) and the
//! web playground's answers ([`play`]: a position analysed move by move, the
//! engine's move); and a workflow run on a thread of its own, watched by the
//! caller's ([`watch`]).
//!
//! A front end parses its arguments into these types, calls the workflow and
//! prints what it returns; it computes nothing itself.

mod failure;
mod limits;
pub mod parts;
pub mod play;
pub mod quotient;
pub mod seq;
pub mod survey;
pub mod table;
pub mod watch;

pub use crate::theory::limits::Door;
#[cfg(not(feature = "script"))]
pub use failure::WITHOUT_SCRIPT;
pub use failure::{Failure, Said};
pub use limits::Limits;
