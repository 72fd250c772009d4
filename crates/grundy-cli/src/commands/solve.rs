//! `grundy solve [--json] EXPR`: answer one position; `grundy solve --file F`:
//! answer each line of a file as its own position.

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use grundy::catalogue::{Catalogue, build_with};
use grundy::lang::{Sum, parse_with_limits};
use grundy::sums::analysis::{Answer, ProgressHook, SearchProgress, SolveOptions, solve};
use grundy::sums::position::Position;
use grundy::sums::report::{compact_moves, write_answer_json};
use grundy::theory::checkpoint::{Checkpoint, DEFAULT_EVERY};
use grundy::theory::game::Outcome;
use grundy::theory::limits::SearchError;
use grundy::theory::loopy::LoopyValue;
use indicatif::{ProgressBar, ProgressStyle};
use num_bigint::BigUint;

use crate::failure::{Door, Failure, Told, print_error};
use crate::limits::{SearchLimits, Threads};

/// Arguments of `grundy solve`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The position, e.g. `nim(3, 5, 7)` or `misere(bash[3](4) + nim(2))`.
    #[arg(required_unless_present = "file", conflicts_with = "file")]
    expression: Option<String>,
    /// Words after the position: a position typed unquoted (`nim 3 5 7`), refused
    /// with the quoted form as a hint.
    #[arg(hide = true)]
    more_words: Vec<String>,
    /// Answer each line of FILE as its own position (`-` for standard input).
    ///
    /// Blank lines and lines starting with `#` are skipped. Answers come in the
    /// order of the lines, separated by a blank line (with --json: one JSON
    /// object a line). A bad line prints `error: line N: ...` on standard error
    /// and the other lines are still answered; the exit code is then the worst
    /// one met (3 if a line reached a limit, else 2), 0 when every line was
    /// answered.
    #[arg(short, long, value_name = "FILE")]
    file: Option<String>,
    /// Print one JSON object (the contract's format); with --file, one a line.
    #[arg(long)]
    json: bool,
    /// List at most N winning moves (all are counted).
    #[arg(long, value_name = "N", default_value_t = 100)]
    max_moves: usize,
    #[command(flatten)]
    threads: Threads,
    #[command(flatten)]
    limits: SearchLimits,
    /// With --json, give every winning move's `to` whole, however long the
    /// position. By default a position longer than 10000 bytes gets the compact
    /// form instead: `"to": null` and the changed component alone
    /// (`term`, `component`, `component_to`).
    #[arg(long)]
    full_moves: bool,
    /// Answer every start vertex of a graph game given its graph alone
    /// (`dag(GRAPH)`, `digraph(GRAPH)`, `geography(GRAPH)`, `tree_walk(GRAPH)`)
    /// in one pass: one line per vertex with the outcome of a token there (and
    /// its nimber for `dag`, its value, finite or infinite, for `digraph`);
    /// with --json, one JSON object a line.
    #[arg(long, requires = "expression")]
    all_starts: bool,
    /// Answer the outcome and the nimber only: the winning moves are neither
    /// listed nor counted (`winning_move_count` is null, and a note says why)
    /// where skipping them saves work, as in a searched board (`cram(5, 8)`).
    #[arg(long)]
    no_moves: bool,
    /// Keep the search's progress in FILE, and resume from it: a search stopped by
    /// --max-time, Ctrl-C or a crash, run again with the same command, does not
    /// redo the work saved.
    ///
    /// The search saves what it has proved (the nimbers of the regions it met) as
    /// it goes (see --checkpoint-every) and when it stops, answered or not, writing
    /// a new file and renaming it over FILE. A FILE of another position or of
    /// another grundy version, or damaged, is refused (exit 2); one holding more
    /// than --max-memory or --max-states allow is exit 3. It applies to one Cram
    /// board searched alone under normal play (`cram(r, c)`, `cram("..#./....")`);
    /// any other position is refused (exit 2).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["file", "all_starts"])]
    checkpoint: Option<PathBuf>,
    /// With --checkpoint: save at least every SECONDS of search (a decimal number;
    /// default 10). A save that takes long puts the next one off by twenty times
    /// its duration, so saving takes at most about a twentieth of the search.
    #[arg(long, value_name = "SECONDS", requires = "checkpoint", value_parser = crate::deadline::parse_seconds)]
    checkpoint_every: Option<Duration>,
}

