//! The catalogue as the playground's page reads it (`GET /api/games`).

use serde::Serialize;

use crate::catalogue::{Catalogue, entries};

/// One game of the catalogue as the page reads it.
#[derive(Debug, Serialize)]
struct GameView {
    /// Its name: `nim`.
    name: &'static str,
    /// What it is, in a line.
    summary: &'static str,
    /// Its rules, in words.
    rules: &'static str,
    /// How its positions are written.
    syntax: &'static str,
    /// Its other names.
    aliases: Vec<&'static str>,
    /// Positions to try (none reading a file).
    examples: Vec<&'static str>,
    /// How the page draws its positions: `heaps`, `coins`, `graph`, `board`,
    /// `wythoff`, `chomp`, `numbers`, `grid` or `none`
    /// ([`DrawingKind::name`](crate::drawing::DrawingKind::name)).
    drawing: &'static str,
}

/// Every game of the catalogue as the page reads it: `{"games": [...]}`.
#[derive(Debug, Serialize)]
pub struct Games {
    /// Each game, in the catalogue's order.
    games: Vec<GameView>,
}

/// Every game with its rules, syntax, aliases, examples and drawing kind
/// (examples reading files left out: the server reads none).
pub fn games() -> Games {
    let games = entries()
        .iter()
        .map(|entry| GameView {
            name: entry.name,
            summary: entry.summary,
            rules: entry.rules,
            syntax: entry.syntax,
            aliases: Catalogue::standard().aliases_of(entry.name).collect(),
            examples: entry
                .examples
                .iter()
                .copied()
                .filter(|example| !example.contains('@'))
                .collect(),
            drawing: entry.drawing.name(),
        })
        .collect();
    Games { games }
}
