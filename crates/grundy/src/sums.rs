//! Sums of games and the ways of playing them.
//!
//! A [`position::Position`] is a sum of components of any families. Under
//! normal play [`analysis::solve`] answers it by the Sprague-Grundy theorem;
//! misère play ([`misere`]), Every-SG ([`every_sg`]) and matches of rounds
//! ([`rounds`]) play the same sums by other rules. Components without a
//! closed form are searched through explicit game graphs (the explorer).

pub mod analysis;
pub mod answer;
mod disjunctive;
pub mod entry;
pub mod every_sg;
pub(crate) mod explorer;
pub mod misere;
pub mod position;
pub mod remoteness;
pub mod rounds;
pub mod table;

use crate::theory::game::Convention;
use entry::{EntryKind, GameEntry};

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

/// The wrappers that play a whole sum another way, in the order `grundy games`
/// lists them.
pub(crate) static ENTRIES: &[GameEntry] = &[MISERE, every_sg::ENTRY, rounds::ENTRY];
