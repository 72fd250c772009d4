//! The theory every family stands on: what an impartial game is, nimbers and
//! their arithmetic, the generic memoized solver that is the oracle for
//! every closed form, and remoteness (how long best play lasts).

pub mod caches;
pub mod cancel;
pub mod checkpoint;
pub mod game;
pub mod limits;
pub mod loopy;
pub mod nimber;
pub(crate) mod remoteness;
pub mod solver;
