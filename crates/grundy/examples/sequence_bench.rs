//! Times the Grundy-sequence engine on one rule.
//!
//! ```text
//! cargo run --release -p grundy --example sequence_bench -- CODE N [plain] [--print] [--kernel K]
//! ```
//! `CODE` is an octal or hexadecimal code (`0.6`), `4!.0` or `grundy` for Grundy's game.
//! Prints the time, values per second, the engine's counters and the periodicity found;
//! `--print` prints the values instead, one per line (to compare with other programs);
//! `--kernel K` computes with the kernel `K` (`scalar`, `avx2`, `avx512`; default `auto`).

use std::time::Instant;

use grundy::rules::HeapRule;
use grundy::sequence::{Kernel, Method, SequenceSolver, find_periodicity};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 2 {
        eprintln!("usage: sequence_bench CODE N [plain] [--print]");
        std::process::exit(2);
    }
    let rule = match args[0].as_str() {
        "grundy" => HeapRule::GrundysGame,
        code => HeapRule::octal(code).unwrap_or_else(|e| {
            eprintln!("error: {e}");
            std::process::exit(2)
        }),
    };
    let last: usize = args[1].parse().unwrap_or_else(|_| {
        eprintln!("error: N must be a number");
        std::process::exit(2)
    });
    let method = if args.iter().any(|a| a == "plain") {
        Method::PlainMex
    } else {
        Method::SparseSpace
    };
    let kernel = match args.iter().position(|a| a == "--kernel") {
        Some(at) => {
            let name = args.get(at + 1).map_or("", String::as_str);
            Kernel::named(name).unwrap_or_else(|e| {
                eprintln!("error: --kernel {name}: {e}");
                std::process::exit(2)
            })
        }
        None => Kernel::auto(),
    };
    let mut solver = SequenceSolver::new(rule.clone(), method).with_kernel(kernel);
    let start = Instant::now();
    solver.extend_to(last);
    let seconds = start.elapsed().as_secs_f64();
    if args.iter().any(|a| a == "--print") {
        let mut out = String::new();
        for v in solver.values().iter() {
            out.push_str(&v.to_string());
            out.push('\n');
        }
        print!("{out}");
        return;
    }
    let values = solver.values();
    println!(
        "rule {rule}, method {method:?}, kernel {kernel}: {} values in {seconds:.3} s",
        values.len()
    );
    println!(
        "  {:.0} values/s, largest value {}",
        values.len() as f64 / seconds,
        values.max_value()
    );
    println!("  {:?}", solver.stats());
    match find_periodicity(&rule, values) {
        Some(p) => println!(
            "  period {} preperiod {} saltus {} proven {}",
            p.period,
            p.preperiod,
            p.saltus,
            p.proven()
        ),
        None => println!("  no period found"),
    }
}
