//! The game families: one module per family, and their entries.
//!
//! Adding a game means adding its module and one line to `ENTRIES`. Each
//! family module holds the rules once, as a [`Family`](crate::family::Family)
//! (the moves the generic solver searches, typed positions), beside its closed
//! form or fast algorithm (what answers instantly, for inputs of any size), with
//! the theorem and its source in the module documentation, and the tests that
//! check the one against the other.

pub mod callback;
pub(crate) mod chomp;
pub(crate) mod coins;
pub mod cram;
pub(crate) mod divisors;
pub mod dynamic_subtraction;
pub mod graph;
pub mod grid_nim;
pub mod heap;
pub mod moore;
#[cfg(feature = "script")]
pub mod script;
pub mod staircase;
pub mod words;
pub mod wythoff;

use crate::registry::GameEntry;

/// Every entry of the catalogue, in the order `grundy games` lists them.
pub(crate) static ENTRIES: &[GameEntry] = &[
    heap::nim::ENTRY,
    heap::nim::ANTI_NIM_ENTRY,
    heap::bash::ENTRY,
    heap::subtraction::ENTRY,
    heap::take_and_break::ALL_BUT_ENTRY,
    heap::take_and_break::OCTAL_ENTRY,
    heap::take_and_break::KAYLES_ENTRY,
    heap::take_and_break::DAWSON_KAYLES_ENTRY,
    heap::take_and_break::GRUNDY_GAME_ENTRY,
    heap::take_and_break::LASKER_ENTRY,
    heap::take_and_break::REST_NIM_ENTRY,
    wythoff::ENTRY,
    dynamic_subtraction::FIBONACCI_ENTRY,
    dynamic_subtraction::DYNAMIC_ENTRY,
    staircase::ENTRY,
    staircase::STONES_ENTRY,
    moore::ENTRY,
    grid_nim::ENTRY,
    graph::dag::ENTRY,
    graph::digraph::ENTRY,
    graph::annihilation::ENTRY,
    graph::hackenbush::ENTRY,
    graph::geography::ENTRY,
    graph::geography::BOARD_ENTRY,
    graph::tree_walk::ENTRY,
    words::PREFIX_ENTRY,
    words::SUBSTRING_ENTRY,
    coins::TURTLES_ENTRY,
    coins::MOCK_TURTLES_ENTRY,
    coins::TWINS_ENTRY,
    coins::RULER_ENTRY,
    coins::COINS_ENTRY,
    chomp::ENTRY,
    divisors::ENTRY,
    cram::ENTRY,
    #[cfg(feature = "script")]
    script::ENTRY,
];

/// Other names contest problems use for games of [`ENTRIES`]: `(alias, name)`.
pub(crate) static ALIASES: &[(&str, &str)] = &[("nim_k", "bash"), ("multi_nim", "lasker")];
