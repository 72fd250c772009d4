//! `grundy quotient [--json] RULE [-n N]`: the misère quotient of a heap game
//! (Plambeck-Siegel) for heaps `<= N`, with its presentation, P-portion and
//! heap map, and whether a periodicity theorem proves it for every heap.

use std::io::{self, BufWriter, IsTerminal, Write};
use std::time::Duration;

use grundy::quotient::QuotientLimits;
use grundy::theory::cancel::Cancel;
use grundy::workflow::Limits;
use grundy::workflow::quotient::{self, Request, Watcher};

use crate::failure::{Door, Failure, print_error};
use crate::limits::ComputeLimits;
use crate::progress::DelayedBar;

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

/// The note before a construction until proven, on a terminal, and the heaps
/// added as a progress bar.
struct Bar(DelayedBar);

impl Watcher for Bar {
    // A construction until proven may take minutes: on a terminal, it says what
    // it computes.
    fn start(&mut self, rule: &str, last_heap: u64, until_proven: bool) {
        if until_proven && io::stderr().is_terminal() {
            print_error(&format!(
                "note: computing the misère quotient of {rule} heap by heap until a \
                 periodicity theorem proves it for every heap (up to heap {last_heap}; -n N \
                 computes heaps 0..=N only)"
            ));
        }
    }

    fn progress(&mut self, heap: u64, last_heap: u64, order: usize) {
        self.0.update(heap, last_heap, &order.to_string());
    }
}

/// Runs `grundy quotient` through the library's workflow
/// ([`grundy::workflow::quotient`]), which stops the construction a little
/// before `max_time`, so that the orders computed are still reported.
pub fn run(args: &Args, max_time: Option<Duration>) -> Result<(), Failure> {
    let request = Request {
        rule: args.rule.clone(),
        last_heap: args.last_heap,
        max_order: args.max_order,
    };
    let limits = Limits {
        bytes: args.budget.max_memory,
        time: max_time,
        ..Limits::default()
    };
    let mut bar = Bar(DelayedBar::new(
        "{bar:40} heap {pos}/{len}, order {msg}, {elapsed} (Ctrl-C stops it)",
    ));
    // Ctrl-C stops the construction as the time limit does: the orders computed
    // are reported, and the exit code is 130.
    let signal = Cancel::new();
    crate::interrupt::cancel_on_ctrl_c(&signal);
    let built = signal.run(|| quotient::run(&request, &limits, Door::CommandLine, &mut bar));
    drop(bar);
    let quotient = match built {
        Ok(quotient) => quotient,
        Err(failure) if crate::interrupt::requested() => {
            print_error(&failure.message());
            return Err(Failure::Reported(crate::interrupt::EXIT_CODE));
        }
        Err(failure) => return Err(failure),
    };
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 20, stdout.lock());
    if args.json {
        quotient.write_json(&mut out)?;
    } else {
        quotient.write_text(&mut out)?;
    }
    out.flush()?;
    Ok(())
}
