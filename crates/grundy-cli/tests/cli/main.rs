//! The command line checked on the built binary: every test of `grundy` as a user,
//! a script or a judge runs it, in one test program (one link instead of one per
//! file), a module per subject. `support` runs the binary and reads its answers.

mod support;

mod basics;
mod batch;
mod board_games;
mod checkpoint;
mod coin_games;
mod completions;
mod contract;
mod defects;
mod defects_fuzzing;
mod docs_examples;
mod graph_games;
mod input_files;
mod interrupt;
mod loopy_games;
mod memory_limits;
mod moves;
mod quotient;
mod resume;
#[cfg(feature = "script")]
mod script_games;
mod seq;
mod seq_time;
#[cfg(feature = "serve")]
mod serve;
#[cfg(all(feature = "serve", feature = "script"))]
mod serve_load;
mod streams;
mod table;
mod threads;
mod unicode_inputs;
mod word_games;
