use super::*;
use crate::sequence::grundy_values;

/// The limits of the tests: `bytes` of memory, 3·10^8 steps.
fn limits(bytes: u64) -> Limits {
    Limits {
        bytes,
        work: 3 * 10u64.pow(8),
        ..Limits::default()
    }
}

fn values(rule: &str, last: usize, bytes: u64) -> Result<Sequence, Failure> {
    match run(
        &Request::new(rule, last),
        &limits(bytes),
        Door::Python,
        &mut Quiet,
    )? {
        Answer::Values(sequence) => Ok(sequence),
        Answer::Genera(_) => panic!("genera of {rule}"),
    }
}

#[test]
fn the_values_are_those_of_the_plain_computation() {
    for rule in [
        "kayles",
        "dawson_kayles",
        "octal[0.8]",
        "sub[1, 3, 4]",
        "nim",
    ] {
        let found = values(rule, 3000, 1 << 30).unwrap();
        let plain = grundy_values(&parse_rule(rule).unwrap().0, 3000);
        assert_eq!(found.values.to_vec()[..3001], plain.to_vec()[..], "{rule}");
        assert!(found.proven(), "{rule}");
        assert_eq!(found.finish, Finish::Complete);
    }
}

#[test]
fn a_range_past_the_budget_is_refused_by_estimate_naming_the_setting() {
    let Err(Failure::Limit { message, raised_by }) = values("octal[0.9]", 100_000, 1 << 30) else {
        panic!("0.9 to 10^5 was computed");
    };
    assert_eq!(raised_by, Some(Limit::Work));
    assert!(
        message.ends_with("raise it with max_work=STEPS"),
        "{message}"
    );
}

#[test]
fn a_heap_beyond_32_bits_is_refused_in_the_words_of_the_door() {
    let failure = allowed_last_heap(1 << 33, Door::CommandLine).unwrap_err();
    assert!(
        failure
            .message()
            .ends_with("no flag raises this: ask for at most -n 4294967294"),
        "{}",
        failure.message()
    );
    let failure = allowed_last_heap(1 << 33, Door::Python).unwrap_err();
    assert!(failure.message().ends_with("ask for at most n=4294967294"));
    assert_eq!(allowed_last_heap(5, Door::Python).unwrap(), 5);
}

#[test]
fn a_cancelled_computation_keeps_its_values() {
    let deadline = std::time::Instant::now() + std::time::Duration::from_millis(200);
    let cancel = crate::theory::cancel::Cancel::with_deadline(deadline);
    // 2^26 values of Officers take about a minute.
    let found = cancel
        .run(|| values("octal[0.6]", 1 << 26, 1 << 30))
        .unwrap();
    assert_eq!(found.finish, Finish::Partial);
    let kept = found.values.len();
    assert!(kept > 1024 && kept < 1 << 26, "{kept}");
    let plain = grundy_values(&parse_rule("octal[0.6]").unwrap().0, kept - 1);
    assert_eq!(found.values.to_vec(), plain.to_vec());
}

#[test]
fn the_json_value_is_the_json_text() {
    for rule in ["kayles", "octal[0.6]"] {
        let found = values(rule, 40, 1 << 30).unwrap();
        let mut text = Vec::new();
        found.write_json(&mut text).unwrap();
        let parsed: serde_json::Value = serde_json::from_slice(&text).unwrap();
        assert_eq!(parsed, found.json(), "{rule}");
    }
}
