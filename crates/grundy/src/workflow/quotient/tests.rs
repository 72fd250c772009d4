use super::*;

/// The message of a limit's failure and the budget that raises it.
fn limit_of<T: std::fmt::Debug>(result: Result<T, Failure>) -> (String, Option<Limit>) {
    match result {
        Err(Failure::Limit { message, raised_by }) => (message, raised_by),
        other => panic!("not a limit: {other:?}"),
    }
}

fn limits(bytes: u64) -> Limits {
    Limits {
        bytes,
        ..Limits::default()
    }
}

/// Dawson's Kayles (0.07): its partial quotients pass 20 elements by heap 24
/// (|Q_24| = 24, Plambeck and Siegel 2008), so a quotient of at most 20 stops
/// there, naming `--max-order N` or `max_order=N`, with the orders it built:
/// those of the quotients of fewer heaps.
#[test]
fn the_order_limit_names_its_setting_in_each_door_with_the_orders_built() {
    let request = Request {
        max_order: 20,
        ..Request::new("octal[0.07]", Some(30))
    };
    for (door, setting) in [
        (Door::CommandLine, "(raise --max-order N)"),
        (Door::Python, "(raise max_order=N)"),
    ] {
        let (message, raised_by) = limit_of(run(&request, &Limits::default(), door, &mut Quiet));
        assert_eq!(raised_by, Some(Limit::Order));
        let heap: u64 = message
            .strip_prefix("error: the misère quotient could not be extended to heap ")
            .and_then(|rest| rest.split_once(':'))
            .and_then(|(heap, _)| heap.parse().ok())
            .unwrap_or_else(|| panic!("{message}"));
        assert!(heap <= 24, "{message}");
        assert!(
            message.contains("no candidate of at most 20 elements passed the check"),
            "{message}"
        );
        assert!(message.contains(setting), "{message}");
        let below = run(
            &Request::new("octal[0.07]", Some(heap - 1)),
            &Limits::default(),
            door,
            &mut Quiet,
        )
        .unwrap();
        assert!(
            message.ends_with(&format!(
                "\nthe orders of the quotients for heaps <= k, k = 0..{}: {}",
                heap - 1,
                orders_text(below.quotient.orders())
            )),
            "{message}"
        );
    }
}

#[test]
fn the_memory_limit_names_its_setting_in_each_door() {
    for (door, setting) in [
        (Door::CommandLine, "raise it with --max-memory BYTES"),
        (Door::Python, "raise it with max_memory=BYTES"),
    ] {
        let built = run(
            &Request::new("octal[0.07]", None),
            &limits(4096),
            door,
            &mut Quiet,
        );
        let (message, raised_by) = limit_of(built);
        assert_eq!(raised_by, Some(Limit::Memory));
        assert!(
            message.contains("its automata reached the memory limit of 4096 bytes"),
            "{message}"
        );
        assert!(message.contains(setting), "{message}");
        let genera = genera(
            &HeapRule::octal("0.07").unwrap(),
            "octal[0.07]",
            30,
            &limits(4096),
            door,
        );
        let (message, raised_by) = limit_of(genera);
        assert_eq!(raised_by, Some(Limit::Memory));
        assert!(
            message.starts_with(
                "error: the genera of octal[0.07] up to heap 30 are out of reach: the misère \
                 quotient they are read from reached the memory limit of 4096 bytes"
            ),
            "{message}"
        );
        assert!(message.ends_with(setting), "{message}");
    }
}

/// A construction stopped by its own time limit names `--max-time` or
/// `max_time`; one stopped by its caller's signal is Ctrl-C's. Both are the
/// time's budget, which tells a front end the work was cancelled.
#[test]
fn a_stop_is_the_time_limit_or_the_callers() {
    // Dawson's Kayles until proven runs for minutes.
    let request = Request::new("octal[0.07]", None);
    for (door, setting) in [
        (Door::CommandLine, "(--max-time)"),
        (Door::Python, "(max_time)"),
    ] {
        let timed = Limits {
            time: Some(Duration::ZERO),
            ..Limits::default()
        };
        let (message, raised_by) = limit_of(run(&request, &timed, door, &mut Quiet));
        assert_eq!(raised_by, Some(Limit::Time));
        assert!(
            message.contains(&format!("it was stopped by the time limit {setting}")),
            "{message}"
        );
        let caller = Cancel::new();
        caller.cancel();
        let stopped = caller.run(|| run(&request, &Limits::default(), door, &mut Quiet));
        let (message, raised_by) = limit_of(stopped);
        assert_eq!(raised_by, Some(Limit::Time));
        assert!(message.contains("it was interrupted (Ctrl-C)"), "{message}");
        assert!(
            message.contains("the orders of the quotients for heaps <= k"),
            "{message}"
        );
    }
}

