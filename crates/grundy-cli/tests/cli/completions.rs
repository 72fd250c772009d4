//! `grundy completions SHELL`: completion scripts for bash, zsh and fish.

use std::process::{Command, Stdio};

use crate::support::grundy;

#[test]
fn each_shell_gets_a_script_naming_the_subcommands() {
    for shell in ["bash", "zsh", "fish"] {
        let output = grundy(&["completions", shell]);
        assert_eq!(output.status.code(), Some(0), "{shell}");
        let script = String::from_utf8(output.stdout).unwrap();
        assert!(script.len() > 1000, "{shell}: {script}");
        for word in [
            "grundy",
            "solve",
            "games",
            "seq",
            "pairs",
            "completions",
            "full-moves",
        ] {
            assert!(script.contains(word), "{shell}: no `{word}`");
        }
    }
}

#[test]
fn the_bash_script_is_valid_bash() {
    let output = grundy(&["completions", "bash"]);
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("grundy.bash");
    std::fs::write(&path, &output.stdout).unwrap();
    let status = Command::new("bash")
        .arg("-n")
        .arg(&path)
        .stderr(Stdio::inherit())
        .status()
        .unwrap();
    assert!(status.success());
}

#[test]
fn an_unknown_shell_is_bad_input() {
    let output = grundy(&["completions", "tcsh"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).starts_with("error:"));
}
