//! The workflows every front end offers (the command line, the Python package
//! and the web playground), written once: what a computation may take
//! ([`Limits`]), how a failure is said to the person at that front end
//! ([`Failure`], [`Door`]); and the workflows themselves: [`table`].
//!
//! A front end parses its arguments into these types, calls the workflow and
//! prints what it returns; it computes nothing itself.

mod failure;
mod limits;
pub mod table;

#[cfg(not(feature = "script"))]
pub use failure::WITHOUT_SCRIPT;
pub use failure::{Door, Failure};
pub use limits::Limits;