/// The human form cuts positions longer than this.
const LONGEST_POSITION_SHOWN: usize = 300;

/// Runs the command.
///
/// # Errors
/// A [`Failure`] for bad input, a limit, or output that cannot be written.
pub fn run(args: &Args) -> Result<(), Failure> {
    args.threads.install();
    if let (Some(first), false) = (&args.expression, args.more_words.is_empty()) {
        return Err(unquoted(first, &args.more_words));
    }
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 20, stdout.lock());
    match (&args.expression, args.file.as_deref()) {
        (Some(expression), _) if args.all_starts => {
            write_every_start(args, expression, &mut out)?;
            out.flush()?;
            Ok(())
        }
        (Some(expression), _) => {
            let solved = if args.checkpoint.is_some() {
                solve_until_interrupted(args, expression)?
            } else {
                solve_source(args, expression)?
            };
            write_answer(args, &solved, &mut out)?;
            out.flush()?;
            // The process ends right after: freeing a million heaps one by one
            // would only cost time (a tenth of the run for 10^6 heaps).
            std::mem::forget(solved);
            Ok(())
        }
        (None, Some("-")) => {
            // The batch reads the standard input: a position's `@-` cannot.
            grundy::lang::take_standard_input();
            answer_lines(args, "standard input", io::stdin().lock(), &mut out)
        }
        (None, Some(path)) => {
            // A device or a FIFO would never end or never start: only a
            // regular file is read (standard input is `-`).
            let metadata = std::fs::metadata(path)
                .map_err(|e| Failure::input(format!("error: cannot read `{path}`: {e}")))?;
            if !metadata.is_file() {
                return Err(Failure::input(format!(
                    "error: cannot read `{path}`: it is not a regular file (a directory, device or FIFO); give a file, or `-` for standard input"
                )));
            }
            let file = File::open(path)
                .map_err(|e| Failure::input(format!("error: cannot read `{path}`: {e}")))?;
            answer_lines(args, &format!("`{path}`"), BufReader::new(file), &mut out)
        }
        (None, None) => Err(Failure::input(
            "error: give a position or --file".to_owned(),
        )),
    }
}

/// A position given as several words (`grundy solve nim 3 5 7`): the shell split
/// it, so the hint quotes it: `'nim(3, 5, 7)'` for a name and its heaps, the
/// words joined otherwise.
fn unquoted(first: &str, rest: &[String]) -> Failure {
    let words = 1 + rest.len();
    let joined = std::iter::once(first)
        .chain(rest.iter().map(String::as_str))
        .collect::<Vec<_>>()
        .join(" ");
    let is_name = |word: &str| {
        word.starts_with(|c: char| c.is_ascii_alphabetic())
            && word
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "_[],.=".contains(c))
    };
    let numbers = rest
        .iter()
        .map(|word| word.trim_end_matches(','))
        .collect::<Vec<_>>();
    let quoted = if is_name(first)
        && numbers
            .iter()
            .all(|word| !word.is_empty() && word.bytes().all(|b| b.is_ascii_digit()))
    {
        format!("{first}({})", numbers.join(", "))
    } else {
        joined.clone()
    };
    Failure::input(format!(
        "error: the position came as {words} words (`{joined}`): it must be one argument\nhelp: quote it: grundy solve '{quoted}'"
    ))
}

