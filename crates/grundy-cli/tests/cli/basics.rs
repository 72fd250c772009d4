//! The command-line contract, checked on the built binary.

use std::io::Write;
use std::process::Stdio;

use serde_json::Value;

use crate::support::{command, grundy, stderr};

fn json(args: &[&str]) -> Value {
    let output = grundy(args);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = String::from_utf8(output.stdout).unwrap();
    assert_eq!(text.lines().count(), 1, "exactly one JSON object");
    serde_json::from_str(&text).unwrap()
}

#[test]
fn solve_json_has_every_contract_field() {
    let answer = json(&["solve", "--json", "nim(3,5,7)"]);
    assert_eq!(answer["position"], "nim(3, 5, 7)");
    assert_eq!(answer["convention"], "normal");
    assert_eq!(answer["outcome"], "N");
    assert_eq!(answer["first_player_wins"], true);
    assert_eq!(answer["nimber"], 1);
    assert_eq!(answer["winning_move_count"], 3);
    assert_eq!(answer["truncated"], false);
    assert_eq!(answer["method"], "nim-sum");
    assert_eq!(answer["winning_moves"][2]["to"], "nim(3, 5, 6)");
    assert_eq!(
        answer["winning_moves"][2]["move"],
        "take 1 from the heap of 7"
    );
    let keys: Vec<&String> = answer.as_object().unwrap().keys().collect();
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
}

#[test]
fn every_winning_move_printed_leads_to_a_p_position() {
    for position in [
        "nim(3, 5, 7)",
        "bash[3](10) + sub[1, 3, 4](20) + nim(6)",
        "misere(nim(1, 1, 1, 1))",
        "misere(sub[1, 3, 4](30) + sub[2, 5](31) + nim(12))",
        "misere(nim(2, 3) + bash[2](5))",
    ] {
        let answer = json(&["solve", "--json", position]);
        assert_eq!(answer["outcome"], "N", "{position}");
        let moves = answer["winning_moves"].as_array().unwrap();
        assert!(!moves.is_empty());
        for winning in moves {
            let to = winning["to"].as_str().unwrap();
            let next = json(&["solve", "--json", to]);
            assert_eq!(next["outcome"], "P", "{position} -> {to}");
            assert_eq!(next["first_player_wins"], false);
            assert_eq!(next["winning_moves"].as_array().unwrap().len(), 0);
        }
    }
}

#[test]
fn p_positions_and_misere_have_the_right_shape() {
    let answer = json(&["solve", "--json", "nim(1, 2, 3)"]);
    assert_eq!(
        (answer["outcome"].as_str(), answer["nimber"].as_u64()),
        (Some("P"), Some(0))
    );
    assert_eq!(answer["winning_move_count"], 0);
    let answer = json(&["solve", "--json", "misere(nim(1, 1))"]);
    assert_eq!(answer["convention"], "misere");
    assert_eq!(answer["nimber"], Value::Null);
    assert_eq!(answer["winning_move_count"], 2);
}

#[test]
fn large_numbers_are_decimal_strings_in_json() {
    let big = format!("1{}", "0".repeat(100));
    let answer = json(&["solve", "--json", &format!("nim({big}, 1)")]);
    // 10^100 is even, so 10^100 xor 1 = 10^100 + 1.
    assert_eq!(answer["nimber"], format!("1{}1", "0".repeat(99)));
    let answer = json(&["solve", "--json", "nim(9007199254740992)"]);
    assert_eq!(answer["nimber"], "9007199254740992"); // 2^53: a string
    let answer = json(&["solve", "--json", "nim(9007199254740991)"]);
    assert_eq!(answer["nimber"], 9_007_199_254_740_991u64);
}

#[test]
fn max_moves_truncates_but_counts_all() {
    let answer = json(&["solve", "--json", "--max-moves", "1", "nim(1, 1, 1, 1, 1)"]);
    assert_eq!(answer["winning_moves"].as_array().unwrap().len(), 1);
    assert_eq!(answer["winning_move_count"], 5);
    assert_eq!(answer["truncated"], true);
}

