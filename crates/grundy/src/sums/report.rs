//! An answer as the command-line contract's JSON object (`grundy solve --json`,
//! docs/CONTRACT.md): one implementation for every front end that prints it (the
//! command line, the web playground's API and the Python package's
//! `Answer.to_dict()`), so that they agree field for field.
//!
//! Integers are JSON numbers below 2^53 (the integers every JSON reader holds
//! exactly) and decimal strings above. A position whose canonical text is longer
//! than [`WHOLE_TARGETS_UP_TO`] bytes gives its winning moves in one component in
//! the compact form (`"to": null`, the term and component changed and what that
//! component becomes), so that a million heaps are not repeated in every move.

use std::io::{self, Write};

use num_bigint::BigUint;
use serde_json::Value;

use crate::sums::answer::{Answer, WinningMove};
use crate::sums::position::{Group, Position};

/// Each winning move's `to` is given whole for positions whose canonical text is
/// at most this long (bytes), and in the compact form above.
pub const WHOLE_TARGETS_UP_TO: usize = 10_000;

/// An integer as JSON: a number below 2^53, a decimal string above.
#[must_use]
pub fn big_json(value: &BigUint) -> Value {
    match u64::try_from(value) {
        Ok(small) if small < (1 << 53) => Value::from(small),
        _ => Value::String(value.to_string()),
    }
}

/// Whether the moves of `answer` take the compact form: its position is longer
/// than [`WHOLE_TARGETS_UP_TO`] bytes and whole targets were not asked for.
#[must_use]
pub fn compact_moves(answer: &Answer, whole_targets: bool) -> bool {
    !whole_targets && answer.position.as_str().len() > WHOLE_TARGETS_UP_TO
}

/// Writes the contract's JSON object for `answer`, the answer of `position`
/// (without a line break after it). It is streamed field by field, because a
/// position of a million heaps makes every `to` tens of megabytes long. Given
/// `compact` (see [`compact_moves`]), moves in one component get the compact
/// form instead of `to` (see `write_compact_move`); moves of `every(...)` and
/// `rounds[k](...)` are always whole.
///
/// # Errors
/// Whatever writing to `out` returns.
pub fn write_answer_json(
    out: &mut impl Write,
    answer: &Answer,
    position: &Position,
    compact: bool,
) -> io::Result<()> {
    out.write_all(b"{")?;
    field(out, "position", &Value::from(answer.position.as_str()))?;
    out.write_all(b",")?;
    field(out, "convention", &Value::from(answer.play))?;
    out.write_all(b",")?;
    field(
        out,
        "outcome",
        &Value::from(answer.outcome.letter().to_string()),
    )?;
    out.write_all(b",")?;
    field(
        out,
        "first_player_wins",
        &Value::from(answer.outcome.first_player_wins()),
    )?;
    out.write_all(b",")?;
    field(
        out,
        "nimber",
        &answer.nimber.as_ref().map_or(Value::Null, big_json),
    )?;
    // Only for the sums of games that may go on for ever (`digraph`).
    if let Some(value) = &answer.loopy_value {
        out.write_all(b",")?;
        field(out, "loopy_value", &Value::from(value.to_string()))?;
    }
    out.write_all(b",\"winning_moves\":[")?;
    for (i, winning) in answer.winning_moves.iter().enumerate() {
        if i > 0 {
            out.write_all(b",")?;
        }
        let group = compact
            .then(|| position.groups.get(winning.group))
            .flatten()
            // Moves of every(...) and rounds[k](...) come whole from the library.
            .filter(|_| winning.whole.is_none());
        match group {
            Some(group) => write_compact_move(out, winning, group)?,
            None => {
                out.write_all(b"{")?;
                field(out, "to", &Value::from(answer.target(winning)))?;
                out.write_all(b",")?;
                field(out, "move", &Value::from(winning.description.as_str()))?;
                out.write_all(b"}")?;
            }
        }
    }
    out.write_all(b"],")?;
    // A count that could not be finished is null, never a partial number.
    let count = if answer.moves_counted {
        big_json(&answer.winning_move_count)
    } else {
        Value::Null
    };
    field(out, "winning_move_count", &count)?;
    out.write_all(b",")?;
    field(out, "truncated", &Value::from(answer.truncated))?;
    out.write_all(b",")?;
    field(out, "method", &Value::from(answer.method.as_str()))?;
    if !answer.notes.is_empty() {
        out.write_all(b",")?;
        field(out, "notes", &Value::from(answer.notes.clone()))?;
    }
    out.write_all(b"}")
}

