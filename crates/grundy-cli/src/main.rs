//! The `grundy` command-line tool.
fn main() {}
