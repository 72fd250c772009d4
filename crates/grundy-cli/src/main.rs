//! The `grundy` command-line tool: a thin layer over the `grundy` library that
//! parses arguments, calls the library and decides how answers and errors look.
//!
//! Exit codes follow the command-line contract: 0 answered, 2 bad input,
//! 3 a limit reached; and 4 for an answer that could not be written (a full
//! disk, an input/output error), 130 for Ctrl-C.

mod commands;
mod deadline;
mod failure;
mod interrupt;
mod limits;
mod progress;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::failure::Told;

/// Solve impartial combinatorial games: who wins, the nimber, every winning move.
#[derive(Debug, Parser)]
#[command(name = "grundy", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Stop any command after SECONDS (a decimal number) with exit 3, as a last
    /// resort: searches are bounded by their own limits (--max-states, --max-work,
    /// --max-memory, --max-heap) first. Output already written stays written.
    #[arg(long, global = true, value_name = "SECONDS", value_parser = deadline::parse_seconds)]
    max_time: Option<std::time::Duration>,
    /// Where the text scripts print (`print`, `debug`) goes: `all` to standard
    /// error (the default, but for `serve`), `bounded` (at most 100 lines a
    /// second, 300 characters a line), or `none` (the default of `serve`).
    /// Control characters are always written as escapes.
    #[arg(long, global = true, value_name = "MODE")]
    script_output: Option<ScriptOutputArg>,
}

/// The values of `--script-output`.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum ScriptOutputArg {
    All,
    Bounded,
    None,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Answer a position (or each line of a file): who wins, its nimber, the winning moves.
    Solve(commands::solve::Args),
    /// List the games grundy knows, or show one game's rules and syntax.
    Games(commands::games::Args),
    /// The Grundy values of heaps 0..=N of a heap game, with its period.
    Seq(commands::seq::Args),
    /// Tabulate nimbers or outcomes over one or two varying integers, find the
    /// patterns in them, and plot them (`grundy table 'wythoff(x, y)' x=0..40 y=0..40`).
    Table(commands::table::Args),
    /// List the P-positions of Wythoff's game or extended Wythoff `wythoff[d]`.
    Pairs(commands::pairs::Args),
    /// The misère quotient of a heap game (Plambeck-Siegel): its order,
    /// presentation, P-portion and heap map, proven for every heap when periodic.
    Quotient(commands::quotient::Args),
    /// The web playground: play any position against the engine, see every
    /// move's nimber, plot sequences and tables (`grundy serve --port 8080`,
    /// then open http://127.0.0.1:8080).
    #[cfg(feature = "serve")]
    Serve(commands::serve::Args),
    /// The web playground, left out of this build (the `serve` feature).
    #[cfg(not(feature = "serve"))]
    #[command(hide = true, disable_help_flag = true)]
    Serve {
        /// Whatever was given, refused as a whole.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Print a completion script for a shell, e.g.
    /// `grundy completions bash > ~/.local/share/bash-completion/completions/grundy`.
    Completions(commands::completions::Args),
}

fn main() -> ExitCode {
    // A bug must still look like an error, not a backtrace; and the hook must
    // not panic itself (a second panic aborts), so it writes without failing.
    std::panic::set_hook(Box::new(failure::report_panic));
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => return clap_exit(&error),
    };
    // `quotient` bounds its construction by `--max-time` itself, and reports
    // what it computed.
    let own_deadline = matches!(cli.command, Command::Quotient(_));
    let signal = cli.max_time.filter(|_| !own_deadline).map(deadline::signal);
    #[cfg(feature = "script")]
    {
        use grundy::games::script::{ScriptOutput, set_output};
        // A server prints its clients' scripts nowhere unless asked.
        let serving = matches!(cli.command, Command::Serve { .. });
        set_output(match cli.script_output {
            Some(ScriptOutputArg::All) => ScriptOutput::StandardError,
            Some(ScriptOutputArg::Bounded) => ScriptOutput::Bounded,
            Some(ScriptOutputArg::None) => ScriptOutput::Discarded,
            None if serving => ScriptOutput::Discarded,
            None => ScriptOutput::StandardError,
        });
    }
    let max_time = cli.max_time;
    let command = || {
        match cli.command {
        Command::Solve(args) => commands::solve::run(&args),
        Command::Games(args) => commands::games::run(&args),
        Command::Seq(args) => commands::seq::run(&args),
        Command::Table(args) => commands::table::run(&args),
        Command::Pairs(args) => commands::pairs::run(&args),
        Command::Quotient(args) => commands::quotient::run(&args, max_time),
        #[cfg(feature = "serve")]
        Command::Serve(args) => commands::serve::run(&args),
        #[cfg(not(feature = "serve"))]
        Command::Serve { .. } => Err(failure::Failure::input(
            "error: `grundy serve` needs the `serve` feature, and this grundy was built without it: build it with `--features serve` (on by default)".to_owned(),
        )),
        Command::Completions(args) => commands::completions::run(&args),
    }
    };
    let result = match &signal {
        Some(signal) => signal.run(command),
        None => command(),
    };
    // Work stopped by the time limit fails its own way (a search cancelled, a
    // cell stopped): the command's error is the time limit's.
    let result = match (result, &signal, max_time) {
        (Err(failure), Some(signal), Some(limit)) if signal.is_cancelled() => {
            // What the command noted (a checkpoint saved) stays said.
            let message = failure.message();
            let notes: Vec<&str> = message
                .lines()
                .filter(|line| line.starts_with("note: "))
                .collect();
            Err(deadline::out_of_time(limit).reworded(|text| {
                std::iter::once(text.as_str())
                    .chain(notes.iter().copied())
                    .collect::<Vec<_>>()
                    .join("\n")
            }))
        }
        (result, ..) => result,
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => failure.report(),
    }
}

/// What clap's own answer exits with: `--help` and `--version` are answers
/// (exit 0), and exit 4 when they cannot be written (a closed pipe is no
/// error, as for every answer); usage errors are exit 2, printed whether or
/// not standard error can take them.
fn clap_exit(error: &clap::Error) -> ExitCode {
    let code = error.exit_code();
    if code != 0 {
        let _ = error.print();
        return ExitCode::from(u8::try_from(code).unwrap_or(2));
    }
    let written = error.print().and_then(|()| io::stdout().flush());
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => failure::Failure::Output(error).report(),
    }
}