/// `--all-starts`: one line per start vertex.
fn write_every_start(args: &Args, source: &str, out: &mut impl Write) -> Result<(), Failure> {
    let sum = parse_with_limits(source, args.limits.max_digits)
        .map_err(|e| Failure::language(&e, source, Door::CommandLine))?;
    let every = Catalogue::standard()
        .every_start(&sum, args.limits.build())
        .map_err(|e| Failure::language(&e, source, Door::CommandLine))?;
    for (vertex, outcome) in every.outcomes.iter().enumerate() {
        let loopy = every.loopy.as_ref().map(|values| &values[vertex]);
        // A P-position's nimber is 0 whether or not a formula gives nimbers.
        let nimber = match loopy {
            Some(value) => value.nimber().map(ToString::to_string),
            None => every
                .nimbers
                .as_ref()
                .map(|nimbers| nimbers[vertex])
                .or(outcome.second_player_wins().then_some(0))
                .map(|g| g.to_string()),
        };
        if args.json {
            // Written by hand: a million `json!` objects cost twice the game.
            let position = serde_json::to_string(&every.position(vertex))
                .map_err(|e| Failure::input(format!("error: {e}")))?;
            let nimber = nimber.unwrap_or_else(|| "null".to_owned());
            let loopy =
                loopy.map_or_else(String::new, |value| format!(",\"loopy_value\":\"{value}\""));
            writeln!(
                out,
                "{{\"vertex\":{},\"position\":{position},\"outcome\":\"{}\",\
                 \"first_player_wins\":{},\"nimber\":{nimber}{loopy}}}",
                vertex + 1,
                outcome.letter(),
                outcome.first_player_wins()
            )?;
        } else {
            write!(
                out,
                "vertex {}: {} ({}-position)",
                vertex + 1,
                outcome.in_words(),
                outcome.letter()
            )?;
            match (loopy, nimber) {
                (Some(value @ LoopyValue::Infinite(_)), _) => {
                    writeln!(out, ", value {}", value.in_words())?;
                }
                (_, Some(nimber)) => writeln!(out, ", nimber {nimber}")?,
                (_, None) => writeln!(out)?,
            }
        }
    }
    if !args.json {
        writeln!(out, "method: {}", every.method)?;
    }
    Ok(())
}

/// What an answer was made from, kept to be forgotten rather than freed.
type Solved = (Answer, Position, Sum);

