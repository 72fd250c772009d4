//! `grundy games [NAME]`: the catalogue with each game's rules, syntax and examples.

use std::io::{self, Write};

use grundy::catalogue::{Catalogue, entries, find, nearest_name};
use grundy::registry::GameEntry;

use crate::failure::Failure;

/// Arguments of `grundy games`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Show this game in full.
    name: Option<String>,
}

/// Runs the command.
///
/// # Errors
/// A [`Failure`] for an unknown name or output that cannot be written.
pub fn run(args: &Args) -> Result<(), Failure> {
    let stdout = io::stdout();
    let mut out = stdout.lock();
    match &args.name {
        None => {
            let width = entries().iter().map(|e| e.name.len()).max().unwrap_or(0);
            for entry in entries() {
                let aliases: Vec<&str> = Catalogue::standard().aliases_of(entry.name).collect();
                if aliases.is_empty() {
                    writeln!(out, "{:width$}  {}", entry.name, entry.summary)?;
                } else {
                    let also = aliases.join(", ");
                    writeln!(
                        out,
                        "{:width$}  {} (also {also})",
                        entry.name, entry.summary
                    )?;
                }
            }
            writeln!(
                out,
                "\n`grundy games NAME` shows a game's rules, syntax and examples."
            )?;
        }
        Some(name) => {
            let entry = find(name).ok_or_else(|| {
                let hint = nearest_name(name).map_or_else(
                    || "`grundy games` lists the games grundy knows".to_owned(),
                    |near| format!("did you mean `{near}`?"),
                );
                Failure::input(format!("error: unknown game `{name}`\nhelp: {hint}"))
            })?;
            write_entry(&mut out, entry)?;
        }
    }
    Ok(())
}

fn write_entry(out: &mut impl Write, entry: &GameEntry) -> io::Result<()> {
    writeln!(out, "{}: {}", entry.name, entry.summary)?;
    let aliases: Vec<&str> = Catalogue::standard().aliases_of(entry.name).collect();
    if !aliases.is_empty() {
        writeln!(out, "also named: {}", aliases.join(", "))?;
    }
    writeln!(out)?;
    writeln!(out, "{}\n", entry.rules)?;
    writeln!(out, "syntax: {}", entry.syntax)?;
    writeln!(out, "examples:")?;
    for example in entry.examples {
        writeln!(out, "  grundy solve '{example}'")?;
    }
    Ok(())
}
