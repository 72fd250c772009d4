//! The game catalogue: one module per game family, and the registry.
//!
//! Adding a game means adding its module and one line to [`CATALOGUE`]. Each
//! family module holds the rules as an [`ImpartialGame`](crate::game::ImpartialGame)
//! (what the generic solver searches) beside its closed form or fast algorithm
//! (what answers instantly, for inputs of any size), with the theorem and its
//! source in the module documentation.

pub mod dynamic_subtraction;
pub mod every_sg;
pub mod grid_nim;
pub mod heap;
pub mod lasker;
pub mod misere;
pub mod moore;
pub mod rounds;
pub mod staircase;
pub mod wythoff;

use crate::catalogue::{EntryKind, GameEntry};
use crate::game::Convention;

/// `misere(SUM)`: the sum under misère play.
const MISERE: GameEntry = GameEntry {
    name: "misere",
    summary: "the same position under misère play: whoever makes the last move loses",
    rules: "misere(SUM) plays SUM with the misère convention: the player who cannot move WINS \
            (equivalently, whoever makes the last move loses). The Sprague-Grundy theorem does not \
            hold for misère sums, so grundy searches the whole sum as one game (a state budget \
            bounds the search: --max-states).",
    syntax: "misere(SUM)",
    examples: &[
        "misere(nim(1, 1, 1))",
        "misere(sub[1, 3, 4](30) + sub[2, 5](31) + nim(12))",
    ],
    kind: EntryKind::Convention(Convention::Misere),
};

/// Every entry of the catalogue, in the order `grundy games` lists them.
pub static CATALOGUE: &[GameEntry] = &[
    heap::nim::ENTRY,
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
    MISERE,
    every_sg::ENTRY,
    rounds::ENTRY,
];
