//! The compact form of winning moves: above 10,000 bytes of
//! position, a move names the component it changes instead of repeating the
//! whole position in `to`.

use std::path::PathBuf;

use serde_json::Value;

use crate::support::grundy;

fn json(args: &[&str]) -> (Value, usize) {
    let output = grundy(args);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let size = output.stdout.len();
    (serde_json::from_slice(&output.stdout).unwrap(), size)
}

/// A position written as its terms: each a head and its arguments.
struct Terms(Vec<(&'static str, Vec<String>)>);

impl Terms {
    fn text(&self) -> String {
        self.0
            .iter()
            .map(|(head, args)| format!("{head}({})", args.join(", ")))
            .collect::<Vec<_>>()
            .join(" + ")
    }

    /// The whole position after a move given in the compact form.
    fn after(&self, winning: &Value) -> String {
        let term = winning["term"].as_u64().unwrap() as usize;
        let component = winning["component"].as_u64().unwrap() as usize;
        let component_to = winning["component_to"].as_str().unwrap();
        let head = self.0[term].0;
        let leaves = component_to
            .strip_prefix(head)
            .and_then(|rest| rest.strip_prefix('('))
            .and_then(|rest| rest.strip_suffix(')'))
            .unwrap_or_else(|| panic!("{component_to} is not a term of {head}"));
        let mut after: Vec<(&'static str, Vec<String>)> = self.0.clone();
        let replaced = &mut after[term].1;
        replaced.remove(component);
        if !leaves.is_empty() {
            replaced.insert(component, leaves.to_owned());
        }
        Terms(after).text()
    }
}

/// Checks that the compact answer and the `--full-moves` one list the same moves,
/// each compact move spliced back giving the whole `to`.
fn agree_with_full_moves(terms: &Terms) {
    let position = terms.text();
    assert!(position.len() > 10_000);
    let (compact, compact_size) = json(&["solve", "--json", &position]);
    let (full, full_size) = json(&["solve", "--json", "--full-moves", &position]);
    assert_eq!(compact["position"], full["position"]);
    let compact_moves = compact["winning_moves"].as_array().unwrap();
    let full_moves = full["winning_moves"].as_array().unwrap();
    assert!(!compact_moves.is_empty());
    assert_eq!(compact_moves.len(), full_moves.len());
    for (short, whole) in compact_moves.iter().zip(full_moves) {
        assert_eq!(short["to"], Value::Null);
        assert_eq!(short["move"], whole["move"]);
        assert_eq!(terms.after(short), whole["to"].as_str().unwrap(), "{short}");
        let keys: Vec<&String> = short.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["to", "move", "term", "component", "component_to"]);
    }
    assert!(compact_size < position.len() + 500 + 200 * compact_moves.len());
    assert!(full_size > position.len() * full_moves.len());
}

fn repeated(value: &str, count: usize) -> Vec<String> {
    vec![value.to_owned(); count]
}

#[test]
fn compact_moves_splice_back_to_the_whole_position() {
    // Taking from a heap of a sum: `nim(1)`.
    agree_with_full_moves(&Terms(vec![
        ("nim", repeated("3", 3000)),
        ("nim", vec!["7".into(), "5".into()]),
        ("bash[3]", repeated("4", 1000)),
    ]));
    // A split in the second term: `octal[0.6](4, 4)`.
    agree_with_full_moves(&Terms(vec![
        ("nim", repeated("1", 4000)),
        ("octal[0.6]", vec!["9".into()]),
    ]));
    // A heap taken whole by a code that leaves nothing: `octal[0.07]()`.
    agree_with_full_moves(&Terms(vec![
        ("nim", repeated("2", 4000)),
        ("octal[0.07]", vec!["2".into()]),
    ]));
}

#[test]
fn misere_and_every_sums_keep_their_forms() {
    // Misère: the term alone, without `misere(...)`; Nim keeps an emptied heap.
    let heaps = repeated("2", 3999).join(", ");
    let (answer, _) = json(&["solve", "--json", &format!("misere(nim({heaps}))")]);
    let first = &answer["winning_moves"][0];
    assert_eq!(first["to"], Value::Null, "{first}");
    assert_eq!(first["component_to"], "nim(0)");
    assert_eq!(first["term"], 0);
    // Every-SG moves change several components: `to` stays whole.
    let heaps = repeated("1", 3400).join(", ");
    let position = format!("every(nim({heaps}) + nim(2))");
    let (answer, _) = json(&["solve", "--json", &position]);
    let first = &answer["winning_moves"][0];
    assert!(first["to"].as_str().unwrap().starts_with("every(nim(0, 0"));
    assert!(first.get("component_to").is_none());
}

#[test]
fn positions_up_to_10000_bytes_keep_to_whole() {
    // `nim(1, ..., 1, LAST)`: 3332 heaps of 1 are 9999 bytes, and the last
    // heap's digits decide the length: 10,000 bytes with `11`, 10,001 with `111`.
    for (last, length, whole) in [("11", 10_000, true), ("111", 10_001, false)] {
        let mut heaps = repeated("1", 3331);
        heaps.push(last.to_owned());
        let position = format!("nim({})", heaps.join(", "));
        assert_eq!(position.len(), length);
        let (answer, _) = json(&["solve", "--json", &position]);
        let moves = answer["winning_moves"].as_array().unwrap();
        assert_eq!(moves.len(), 1);
        if whole {
            assert!(moves[0]["to"].as_str().unwrap().ends_with(", 1)"));
            assert_eq!(moves[0].as_object().unwrap().len(), 2);
        } else {
            assert_eq!(moves[0]["to"], Value::Null);
            assert_eq!(moves[0]["component"], 3331);
            assert_eq!(moves[0]["component_to"], "nim(1)");
        }
    }
}

#[test]
fn a_hundred_thousand_heaps_print_a_small_answer() {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("moves-heaps.txt");
    let heaps: Vec<u32> = (1..=100_000).collect();
    let lines: Vec<String> = heaps.iter().map(u32::to_string).collect();
    std::fs::write(&path, lines.join("\n")).unwrap();
    let position = format!("nim(@{})", path.display());
    let total = heaps.iter().fold(0, |x, h| x ^ h);
    let winning: Vec<usize> = (0..heaps.len())
        .filter(|&i| heaps[i] ^ total < heaps[i])
        .collect();

    let (answer, size) = json(&["solve", "--json", &position]);
    let text_length = answer["position"].as_str().unwrap().len();
    assert!(text_length > 500_000);
    assert_eq!(answer["winning_move_count"], winning.len());
    let moves = answer["winning_moves"].as_array().unwrap();
    assert_eq!(moves.len(), 100);
    for (winning, &i) in moves.iter().zip(&winning) {
        assert_eq!(winning["to"], Value::Null);
        assert_eq!(winning["term"], 0);
        assert_eq!(winning["component"], i);
        assert_eq!(
            winning["component_to"],
            format!("nim({})", heaps[i] ^ total)
        );
    }
    // The position once and 100 short moves, not 100 copies of the position.
    assert!(size < text_length + 20_000, "{size} bytes");

    let (answer, size) = json(&[
        "solve",
        "--json",
        "--full-moves",
        "--max-moves",
        "3",
        &position,
    ]);
    assert!(size > 4 * text_length, "{size} bytes");
    let to = answer["winning_moves"][0]["to"].as_str().unwrap();
    assert_eq!(to.len(), text_length);
}
