//! Game families, one module per family, each holding its rules and the theory it rests on.

pub mod heap;