#[test]
fn what_no_setting_raises_says_so_and_a_zero_limit_names_both_settings() {
    let far = Request::new("kayles", Some(MAX_HEAP + 1));
    for (door, nothing, settings) in [
        (
            Door::CommandLine,
            "no flag raises this",
            "raise --max-memory or --max-order",
        ),
        (
            Door::Python,
            "nothing raises this",
            "raise max_memory or max_order",
        ),
    ] {
        let (message, raised_by) = limit_of(check(&far, &Limits::default(), door));
        assert_eq!(
            message,
            format!("error: quotients are built for heaps up to {MAX_HEAP}, not 100001; {nothing}")
        );
        assert_eq!(raised_by, None);
        let kayles = HeapRule::octal("0.77").unwrap();
        let (message, _) = limit_of(genera(
            &kayles,
            "kayles",
            MAX_HEAP + 1,
            &Limits::default(),
            door,
        ));
        assert!(message.starts_with("error: genera are computed for heaps up to"));
        assert!(message.ends_with(nothing), "{message}");
        let none = Request {
            max_order: 0,
            ..Request::new("kayles", Some(5))
        };
        let (message, _) = limit_of(run(&none, &Limits::default(), door, &mut Quiet));
        assert!(message.ends_with(settings), "{message}");
        let (message, _) = limit_of(check(&Request::new("kayles", None), &limits(0), door));
        assert!(message.ends_with(settings), "{message}");
    }
}

/// The genera of 0.75 are read from a quotient that is not found within the
/// default order: nothing raises that (`seq` has no `--max-order`).
#[test]
fn genera_out_of_reach_name_no_order_setting() {
    let rule = HeapRule::octal("0.75").unwrap();
    let found = genera(&rule, "octal[0.75]", 8, &Limits::default(), Door::Python);
    let (message, raised_by) = limit_of(found);
    assert_eq!(raised_by, None);
    let beyond = QuotientError {
        error: SearchError::StateLimit { limit: 1 << 12 },
        heap: 8,
        orders: Vec::new(),
    };
    let genera = Built::Genera {
        rule: "octal[0.75]",
        heaps: 8,
        max_order: QuotientLimits::default().max_order,
    };
    assert_eq!(
        message,
        limit_of::<()>(Err(stopped(&beyond, genera, &Cancel::new(), Door::Python))).0
    );
    for (door, nothing) in [
        (Door::CommandLine, "no flag of `seq` raises this"),
        (Door::Python, "nothing raises this"),
    ] {
        let (message, _) = limit_of::<()>(Err(stopped(&beyond, genera, &Cancel::new(), door)));
        assert!(
            message.starts_with("error: the genera of octal[0.75] up to heap 8 are out of reach"),
            "{message}"
        );
        assert!(message.ends_with(nothing), "{message}");
        assert!(
            !message.contains("max-order") && !message.contains("max_order"),
            "{message}"
        );
    }
}

/// Plambeck's 0.75: the quotient R8 of order 8, P-portion {a, b^2}, proven
/// for every heap; its text and its JSON are the library's report.
#[test]
fn the_quotient_of_0_75_and_its_reports() {
    let mut heaps = Vec::new();
    struct Heaps<'a>(&'a mut Vec<(u64, u64, usize)>);
    impl Watcher for Heaps<'_> {
        fn progress(&mut self, heap: u64, last_heap: u64, order: usize) {
            self.0.push((heap, last_heap, order));
        }
    }
    let found = run(
        &Request::new("octal[0.75]", None),
        &Limits::default(),
        Door::CommandLine,
        &mut Heaps(&mut heaps),
    )
    .unwrap();
    let quotient = &found.quotient;
    assert_eq!((quotient.order(), found.rule.as_str()), (8, "octal[0.75]"));
    assert_eq!(heaps.len() as u64, quotient.heaps());
    assert!(heaps.iter().all(|&(_, last, _)| last == UNTIL_PROVEN_REACH));
    assert_eq!(heaps.last().map(|&(_, _, order)| order), Some(8));
    assert_eq!(found.json(), report::to_json(quotient, "octal[0.75]"));
    let mut json = Vec::new();
    found.write_json(&mut json).unwrap();
    assert_eq!(
        String::from_utf8(json).unwrap(),
        format!("{}\n", found.json())
    );
    let mut text = Vec::new();
    found.write_text(&mut text).unwrap();
    let text = String::from_utf8(text).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        format!(
            "misère quotient of octal[0.75], heaps 0..={}: order 8, P-portion of 2 elements",
            quotient.heaps()
        )
    );
    assert_eq!(lines[1], report::proof_text(quotient).1);
    assert!(lines[3].starts_with("relations: a^2 = 1"), "{text}");
    assert_eq!(
        lines[4],
        "P-portion (misère P-positions, second player wins): a, b^2"
    );
    assert_eq!(lines.len() as u64, 7 + quotient.heaps() + 1);
}
