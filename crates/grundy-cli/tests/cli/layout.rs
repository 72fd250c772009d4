//! The binary's start-up footprint (src/math.rs): it does not load glibc's libm.
#![cfg(all(target_os = "linux", target_arch = "x86_64"))]

use std::process::Command;

fn binutils(tool: &str, args: &[&str]) -> String {
    let output = Command::new(tool)
        .args(args)
        .arg(env!("CARGO_BIN_EXE_grundy"))
        .output()
        .unwrap_or_else(|error| panic!("{tool} (binutils) reads the binary: {error}"));
    assert!(output.status.success(), "{tool} failed");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn the_binary_does_not_load_libm() {
    let dynamic = binutils("readelf", &["-d"]);
    let needed: Vec<&str> = dynamic
        .lines()
        .filter(|line| line.contains("(NEEDED)"))
        .collect();
    assert!(!needed.is_empty(), "{dynamic}");
    assert!(
        !needed.iter().any(|line| line.contains("libm.")),
        "the binary needs libm again: a dependency calls a C math function that \
         src/math.rs does not define (nm -D --undefined-only target/release/grundy):\n{}",
        needed.join("\n")
    );
}
