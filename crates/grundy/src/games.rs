//! Game families: the rules of each classic game as an
//! [`ImpartialGame`](crate::game::ImpartialGame) (what the generic solver searches)
//! beside its closed form or fast algorithm (what answers instantly, for inputs of
//! any size), with the theorem and its source in the module documentation.

pub mod dynamic_subtraction;
pub mod every_sg;
pub mod misere;
pub mod moore;
pub mod rounds;
pub mod staircase;
pub mod wythoff;
