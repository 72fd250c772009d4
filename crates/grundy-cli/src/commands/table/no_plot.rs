//! `grundy table --plot FILE` in a binary built without the `plot` feature: refused
//! before the table is computed.

use crate::failure::Failure;
use grundy::workflow::table::Table;

/// Refuses every plot: this binary cannot draw one.
pub(super) fn check(_path: &str) -> Result<(), Failure> {
    Err(Failure::input(
        "error: --plot needs the `plot` feature, and this grundy was built without it: build it with `--features plot` (on by default)"
            .to_owned(),
    ))
}

/// Never reached: [`check`] refused the plot first.
pub(super) fn draw(_table: &Table, _title: &str, path: &str) -> Result<(), Failure> {
    check(path)
}