/// The contract's JSON object for `answer` (of `position`) as text, in the
/// compact form above [`WHOLE_TARGETS_UP_TO`] bytes.
#[must_use]
pub fn answer_json(answer: &Answer, position: &Position) -> String {
    let mut bytes = Vec::new();
    // Writing to memory cannot fail.
    let _ = write_answer_json(&mut bytes, answer, position, compact_moves(answer, false));
    // What is written is JSON, hence UTF-8.
    String::from_utf8(bytes).unwrap_or_default()
}

/// Writes `"name":value`.
fn field(out: &mut impl Write, name: &str, value: &Value) -> io::Result<()> {
    write!(out, "\"{name}\":")?;
    serde_json::to_writer(&mut *out, value).map_err(io::Error::from)
}

/// Writes a winning move in one component in the compact form, for positions
/// too long to repeat in every move: `"to": null`, the move in words, the
/// 0-based index of the term in the sum (`term`) and of the component in the
/// term (`component`), and the term that component becomes (`component_to`):
/// the term's name and parameters (and an argument its components share, such
/// as the graph of `dag`) with the components the move leaves,
/// e.g. `nim(4)`, `octal[0.6](3, 5)` for a split, `octal[0.07]()` for a move
/// that leaves nothing (Nim keeps an emptied heap: `nim(0)`). Each is itself a
/// position `solve` accepts.
fn write_compact_move(
    out: &mut impl Write,
    winning: &WinningMove,
    group: &Group,
) -> io::Result<()> {
    let component_to = group.term_with(&winning.leaves);
    out.write_all(b"{\"to\":null,")?;
    field(out, "move", &Value::from(winning.description.as_str()))?;
    write!(
        out,
        ",\"term\":{},\"component\":{},",
        winning.group, winning.part
    )?;
    field(out, "component_to", &Value::from(component_to))?;
    out.write_all(b"}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::build;
    use crate::lang::parse;
    use crate::sums::analysis::{SolveOptions, solve};

    fn json_of(text: &str) -> Value {
        let position = build(&parse(text).unwrap()).unwrap();
        let answer = solve(&position, &SolveOptions::default()).unwrap();
        serde_json::from_str(&answer_json(&answer, &position)).unwrap()
    }

    #[test]
    fn the_contract_object_has_its_fields_in_order() {
        let object = json_of("nim(3, 5, 7)");
        let keys: Vec<&str> = object
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(
            keys,
            [
                "position",
                "convention",
                "outcome",
                "first_player_wins",
                "nimber",
                "winning_moves",
                "winning_move_count",
                "truncated",
                "method"
            ]
        );
        assert_eq!(object["nimber"], 1);
        assert_eq!(object["winning_move_count"], 3);
        assert_eq!(object["winning_moves"][0]["to"], "nim(2, 5, 7)");
    }

    #[test]
    fn integers_from_two_to_the_53_are_strings() {
        assert_eq!(
            big_json(&BigUint::from((1u64 << 53) - 1)),
            Value::from((1u64 << 53) - 1)
        );
        assert_eq!(
            big_json(&BigUint::from(1u64 << 53)),
            Value::from((1u64 << 53).to_string())
        );
        let object = json_of("nim(10000000000000000000000)");
        assert_eq!(object["nimber"], "10000000000000000000000");
    }

    #[test]
    fn long_positions_give_compact_moves() {
        let heaps = vec!["1"; 6000].join(", ");
        let object = json_of(&format!("nim({heaps}) + bash[2](5)"));
        let first = &object["winning_moves"][0];
        assert_eq!(first["to"], Value::Null);
        assert_eq!(first["term"], 1);
        assert_eq!(first["component_to"], "bash[2](3)");
    }
}
