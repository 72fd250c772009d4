//! `grundy completions SHELL`: a completion script for bash, zsh or fish.

use std::io::{self, Write};

use clap::CommandFactory;
use clap_complete::Shell;

use crate::failure::Failure;

/// Arguments of `grundy completions`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The shell: bash, zsh or fish (also elvish and powershell).
    shell: Shell,
}

/// Runs the command.
///
/// # Errors
/// A [`Failure`] when the script cannot be written.
pub fn run(args: &Args) -> Result<(), Failure> {
    // clap_complete panics when it cannot write, so the script is made in
    // memory and written here, where a closed pipe is no error.
    let mut script = Vec::new();
    clap_complete::generate(
        args.shell,
        &mut crate::Cli::command(),
        "grundy",
        &mut script,
    );
    let mut out = io::stdout().lock();
    out.write_all(&script)?;
    out.flush()?;
    Ok(())
}
