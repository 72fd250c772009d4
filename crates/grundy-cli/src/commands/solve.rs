//! `grundy solve [--json] EXPR`: answer one position.

use std::io::{self, BufWriter, Read, Write};

use grundy::analysis::{Answer, SolveOptions, solve};
use grundy::catalogue::{BuildLimits, build_with};
use grundy::lang::parse_with_limits;
use num_bigint::BigUint;
use serde_json::{Value, json};

use super::seq::parse_bytes;
use crate::failure::Failure;

/// Arguments of `grundy solve`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The position, e.g. `nim(3, 5, 7)` or `misere(bash[3](4) + nim(2))`.
    #[arg(required_unless_present = "file", conflicts_with = "file")]
    expression: Option<String>,
    /// Read the position from a file instead (`-` for standard input).
    #[arg(short, long, value_name = "FILE")]
    file: Option<String>,
    /// Print one JSON object (the contract's format).
    #[arg(long)]
    json: bool,
    /// List at most N winning moves (all are counted).
    #[arg(long, value_name = "N", default_value_t = 100)]
    max_moves: usize,
    /// Store at most N positions in a search.
    #[arg(long, value_name = "N", default_value_t = grundy::analysis::DEFAULT_MAX_STATES)]
    max_states: usize,
    /// Accept integers of at most N decimal digits.
    #[arg(long, value_name = "N", default_value_t = grundy::lang::DEFAULT_MAX_DIGITS)]
    max_digits: usize,
    /// Work allowed for the values of heap games given by rules (octal codes,
    /// grundy_game, ...) when no period is proven, in estimated steps (10^8 take
    /// about a second; as `grundy seq --max-work`).
    #[arg(long, value_name = "STEPS", default_value_t = BuildLimits::default().work)]
    max_work: u64,
    /// Memory allowed for those values: bytes, or with a suffix K, M, G or T.
    #[arg(long, value_name = "BYTES", default_value = "4G", value_parser = parse_bytes)]
    max_memory: u64,
    /// Largest heap whose values are computed when no period is proven.
    #[arg(long, value_name = "N", default_value_t = BuildLimits::default().largest_heap)]
    max_heap: u64,
}

/// The human form cuts positions longer than this.
const LONGEST_POSITION_SHOWN: usize = 300;

fn read_source(args: &Args) -> Result<String, Failure> {
    match (&args.expression, args.file.as_deref()) {
        (Some(expression), _) => Ok(expression.clone()),
        (None, Some("-")) => {
            let mut text = String::new();
            io::stdin()
                .read_to_string(&mut text)
                .map_err(|e| Failure::Input(format!("error: cannot read standard input: {e}")))?;
            Ok(text)
        }
        (None, Some(path)) => std::fs::read_to_string(path)
            .map_err(|e| Failure::Input(format!("error: cannot read `{path}`: {e}"))),
        (None, None) => Err(Failure::Input(
            "error: give a position or --file".to_owned(),
        )),
    }
}

/// Runs the command.
///
/// # Errors
/// A [`Failure`] for bad input, a limit, or output that cannot be written.
pub fn run(args: &Args) -> Result<(), Failure> {
    let source = read_source(args)?;
    let sum =
        parse_with_limits(&source, args.max_digits).map_err(|e| Failure::language(&e, &source))?;
    let limits = BuildLimits {
        work: args.max_work,
        bytes: args.max_memory,
        largest_heap: args.max_heap,
    };
    let position = build_with(&sum, limits).map_err(|e| Failure::language(&e, &source))?;
    let options = SolveOptions {
        max_moves: args.max_moves,
        max_states: args.max_states,
    };
    let answer = solve(&position, &options).map_err(|e| Failure::search(&e))?;
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 20, stdout.lock());
    if args.json {
        write_json(&mut out, &answer)?;
    } else {
        write_human(&mut out, &answer, args.max_moves)?;
    }
    out.flush()?;
    // The process ends right after: freeing a million heaps one by one would
    // only cost time (a tenth of the run for 10^6 heaps).
    std::mem::forget((answer, position, sum));
    Ok(())
}

/// An integer as JSON: a number below 2^53, a decimal string above.
fn big_json(value: &BigUint) -> Value {
    match u64::try_from(value) {
        Ok(small) if small < (1 << 53) => json!(small),
        _ => Value::String(value.to_string()),
    }
}

/// Writes the contract's JSON object. It is streamed field by field, because a
/// position of a million heaps makes every `to` tens of megabytes long.
fn write_json(out: &mut impl Write, answer: &Answer) -> io::Result<()> {
    fn field(out: &mut impl Write, name: &str, value: &impl serde::Serialize) -> io::Result<()> {
        write!(out, "\"{name}\":")?;
        serde_json::to_writer(&mut *out, value).map_err(io::Error::from)
    }
    out.write_all(b"{")?;
    field(out, "position", &answer.position.as_str())?;
    out.write_all(b",")?;
    field(out, "convention", &answer.play)?;
    out.write_all(b",")?;
    field(out, "outcome", &answer.outcome.letter().to_string())?;
    out.write_all(b",")?;
    field(
        out,
        "first_player_wins",
        &answer.outcome.first_player_wins(),
    )?;
    out.write_all(b",")?;
    field(
        out,
        "nimber",
        &answer.nimber.as_ref().map_or(Value::Null, big_json),
    )?;
    out.write_all(b",\"winning_moves\":[")?;
    for (i, winning) in answer.winning_moves.iter().enumerate() {
        if i > 0 {
            out.write_all(b",")?;
        }
        out.write_all(b"{")?;
        field(out, "to", &answer.target(winning))?;
        out.write_all(b",")?;
        field(out, "move", &winning.description)?;
        out.write_all(b"}")?;
    }
    out.write_all(b"],")?;
    field(
        out,
        "winning_move_count",
        &big_json(&answer.winning_move_count),
    )?;
    out.write_all(b",")?;
    field(out, "truncated", &answer.truncated)?;
    out.write_all(b",")?;
    field(out, "method", &answer.method)?;
    out.write_all(b"}\n")
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
    if answer.outcome.first_player_wins() {
        let count = &answer.winning_move_count;
        let plural = if *count == BigUint::from(1u32) {
            ""
        } else {
            "s"
        };
        writeln!(out, "{count} winning move{plural}:")?;
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
        if answer.truncated && listed < max_moves {
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
    writeln!(out, "method: {}", answer.method)
}
