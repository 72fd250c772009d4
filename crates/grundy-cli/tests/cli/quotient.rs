//! `grundy quotient`, `seq --genus` and misère sums answered through a quotient,
//! on the built binary.

use crate::support::{grundy, json};

/// Plambeck's 0.75: the quotient R8 of order 8, P-portion {a, b^2}, proven
/// for every heap by its period.
#[test]
fn the_quotient_of_0_75() {
    let answer = json(&["quotient", "--json", "octal[0.75]"]);
    assert_eq!(answer["rule"], "octal[0.75]");
    assert_eq!(answer["order"], 8);
    assert_eq!(answer["proven"], true);
    let elements = answer["elements"].as_array().unwrap();
    let p_portion: Vec<&str> = answer["p_portion"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| elements[e.as_u64().unwrap() as usize].as_str().unwrap())
        .collect();
    assert_eq!(p_portion, ["a", "b^2"]);
    let heap_map = answer["heap_map"].as_array().unwrap();
    assert_eq!(heap_map.len() as u64, answer["n"].as_u64().unwrap() + 1);
    assert_eq!(answer["table"].as_array().unwrap().len(), 8);
    assert_eq!(answer["presentation"]["relations"][0], "a^2 = 1");
}

/// With -n the quotient stops there; a quotient grundy cannot build is exit 3
/// naming what was computed; bad rules are exit 2.
#[test]
fn limits_and_errors() {
    let answer = json(&["quotient", "--json", "kayles", "-n", "5"]);
    assert_eq!(answer["n"], 5);
    assert_eq!(answer["proven"], false);
    assert_eq!(answer["orders"].as_array().unwrap().len(), 6);
    let out = grundy(&["quotient", "octal[0.3122]", "-n", "8"]);
    assert_eq!(out.status.code(), Some(3));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("could not be extended to heap 7"),
        "{stderr}"
    );
    assert!(stderr.contains("1, 2, 6, 6, 12, 44, 52"), "{stderr}");
    // Stopped by --max-time, it still says what it computed.
    let out = grundy(&["quotient", "octal[0.35]", "--max-time", "1"]);
    assert_eq!(out.status.code(), Some(3));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("stopped by the time limit (--max-time)"),
        "{stderr}"
    );
    assert!(
        stderr.contains("the orders of the quotients for heaps <= k, k = 0.."),
        "{stderr}"
    );
    let out = grundy(&["quotient", "octal[0.7", "-n", "8"]);
    assert_eq!(out.status.code(), Some(2));
    let out = grundy(&["quotient", "kayles", "-n", "18446744073709551615"]);
    assert_eq!(out.status.code(), Some(3));
}

/// A misère sum of huge heaps of a game with a proven quotient is answered at
/// once, with its winning moves and their count.
#[test]
fn misere_sums_of_huge_heaps() {
    let answer = json(&["solve", "--json", "misere(octal[0.75](1000, 2000, 3001))"]);
    assert_eq!(answer["method"], "misère quotient");
    assert_eq!(answer["outcome"], "N");
    assert_eq!(answer["winning_move_count"], 2998);
    let answer = json(&[
        "solve",
        "--json",
        "misere(octal[0.75](1000000000000000000000000000000, 7))",
    ]);
    assert_eq!(answer["winning_move_count"], 2);
    assert!(answer["notes"][0].as_str().unwrap().contains("order 8"));
    // Kayles: not proven, but built as far as the largest heap.
    let answer = json(&["solve", "--json", "misere(kayles(3, 4, 5))"]);
    assert_eq!(answer["method"], "misère quotient");
    assert_eq!(answer["winning_move_count"], 2);
}

/// Genera out of reach are exit 3 in words of their own: the quotient's message
/// named `--max-order`, which `seq` does not have, and an empty list of orders.
#[test]
fn genera_out_of_reach_say_so() {
    let out = grundy(&["seq", "--genus", "octal[0.75]", "-n", "8"]);
    assert_eq!(out.status.code(), Some(3));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with("error: the genera of octal[0.75] up to heap 8 are out of reach"),
        "{stderr}"
    );
    assert!(!stderr.contains("--max-order"), "{stderr}");
}

/// The genus is read from a misère quotient, which is built from a heap
/// rule's moves: a `script[...]` rule is refused (exit 2, in words), never
/// answered with its values instead.
#[test]
fn the_genus_of_a_script_is_refused() {
    let script = r#"script["fn moves(n) { let m = []; for i in 1..=n { if i <= 3 { m.push(n - i); } } m }"]"#;
    for args in [
        ["seq", "--genus", script, "-n", "5"].as_slice(),
        ["seq", "--genus", "--json", script, "-n", "5"].as_slice(),
        ["seq", "--genus", "script[@no/such/file.rhai]", "-n", "5"].as_slice(),
    ] {
        let out = grundy(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}: values printed");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.starts_with("error: the genus needs a heap rule (`kayles`, `octal[0.75]`"),
            "{stderr}"
        );
        assert!(stderr.contains("not from a script's"), "{stderr}");
    }
    // Without --genus the script's values are its answer.
    #[cfg(feature = "script")]
    {
        let answer = json(&["seq", "--json", script, "-n", "5"]);
        assert_eq!(answer["values"], serde_json::json!([0, 1, 2, 3, 0, 1]));
    }
}

/// Conway's genus, as Winning Ways lists Kayles'.
#[test]
fn genus() {
    let out = grundy(&["seq", "--genus", "kayles", "-n", "5"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        text,
        "0 0^{120}\n1 1^{031}\n2 2^{20}\n3 3^{31}\n4 1^{031}\n5 4^{146}\n"
    );
}
