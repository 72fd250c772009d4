//! The theory every family stands on: what an impartial game is, nimbers and
//! their arithmetic, and the generic memoized solver that is the oracle for
//! every closed form.

pub mod game;
pub mod nimber;
pub mod solver;