/// A spinner on standard error for a long search, when it is a terminal: it
/// appears once a search has explored its first 2^16 positions.
fn search_spinner() -> Option<ProgressBar> {
    io::stderr().is_terminal().then(|| {
        let bar = ProgressBar::new_spinner();
        bar.set_style(
            ProgressStyle::with_template("{spinner} {elapsed} {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        bar
    })
}

/// Answers the position `source` with a checkpoint: the first Ctrl-C stops
/// the search as the time limit does, and the search saves its progress
/// before the process ends (exit 130).
fn solve_until_interrupted(args: &Args, source: &str) -> Result<Solved, Failure> {
    let signal = grundy::theory::cancel::current()
        .unwrap_or_default()
        .child();
    crate::interrupt::cancel_on_ctrl_c(&signal);
    match signal.run(|| solve_source(args, source)) {
        Err(failure) if crate::interrupt::requested() => {
            let message = failure.message();
            let notes = message.lines().filter(|line| line.starts_with("note: "));
            print_error(
                &std::iter::once("error: interrupted (Ctrl-C)")
                    .chain(notes)
                    .collect::<Vec<_>>()
                    .join("\n"),
            );
            Err(Failure::Reported(crate::interrupt::EXIT_CODE))
        }
        solved => solved,
    }
}

/// Answers the position `source`.
fn solve_source(args: &Args, source: &str) -> Result<Solved, Failure> {
    let sum = parse_with_limits(source, args.limits.max_digits)
        .map_err(|e| Failure::language(&e, source, Door::CommandLine))?;
    let position = build_with(&sum, args.limits.build())
        .map_err(|e| Failure::language(&e, source, Door::CommandLine))?;
    let spinner = search_spinner();
    let options = SolveOptions {
        progress: spinner.clone().map(|bar| {
            let hook: ProgressHook = Arc::new(move |progress: SearchProgress| {
                bar.set_message(format!(
                    "searching: {} positions and {} moves explored (at most {} positions; \
                     --max-states raises it)",
                    progress.positions, progress.moves, progress.limit
                ));
                bar.tick();
            });
            hook
        }),
        winning_moves: !args.no_moves,
        checkpoint: args.checkpoint.as_ref().map(|path| {
            Checkpoint::new(path).every(args.checkpoint_every.unwrap_or(DEFAULT_EVERY))
        }),
        ..args.limits.solve_options(args.max_moves)
    };
    let answer = solve(&position, &options);
    if let Some(bar) = spinner {
        bar.finish_and_clear();
    }
    let answer = answer.map_err(|error| {
        let failure = Failure::search(&error, Door::CommandLine);
        match (&args.checkpoint, &error) {
            // A search stopped by a limit or Ctrl-C saved what it had done.
            (
                Some(path),
                SearchError::Cancelled
                | SearchError::StateLimit { .. }
                | SearchError::MemoryLimit { .. },
            ) if path.is_file() => failure.reworded(|message| {
                format!(
                    "{message}\nnote: the search's progress is saved in `{}`: the same command resumes it",
                    path.display()
                )
            }),
            _ => failure,
        }
    })?;
    Ok((answer, position, sum))
}

/// Writes an answer as `args` ask.
fn write_answer(
    args: &Args,
    (answer, position, _): &Solved,
    out: &mut impl Write,
) -> io::Result<()> {
    if args.json {
        let compact = compact_moves(answer, args.full_moves);
        write_answer_json(out, answer, position, compact)?;
        out.write_all(b"\n")
    } else {
        write_human(out, answer, args.max_moves)
    }
}

/// Answers every line of `input` (named `name` in errors) as its own position:
/// batch mode, so that many queries take one process. Each answer is flushed as
/// soon as it is written, so a program may feed lines and read answers in turn.
fn answer_lines(
    args: &Args,
    name: &str,
    input: impl BufRead,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let mut tally = Tally::default();
    match answer_each_line(args, name, input, out, &mut tally) {
        Ok(()) => {}
        // The reader went away: the lines met so far decide the exit code.
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => {}
        Err(error) => return Err(Failure::Output(error)),
    }
    if tally.answered == 0 && tally.worst == 0 {
        return Err(Failure::input(format!(
            "error: {name} holds no position (only blank lines and `#` comments)"
        )));
    }
    match tally.worst {
        0 => Ok(()),
        worst => Err(Failure::Reported(worst)),
    }
}

/// What a batch has done so far.
#[derive(Debug, Default)]
struct Tally {
    /// Lines answered.
    answered: usize,
    /// The worst exit code of the lines not answered; 0 for none.
    worst: u8,
}

impl Tally {
    /// Prints `failure` and counts its exit code.
    fn failed(&mut self, failure: Failure) {
        self.worst = self.worst.max(failure.print());
    }
}

/// The loop of [`answer_lines`]: prints each line's error as it comes; stops at
/// the end of the input, when it cannot be read, or when the answers cannot be
/// written (the error returned).
fn answer_each_line(
    args: &Args,
    name: &str,
    mut input: impl BufRead,
    out: &mut impl Write,
    tally: &mut Tally,
) -> io::Result<()> {
    let mut last = None;
    let mut line = Vec::new();
    // A line may hold at most the memory limit: an input without line ends
    // (`/dev/zero` on standard input) is refused, not read forever.
    let longest = args.limits.budget.max_memory;
    for number in 1.. {
        // Stopped (--max-time): no line after is answered.
        if grundy::theory::cancel::current().is_some_and(|signal| signal.is_cancelled()) {
            break;
        }
        line.clear();
        match io::Read::take(&mut input, longest.saturating_add(1)).read_until(b'\n', &mut line) {
            Ok(0) => break,
            Ok(read) if read as u64 > longest => {
                tally.failed(
                    Failure::limit(format!(
                        "error: the line is longer than the memory limit of {longest} bytes; raise it with --max-memory BYTES"
                    ))
                    .on_line(number),
                );
                break;
            }
            Ok(_) => {}
            Err(e) => {
                tally.failed(Failure::input(format!("error: cannot read {name}: {e}")));
                break;
            }
        }
        let Ok(text) = std::str::from_utf8(&line) else {
            let failure = Failure::input("error: the line is not UTF-8 text".to_owned());
            tally.failed(failure.on_line(number));
            continue;
        };
        let text = text.trim_end_matches(['\n', '\r']);
        let trimmed = text.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        match solve_source(args, text) {
            Ok(solved) => {
                if tally.answered > 0 && !args.json {
                    out.write_all(b"\n")?;
                }
                write_answer(args, &solved, out)?;
                out.flush()?;
                tally.answered += 1;
                // Drops the previous answer; the last one is forgotten below.
                last = Some(solved);
            }
            Err(failure) => tally.failed(failure.on_line(number)),
        }
    }
    // The process ends right after: see `run`.
    std::mem::forget(last);
    Ok(())
}

fn shorten(text: &str) -> String {
    if text.len() <= LONGEST_POSITION_SHOWN {
        text.to_owned()
    } else {
        let cut = (0..=LONGEST_POSITION_SHOWN / 2)
            .rev()
            .find(|&i| text.is_char_boundary(i))
            .unwrap_or(0);
        format!(
            "{}... ({} characters; --json prints it whole)",
            &text[..cut],
            text.len()
        )
    }
}

fn write_human(out: &mut impl Write, answer: &Answer, max_moves: usize) -> io::Result<()> {
    let position = answer.position.as_str();
    writeln!(out, "{}", shorten(position))?;
    let letter = answer.outcome.letter();
    writeln!(
        out,
        "{} ({letter}-position, {} play)",
        answer.outcome.in_words(),
        answer.play
    )?;
    if let Some(nimber) = &answer.nimber {
        writeln!(out, "nimber: {nimber}")?;
    }
    if let Some(value @ LoopyValue::Infinite(_)) = &answer.loopy_value {
        writeln!(out, "value: {}", value.in_words())?;
    }
    if answer.outcome == Outcome::Draw {
        writeln!(
            out,
            "no move wins: with best play the game goes on for ever (a move to a position of \
             infinite value keeps the draw)"
        )?;
    } else if answer.outcome.first_player_wins() {
        let count = &answer.winning_move_count;
        let plural = if *count == BigUint::from(1u32) {
            ""
        } else {
            "s"
        };
        if answer.moves_counted {
            writeln!(out, "{count} winning move{plural}:")?;
        } else if answer.winning_moves.is_empty() {
            writeln!(out, "winning moves: not counted (see the notes)")?;
        } else {
            writeln!(
                out,
                "winning moves not all counted (see the notes); listed:"
            )?;
        }
        for winning in &answer.winning_moves {
            if position.len() <= LONGEST_POSITION_SHOWN {
                writeln!(
                    out,
                    "  {}  ->  {}",
                    winning.description,
                    answer.target(winning)
                )?;
            } else {
                writeln!(out, "  {}", winning.description)?;
            }
        }
        let listed = answer.winning_moves.len();
        if answer.truncated && listed < max_moves && !answer.notes.is_empty() {
            writeln!(out, "  ... {listed} listed (see the notes)")?;
        } else if answer.truncated && listed < max_moves {
            // The theory counted every move but listed only the first ones it finds
            // cheaply (three-heap splits of huge heaps, smallest part first).
            writeln!(
                out,
                "  ... {listed} listed: the count is exact, but the other moves of a heap this \
                 large are not listed (their smallest part lies past those grundy tries)"
            )?;
        } else if answer.truncated {
            writeln!(out, "  ... {listed} listed; --max-moves N lists more")?;
        }
    } else {
        writeln!(out, "every move leads to a position the opponent wins")?;
    }
    writeln!(out, "method: {}", answer.method)?;
    for note in &answer.notes {
        writeln!(out, "note: {note}")?;
    }
    Ok(())
}
