//! `grundy quotient [--json] RULE [-n N]`: the misère quotient of a heap game
//! (Plambeck-Siegel) for heaps `<= N`, with its presentation, P-portion and
//! heap map, and whether a periodicity theorem proves it for every heap.

use std::io::{self, BufWriter, IsTerminal, Write};

use grundy::catalogue::parse_rule;
use grundy::quotient::{self, MAX_HEAP, MisereQuotient, QuotientError, QuotientLimits, report};
use grundy::theory::cancel::Cancel;
use grundy::theory::limits::SearchError;

use crate::failure::{Door, Failure};
use crate::limits::ComputeLimits;
use crate::progress::DelayedBar;

/// Heaps computed without -n: until the quotient is proven, up to this heap.
const DEFAULT_REACH: u64 = 1000;

/// Arguments of `grundy quotient`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The heap game, without heaps: `octal[0.75]`, `kayles`, `sub[1, 3]`, ...
    rule: String,
    /// The last heap: the quotient of heaps 0..=N. Without it, heaps are added
    /// until a periodicity theorem proves the quotient for every heap (at most 1000).
    #[arg(short = 'n', value_name = "N")]
    last_heap: Option<u64>,
    /// Print one JSON object, with the whole multiplication table.
    #[arg(long)]
    json: bool,
    /// The largest quotient computed (number of elements).
    #[arg(long, value_name = "N", default_value_t = QuotientLimits::default().max_order)]
    max_order: usize,
    #[command(flatten)]
    budget: ComputeLimits,
}

/// The exit-3 message of a quotient that could not be built.
pub fn limit_message(error: &QuotientError, max_order: usize) -> String {
    let orders: Vec<String> = error.orders.iter().map(ToString::to_string).collect();
    let reason = match &error.error {
        SearchError::MemoryLimit { limit } => format!(
            "its automata reached the memory limit of {limit} bytes; raise it with --max-memory BYTES"
        ),
        SearchError::StateLimit { .. } => format!(
            "no candidate of at most {max_order} elements passed the check: the quotient may be \
             infinite, larger (raise --max-order N), or beyond what recalibration finds"
        ),
        SearchError::Cancelled if crate::interrupt::requested() => {
            "it was interrupted (Ctrl-C)".to_owned()
        }
        SearchError::Cancelled => "it was stopped by the time limit (--max-time)".to_owned(),
        other => other.to_string(),
    };
    format!(
        "error: the misère quotient could not be extended to heap {}: {reason}\n\
         the orders of the quotients for heaps <= k, k = 0..{}: {}",
        error.heap,
        error.heap.saturating_sub(1),
        orders.join(", ")
    )
}

/// Runs `grundy quotient`. Under `--max-time` the construction stops a little
/// before the watchdog, so that the orders computed are still reported.
pub fn run(args: &Args, max_time: Option<std::time::Duration>) -> Result<(), Failure> {
    let (rule, rule_text) =
        parse_rule(&args.rule).map_err(|e| Failure::language(&e, &args.rule, Door::CommandLine))?;
    if let Some(n) = args.last_heap.filter(|&n| n > MAX_HEAP) {
        return Err(Failure::limit(format!(
            "error: quotients are built for heaps up to {MAX_HEAP}, not {n}; no flag raises this"
        )));
    }
    if args.budget.max_memory == 0 || args.max_order == 0 {
        return Err(Failure::limit(
            "error: a limit of 0 allows nothing; raise --max-memory or --max-order".to_owned(),
        ));
    }
    let limits = QuotientLimits {
        max_bytes: args.budget.max_memory,
        max_order: args.max_order,
        max_work: u64::MAX,
    };
    let (heaps, until_proven) = match args.last_heap {
        Some(n) => (n, false),
        None => (DEFAULT_REACH, true),
    };
    // A construction until proven may take minutes: on a terminal, it says what
    // it computes and shows the heaps added.
    if until_proven && io::stderr().is_terminal() {
        crate::failure::print_error(&format!(
            "note: computing the misère quotient of {rule_text} heap by heap until a \
             periodicity theorem proves it for every heap (up to heap {heaps}; -n N \
             computes heaps 0..=N only)"
        ));
    }
    let mut bar =
        DelayedBar::new("{bar:40} heap {pos}/{len}, order {msg}, {elapsed} (Ctrl-C stops it)");
    let build = || {
        quotient::compute_reporting(&rule, heaps, until_proven, limits, &mut |heap, order| {
            bar.update(heap, heaps, &order.to_string());
        })
    };
    let signal = match max_time {
        Some(limit) => {
            let margin = (limit / 10).min(std::time::Duration::from_secs(2));
            let deadline = std::time::Instant::now() + (limit - margin);
            Cancel::with_deadline(deadline)
        }
        None => Cancel::new(),
    };
    // Ctrl-C stops the construction as the time limit does: the orders computed
    // are reported, and the exit code is 130.
    crate::interrupt::cancel_on_ctrl_c(&signal);
    let built = signal.run(build);
    drop(bar);
    let quotient = match built {
        Ok(quotient) => quotient,
        Err(error) if crate::interrupt::requested() => {
            crate::failure::print_error(&limit_message(&error, args.max_order));
            return Err(Failure::Reported(crate::interrupt::EXIT_CODE));
        }
        Err(error) => return Err(Failure::limit(limit_message(&error, args.max_order))),
    };
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 20, stdout.lock());
    if args.json {
        serde_json::to_writer(&mut out, &report::to_json(&quotient, &rule_text))
            .map_err(io::Error::from)?;
        writeln!(out)?;
    } else {
        write_text(&mut out, &quotient, &rule_text)?;
    }
    out.flush()?;
    Ok(())
}

fn write_text(out: &mut impl Write, quotient: &MisereQuotient, rule: &str) -> io::Result<()> {
    let presentation = quotient.presentation();
    let (_, proof) = report::proof_text(quotient);
    let p_portion: Vec<String> = quotient
        .p_portion()
        .iter()
        .map(|&e| presentation.element(e))
        .collect();
    writeln!(
        out,
        "misère quotient of {rule}, heaps 0..={}: order {}, P-portion of {} elements",
        quotient.heaps(),
        quotient.order(),
        p_portion.len()
    )?;
    writeln!(out, "{proof}")?;
    let generators: Vec<String> = presentation
        .generators
        .iter()
        .map(|(name, heap, _)| format!("{name} = heap {heap}"))
        .collect();
    writeln!(out, "generators: {}", generators.join(", "))?;
    let relations = presentation.relation_texts();
    writeln!(
        out,
        "relations: {}",
        if relations.is_empty() {
            "none".to_owned()
        } else {
            relations.join(", ")
        }
    )?;
    writeln!(
        out,
        "P-portion (misère P-positions, second player wins): {}",
        p_portion.join(", ")
    )?;
    writeln!(out, "heap map (the element of each heap):")?;
    for (heap, &element) in quotient.heap_map().iter().enumerate() {
        writeln!(out, "  {heap}: {}", presentation.element(element))?;
    }
    let orders: Vec<String> = quotient.orders().iter().map(ToString::to_string).collect();
    writeln!(
        out,
        "orders of the quotients for heaps <= k, k = 0..={}: {}",
        quotient.heaps(),
        orders.join(", ")
    )?;
    Ok(())
}