#[test]
fn human_output_says_who_wins_in_words() {
    let output = grundy(&["solve", "nim(3, 5, 7)"]);
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.contains("first player wins (N-position"), "{text}");
    assert!(
        text.contains("take 1 from the heap of 7  ->  nim(3, 5, 6)"),
        "{text}"
    );
    let output = grundy(&["solve", "nim(1, 2, 3)"]);
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.contains("second player wins (P-position"), "{text}");
}

#[test]
fn syntax_errors_exit_2_with_a_caret() {
    let output = grundy(&["solve", "nim(3,,5)"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr(&output),
        "error: expected a value (an integer, a code, \"text\", @file or [list]), found `,` (column 7)\n  nim(3,,5)\n        ^\n"
    );
}

#[test]
fn bad_names_and_parameters_exit_2_and_say_why() {
    let output = grundy(&["solve", "nmi(3)"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("help: did you mean `nim`?"));
    let output = grundy(&["solve", "bash[0](3)"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output)
            .starts_with("error: the parameter `m` of `bash` must be at least 1, not 0 (column 6)")
    );
    let output = grundy(&["solve", "nim(-3)"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).starts_with("error: a heap size cannot be negative: -3 (column 5)"));
    let output = grundy(&["solve"]);
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn limits_exit_3_and_name_the_flag() {
    let output = grundy(&[
        "solve",
        // Misère Nim is answered by the Anti-SG rule and most heap games by
        // their misère quotient; 0.3122's is infinite, so its sums are searched.
        "misere(octal[0.3122](12, 12, 12, 12))",
        "--max-states",
        "1000",
    ]);
    assert_eq!(output.status.code(), Some(3));
    assert!(
        stderr(&output).contains("--max-states"),
        "{}",
        stderr(&output)
    );
    let output = grundy(&["solve", "--max-digits", "5", "nim(1234567)"]);
    assert_eq!(output.status.code(), Some(3));
    assert!(stderr(&output).contains("--max-digits"));
    // A heap past the values a position may compute: grundy searches for a proven
    // period as far as --max-heap (ten million by default; 10^5 here, as Officers
    // has no period to find), then exits 3 saying so (no misleading --max-states).
    let output = grundy(&[
        "solve",
        "--max-heap",
        "100000",
        "octal[0.6](20000000) + nim(1)",
    ]);
    assert_eq!(output.status.code(), Some(3));
    let message = stderr(&output);
    assert!(
        message.starts_with("error: ")
            && message.contains("first 100001 values")
            && message.contains("only up to heap 100000"),
        "{message}"
    );
    assert!(message.contains("--max-heap N"), "{message}");
    // Grundy's game has no known period: the default limit at once.
    let output = grundy(&["solve", "grundy_game(20000000)"]);
    assert_eq!(output.status.code(), Some(3));
    let message = stderr(&output);
    assert!(
        message.contains("no known period") && message.contains("only up to heap 10000000"),
        "{message}"
    );
    // The flags named raise (or lower) the limits.
    let output = grundy(&["solve", "--max-heap", "5000", "octal[0.6](6000) + nim(1)"]);
    assert_eq!(output.status.code(), Some(3));
    assert!(stderr(&output).contains("up to heap 5000"));
    let output = grundy(&["solve", "--max-work", "1000", "octal[0.9](4200)"]);
    assert_eq!(output.status.code(), Some(3));
    assert!(stderr(&output).contains("--max-work STEPS"));
    let answer = json(&[
        "solve",
        "--json",
        "--max-heap",
        "6000",
        "octal[0.6](6000) + nim(1)",
    ]);
    assert!(answer["nimber"].is_u64(), "{answer}");
    let output = grundy(&["solve", "--max-memory", "lots", "nim(1)"]);
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn positions_from_files_and_standard_input() {
    let dir = std::env::temp_dir().join(format!("grundy-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let heaps = dir.join("heaps.txt");
    std::fs::write(&heaps, "3 5\n# a comment\n7\n").unwrap();
    let answer = json(&["solve", "--json", &format!("nim(@{})", heaps.display())]);
    assert_eq!(answer["position"], "nim(3, 5, 7)");
    std::fs::write(&heaps, "3 5\n7 x8\n").unwrap();
    let output = grundy(&["solve", &format!("nim(@{})", heaps.display())]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("line 2, column 3: `x8` is not a non-negative integer"),
        "{}",
        stderr(&output)
    );

    let mut child = command()
        .args(["solve", "--json", "--file", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"nim(1, 2)\n")
        .unwrap();
    let output = child.wait_with_output().unwrap();
    let answer: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(answer["position"], "nim(1, 2)");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn games_lists_and_explains() {
    let output = grundy(&["games"]);
    let text = String::from_utf8(output.stdout).unwrap();
    for name in ["nim", "bash", "sub", "misere"] {
        assert!(
            text.lines().any(|line| line.starts_with(name)),
            "{name} missing"
        );
    }
    let output = grundy(&["games", "bash"]);
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.contains("syntax: bash[m](n, ...)"));
    let output = grundy(&["games", "bahs"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("did you mean `bash`?"));
}

#[test]
fn every_catalogue_example_solves() {
    let output = grundy(&["games"]);
    let text = String::from_utf8(output.stdout).unwrap();
    for name in text
        .lines()
        .take_while(|l| !l.is_empty())
        .filter_map(|l| l.split_whitespace().next())
    {
        let output = grundy(&["games", name]);
        let page = String::from_utf8(output.stdout).unwrap();
        for example in page
            .lines()
            .filter_map(|l| l.trim().strip_prefix("grundy solve '"))
        {
            let example = example.trim_end_matches('\'');
            let output = grundy(&["solve", "--json", example]);
            assert!(output.status.success(), "{example}: {}", stderr(&output));
        }
    }
}

/// Every listed winning move's `to` solves to P, and the list is complete.
fn assert_winning_moves_reach_p(answer: &Value) {
    let moves = answer["winning_moves"].as_array().unwrap();
    assert_eq!(answer["truncated"], false);
    assert_eq!(answer["winning_move_count"], moves.len());
    for winning in moves {
        let to = winning["to"].as_str().unwrap();
        let next = json(&["solve", "--json", to]);
        assert_eq!(next["outcome"], "P", "{} -> {to}", answer["position"]);
        assert_eq!(next["position"], to, "`to` is canonical");
    }
}

#[test]
fn every_sg_sums_answer_with_whole_moves() {
    let answer = json(&["solve", "--json", "every(nim(1,2)+bash[2](5))"]);
    assert_eq!(answer["position"], "every(nim(1, 2) + bash[2](5))");
    assert_eq!(answer["convention"], "every");
    assert_eq!(answer["outcome"], "N");
    assert_eq!(answer["nimber"], Value::Null);
    assert_eq!(answer["winning_move_count"], 2);
    assert_eq!(
        answer["method"],
        "every-sg suspense numbers, by theory where known"
    );
    assert_eq!(
        answer["winning_moves"][1]["move"],
        "take 1 from the heap of 1; take 1 from the heap of 2; take 2 from the heap of 5"
    );
    assert_eq!(
        answer["winning_moves"][1]["to"],
        "every(nim(0, 1) + bash[2](3))"
    );
    assert_winning_moves_reach_p(&answer);
    for position in [
        "every(staircase(1, 2) + nim(3))",
        "every(sub[1, 3, 4](8, 10) + wythoff(2, 4))",
        "every(nim(0, 4) + sub[2, 3](7))",
    ] {
        let answer = json(&["solve", "--json", position]);
        assert_eq!(answer["outcome"], "N", "{position}");
        assert_winning_moves_reach_p(&answer);
    }
    // 3^40 winning moves: a product, printed as a decimal string.
    let position = format!("every({}bash[2](4))", "nim(3) + ".repeat(40));
    let answer = json(&["solve", "--json", "--max-moves", "2", &position]);
    assert_eq!(answer["winning_move_count"], "12157665459056928801");
    assert_eq!(answer["truncated"], true);
    // The second player wins every(sub[1, 3, 4](7, 9) + wythoff(2, 3)).
    let answer = json(&[
        "solve",
        "--json",
        "every(sub[1, 3, 4](7, 9) + wythoff(2, 3))",
    ]);
    assert_eq!(answer["outcome"], "P");
    assert_eq!(answer["winning_move_count"], 0);
}

#[test]
fn bad_compounds_exit_2_with_a_caret_and_limits_exit_3() {
    for (position, message) in [
        (
            "every()",
            "error: `every(...)` wraps exactly 1 sum of games, found 0 (column 1)",
        ),
        (
            "every(3)",
            "error: `every(...)` wraps a sum of games (column 7)",
        ),
        (
            "nim(1) + every(nim(2))",
            "error: `every(...)` must wrap the whole sum (column 10)",
        ),
        (
            "every(misere(nim(2)))",
            "error: `every(...)` wraps a plain sum of games, not another wrapper (column 7)",
        ),
        (
            "every[2](nim(2))",
            "error: `every` takes no parameters (column 1)",
        ),
        (
            "rounds[0](nim(1))",
            "error: the parameter `k` of `rounds` must be at least 1, not 0 (column 8)",
        ),
        (
            "rounds(nim(1))",
            "error: `rounds` needs the number of rounds k: `rounds[k](SUM)` (column 1)",
        ),
        (
            "rounds[2](nim(1), 4)",
            "error: `rounds(...)` wraps a sum of games (column 19)",
        ),
        (
            "rounds[2](nim(1), nim(1), nim(2))",
            "error: `rounds(...)` wraps 1 or 2 sums of games, found 3 (column 1)",
        ),
        (
            "rounds[2](every(nim(1)))",
            "error: `rounds(...)` wraps a plain sum of games, not another wrapper (column 11)",
        ),
    ] {
        let output = grundy(&["solve", position]);
        assert_eq!(output.status.code(), Some(2), "{position}");
        let text = stderr(&output);
        assert!(text.starts_with(message), "{position}: {text}");
        assert!(text.contains('^'), "{position}: {text}");
    }
    // Kayles' heaps are explored as graphs (Nim's steps come from a formula).
    let output = grundy(&["solve", "--max-states", "50", "every(kayles(100))"]);
    assert_eq!(output.status.code(), Some(3));
    assert!(stderr(&output).contains("--max-states"));
}

#[test]
fn pairs_lists_exact_wythoff_p_positions() {
    let answer = json(&["pairs", "--json", "wythoff", "-n", "10"]);
    let expected: Value = serde_json::from_str(
        r#"{"rule":"wythoff","pairs":[[0,0],[1,2],[3,5],[4,7],[6,10],[8,13],[9,15],[11,18],[12,20],[14,23]]}"#,
    )
    .unwrap();
    assert_eq!(answer, expected);
    // Extended Wythoff, d = 2: B_n = A_n + 3n, A_n the least unused number.
    let answer = json(&["pairs", "--json", "wythoff[2]", "-n", "5"]);
    let expected: Value =
        serde_json::from_str(r#"{"rule":"wythoff[2]","pairs":[[0,0],[1,4],[2,8],[3,12],[5,17]]}"#)
            .unwrap();
    assert_eq!(answer, expected);
    // A huge index: A_n = floor(n phi), B_n = A_n + n, as decimal strings.
    let answer = json(&[
        "pairs",
        "--json",
        "wythoff",
        "-n",
        "1",
        "--from",
        "100000000000000000000",
    ]);
    assert_eq!(
        answer["pairs"][0],
        serde_json::json!(["161803398874989484820", "261803398874989484820"])
    );
    // Each listed pair is a P-position for `solve`, in both orders.
    let answer = json(&["pairs", "--json", "wythoff[1]", "-n", "4", "--from", "7"]);
    for pair in answer["pairs"].as_array().unwrap() {
        for (a, b) in [(&pair[0], &pair[1]), (&pair[1], &pair[0])] {
            let position = format!("wythoff[1]({a}, {b})");
            assert_eq!(json(&["solve", "--json", &position])["outcome"], "P");
        }
    }
    let output = grundy(&["pairs", "wythoff", "-n", "3"]);
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.contains("  n = 2: (3, 5)\n"), "{text}");
}

#[test]
fn pairs_refuses_other_rules_and_huge_indices() {
    let output = grundy(&["pairs", "nim", "-n", "3"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).starts_with(
        "error: `pairs` lists the P-positions of `wythoff` and `wythoff[d]`, not `nim` (column 1)"
    ));
    let output = grundy(&["pairs", "wythoff[e=2]", "-n", "3"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).starts_with("error: `wythoff` has no parameter `e`"));
    let output = grundy(&["pairs", "wythoff", "-n", "3", "--from", "12x"]);
    assert_eq!(output.status.code(), Some(2));
    let huge = format!("1{}", "0".repeat(50_000));
    let output = grundy(&["pairs", "wythoff", "-n", "1", "--from", &huge]);
    assert_eq!(output.status.code(), Some(3));
    assert!(stderr(&output).contains("--from"));
}

#[test]
fn grid_nim_answers_by_the_odd_cells() {
    let answer = json(&["solve", "--json", "grid_nim([0,1],[2,3])"]);
    assert_eq!(answer["position"], "grid_nim([0, 1], [2, 3])");
    assert_eq!(answer["nimber"], 3);
    assert_eq!(answer["winning_move_count"], 2);
    assert_eq!(
        answer["winning_moves"][0]["move"],
        "move 1 counter from cell (2, 1) up to cell (1, 1)"
    );
    assert_eq!(answer["winning_moves"][0]["to"], "grid_nim([1, 1], [1, 3])");
    assert_eq!(answer["method"], "grid nim: nim-sum of the odd cells");
    assert_winning_moves_reach_p(&answer);
    // Heaps of any size, in a sum: 10^20 xor 7 xor 3.
    let answer = json(&[
        "solve",
        "--json",
        "grid_nim([0, 100000000000000000000], [7, 0]) + nim(3)",
    ]);
    assert_eq!(answer["nimber"], "100000000000000000004");
    assert_eq!(answer["winning_move_count"], 1);
    assert_eq!(
        answer["winning_moves"][0]["to"],
        "grid_nim([99999999999999999996, 4], [7, 0]) + nim(3)"
    );
    for position in [
        "grid_nim([1, 2, 3], [4, 5, 6], [7, 8, 9])",
        "misere(grid_nim([1, 1], [1, 0]))",
        "every(grid_nim([1, 2], [0, 1]) + nim(2))",
    ] {
        let answer = json(&["solve", "--json", position]);
        assert_eq!(answer["outcome"], "N", "{position}");
        assert_winning_moves_reach_p(&answer);
    }
    let output = grundy(&["solve", "grid_nim([1, 2], [3])"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).starts_with(
        "error: every row needs the same number of cells: this one has 1, the first 2 (column 18)"
    ));
}

#[test]
fn rounds_matches_answer_who_wins_the_last_round() {
    let answer = json(&["solve", "--json", "rounds[3](nim(1,2)+bash[2](4))"]);
    assert_eq!(answer["position"], "rounds[3](nim(1, 2) + bash[2](4))");
    assert_eq!(answer["convention"], "rounds");
    assert_eq!(answer["outcome"], "N");
    assert_eq!(answer["nimber"], Value::Null);
    // The starter can win a round and lose one: he loses rounds 1 and 2 on
    // purpose (misère play), so the only winning move keeps round 1 lost.
    assert_eq!(answer["winning_move_count"], 1);
    assert_eq!(
        answer["winning_moves"][0]["move"],
        "take 1 from the heap of 2"
    );
    assert_eq!(
        answer["winning_moves"][0]["to"],
        "rounds[3](nim(1, 2) + bash[2](4), nim(1, 1) + bash[2](4))"
    );
    assert_eq!(
        answer["method"],
        "k-round rule: the starter can win a round and can lose one on purpose; \
         this round is played to lose (misère play): anti-sg rule"
    );
    assert_winning_moves_reach_p(&answer);
    // bash[2](4) cannot be lost on purpose: parity of k decides, for any k.
    for (k, outcome) in [
        ("2", "P"),
        ("3", "N"),
        ("1000000000000000000000000000000", "P"),
        ("1000000000000000000000000000001", "N"),
    ] {
        let position = format!("rounds[{k}](bash[2](4))");
        let answer = json(&["solve", "--json", &position]);
        assert_eq!(answer["outcome"], outcome, "{position}");
        assert_winning_moves_reach_p(&answer);
    }
    // A round that ends hands the next round to its loser.
    let answer = json(&["solve", "--json", "rounds[2](nim(2), nim(0))"]);
    assert_eq!(answer["position"], "rounds[1](nim(2))");
    for position in [
        "rounds[4](nim(2, 3), nim(1, 3))",
        "rounds[2](sub[1, 3, 4](9) + nim(2))",
        "rounds[5](sub[1, 3, 4](9) + nim(3))",
    ] {
        let answer = json(&["solve", "--json", position]);
        assert_eq!(answer["outcome"], "N", "{position}");
        assert_winning_moves_reach_p(&answer);
    }
}

#[test]
fn huge_all_but_heaps_answer_from_the_proven_arithmetic_period() {
    // all_but[1, 2]: G(n) = floor(n / 3); 10^50 + 3 has value 3333...334, and the
    // winning moves from it plus nim(5) leave heaps of value 5: 15, 16 and 17.
    let heap = format!("1{}3", "0".repeat(49));
    let answer = json(&["solve", "--json", &format!("all_but[1,2]({heap}) + nim(5)")]);
    let value: num_bigint::BigUint = format!("3{}4", "3".repeat(48)).parse().unwrap();
    let nimber = value ^ num_bigint::BigUint::from(5u32);
    assert_eq!(answer["nimber"], nimber.to_string());
    assert_eq!(answer["winning_move_count"], 3);
    let to: Vec<&str> = answer["winning_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["to"].as_str().unwrap())
        .collect();
    assert_eq!(
        to,
        [
            "all_but[1,2](17) + nim(5)",
            "all_but[1,2](16) + nim(5)",
            "all_but[1,2](15) + nim(5)"
        ]
    );
}

/// The exact count of a huge Lasker's Nim heap's winning moves, checked against
/// a second method (the digit automaton, `lasker_split_count_by_digits`), which
/// the library's tests check against a scan of every split on all heaps up to 300.
#[test]
fn lasker_heaps_of_any_size_answer_with_exact_counts() {
    use grundy::rules::lasker::{lasker_nimber, lasker_split_count_by_digits};
    use num_bigint::BigUint;

    let heap: BigUint = "8".repeat(100).parse().unwrap();
    // A nim heap making the Lasker heap's target (the nimber it must move to, its
    // own nimber xor the position's) the value of its split 12345 + rest.
    let a = BigUint::from(12_345u32);
    let target = lasker_nimber(&a) ^ lasker_nimber(&(&heap - &a));
    let nim_heap = target.clone();
    let position = format!("lasker({heap}) + nim({nim_heap})");
    let answer = json(&["solve", "--json", "--max-moves", "5", &position]);
    assert_eq!(answer["outcome"], "N");
    // The Lasker heap: its splits, and at most one removal; the nim heap: one move
    // if the nim-sum makes it smaller.
    let removal = u32::from(target.bits() > 0 && lasker_nimber(&target) < heap);
    let nim_move = u32::from(lasker_nimber(&heap) < nim_heap);
    let expected = lasker_split_count_by_digits(&heap, &target) + removal + nim_move;
    assert!(expected > BigUint::from(1000u32));
    assert_eq!(answer["winning_move_count"], expected.to_string());
    assert_eq!(answer["truncated"], true);
    let moves = answer["winning_moves"].as_array().unwrap();
    assert_eq!(moves.len(), 5);
    // The removal first (as the rules list moves), then splits by their smaller part.
    let split = format!("split the heap of {heap} into ");
    let splits: Vec<&str> = moves
        .iter()
        .filter_map(|m| m["move"].as_str())
        .filter(|m| m.starts_with(&split))
        .collect();
    assert_eq!(splits.len(), 5 - removal as usize, "{moves:?}");
    for winning in moves {
        let next = json(&["solve", "--json", winning["to"].as_str().unwrap()]);
        assert_eq!(next["outcome"], "P", "{}", winning["to"]);
    }
    // The brief's example: no search, no state limit.
    let answer = json(&["solve", "--json", "lasker(100000000, 3)"]);
    assert_eq!(answer["winning_move_count"], 1);
    assert_eq!(
        answer["winning_moves"][0]["move"],
        "take 99999997 from the heap of 100000000"
    );
}

#[test]
fn rest_nim_counts_up_to_its_limit_and_explains_beyond() {
    let answer = json(&["solve", "--json", "--max-moves", "2", "rest_nim(100, 3)"]);
    assert_eq!(answer["winning_move_count"], 45_919_594);
    assert_eq!(
        answer["winning_moves"][0]["move"],
        "remove 1 from the heap of 100, leaving 48 and 51"
    );
    // Beyond the limit the answer stands, the count is null, and a note says why.
    let answer = json(&["solve", "--json", "rest_nim(2000, 3)"]);
    assert_eq!(answer["nimber"], 2003);
    assert_eq!(answer["winning_move_count"], serde_json::Value::Null);
    let note = answer["notes"][0].as_str().unwrap();
    assert!(note.contains("no flag raises it"), "{note}");
    let output = grundy(&["solve", "rest_nim(2000, 3)"]);
    assert_eq!(output.status.code(), Some(0));
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        text.contains("winning moves: not counted (see the notes)"),
        "{text}"
    );
}

#[test]
fn huge_heaps_of_three_heap_codes_count_their_splits() {
    // 0.28 is proven arithmetic-periodic (saltus 16) and 0.B periodic: the three-heap
    // splits of a 61-digit heap are counted from the period, and every move listed
    // leads to a position the opponent loses.
    let heap = format!("1{}7", "0".repeat(59));
    for position in [
        format!("octal[0.28]({heap}, 5)"),
        format!("octal[0.B]({heap}) + nim(3)"),
        format!("octal[0.8]({heap}) + nim(3)"),
        // 0.16's period (149459, from heap 105351) is searched for as far as it takes.
        format!("octal[0.16]({heap}, 1)"),
        // Proven by the automaton test only: values pass the saltus from the start.
        format!("octal[0.FB]({heap}) + nim(5)"),
        format!("octal[0.9C]({heap}, 3)"),
        // Saltus 3, not a power of two: counted by the product equations.
        format!("octal[0.3F]({heap}) + nim(5)"),
        format!("octal[0.3F]({heap})"),
    ] {
        let answer = json(&["solve", "--json", "--max-moves", "4", &position]);
        assert_eq!(answer["outcome"], "N", "{position}");
        let moves = answer["winning_moves"].as_array().expect("moves");
        assert!(!moves.is_empty(), "{position}");
        for winning in moves {
            let to = winning["to"].as_str().expect("to");
            let next = json(&["solve", "--json", to]);
            assert_eq!(next["outcome"], "P", "{position} -> {to}");
        }
    }
    // 0.28's count is a decimal string above 2^53.
    let answer = json(&["solve", "--json", &format!("octal[0.28]({heap}, 5)")]);
    assert!(
        answer["winning_move_count"]
            .as_str()
            .is_some_and(|c| c.len() > 40),
        "{answer}"
    );
    // Two equal heaps: a P-position, answered in full.
    let answer = json(&["solve", "--json", &format!("octal[0.28]({heap}, {heap})")]);
    assert_eq!(answer["outcome"], "P");
    assert_eq!(answer["winning_move_count"], 0);
}
