//! `grundy pairs [--json] RULE -n K [--from I]`: the P-positions of Wythoff's
//! game or of extended Wythoff, `(A_n, B_n)` for `n = I, ..., I + K - 1`.

use std::io::{self, BufWriter, Write};

use grundy::games::wythoff::{MAX_PILE_BITS, Wythoff};
use grundy::lang::{LangError, parse};
use num_bigint::BigUint;
use serde_json::{Value, json};

use crate::failure::{Door, Failure};

/// Arguments of `grundy pairs`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The rule: `wythoff` or `wythoff[d]`.
    rule: String,
    /// How many pairs to list.
    #[arg(short = 'n', value_name = "K")]
    count: usize,
    /// The index of the first pair (decimal, any size up to the piles' limit).
    #[arg(long, value_name = "I", default_value = "0")]
    from: String,
    /// Print one JSON object: `{"rule": ..., "pairs": [[A, B], ...]}`.
    #[arg(long)]
    json: bool,
}

/// The rule's text as a term with no arguments, so the position language reads it.
fn read_rule(rule: &str) -> Result<Wythoff, Failure> {
    let source = if rule.trim_end().ends_with(')') {
        rule.to_owned()
    } else {
        format!("{}()", rule.trim_end())
    };
    let sum = parse(&source).map_err(|e| Failure::language(&e, &source, Door::CommandLine))?;
    let fail = |error: LangError| Failure::language(&error, &source, Door::CommandLine);
    let [term] = sum.terms.as_slice() else {
        return Err(fail(LangError::new(
            "`pairs` takes one rule, not a sum",
            sum.span,
        )));
    };
    if term.name != "wythoff" {
        return Err(fail(
            LangError::new(
                format!(
                    "`pairs` lists the P-positions of `wythoff` and `wythoff[d]`, not `{}`",
                    term.name
                ),
                term.name_span,
            )
            .with_help(
                "for example `grundy pairs wythoff -n 10` or `grundy pairs 'wythoff[2]' -n 5`",
            ),
        ));
    }
    if let Some(arg) = term.args.first() {
        return Err(fail(LangError::new(
            "a rule takes no arguments (no piles)",
            arg.span,
        )));
    }
    Wythoff::from_term(term).map_err(fail)
}

/// An integer as JSON: a number below 2^53, a decimal string above.
fn big_json(value: &BigUint) -> Value {
    match u64::try_from(value) {
        Ok(small) if small < (1 << 53) => json!(small),
        _ => Value::String(value.to_string()),
    }
}

/// Runs the command.
///
/// # Errors
/// A [`Failure`] for a bad rule or index, a limit, or output that cannot be written.
pub fn run(args: &Args) -> Result<(), Failure> {
    let game = read_rule(&args.rule)?;
    let from: BigUint = args
        .from
        .parse()
        .ok()
        .filter(|_| args.from.bytes().all(|b| b.is_ascii_digit()))
        .ok_or_else(|| {
            Failure::input(format!(
                "error: --from takes a non-negative decimal integer, not `{}`",
                args.from
            ))
        })?;
    // The piles of pair n have about as many bits as n (B_n < (d + 3) n).
    let last_bits =
        (&from + args.count).bits() + 64 - u64::from(game.difference_bound().leading_zeros());
    if last_bits > MAX_PILE_BITS {
        return Err(Failure::limit(format!(
            "error: pairs from --from {} would have piles of about {last_bits} bits, more than \
             the limit of {MAX_PILE_BITS} bits (about 39,000 digits) the closed form accepts",
            shorten(&args.from)
        )));
    }
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 20, stdout.lock());
    let pairs = game.p_positions_from(from.clone()).take(args.count);
    if args.json {
        write!(out, "{{\"rule\":")?;
        serde_json::to_writer(&mut out, &game.name()).map_err(io::Error::from)?;
        write!(out, ",\"pairs\":[")?;
        for (i, (lower, upper)) in pairs.enumerate() {
            if i > 0 {
                out.write_all(b",")?;
            }
            serde_json::to_writer(&mut out, &json!([big_json(&lower), big_json(&upper)]))
                .map_err(io::Error::from)?;
        }
        writeln!(out, "]}}")?;
    } else {
        let step = match game.difference_bound() {
            0 => "n".to_owned(),
            d => format!("{} n", u128::from(d) + 1),
        };
        writeln!(
            out,
            "{}: P-positions (A_n, B_n) with B_n = A_n + {step}; (B_n, A_n) are P-positions too",
            game.name(),
        )?;
        for (offset, (lower, upper)) in pairs.enumerate() {
            writeln!(out, "  n = {}: ({lower}, {upper})", &from + offset)?;
        }
    }
    out.flush()?;
    Ok(())
}

fn shorten(text: &str) -> String {
    if text.len() <= 40 {
        text.to_owned()
    } else {
        format!("{}... ({} digits)", &text[..20], text.len())
    }
}
