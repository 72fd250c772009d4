//! The binary's start-up footprint (crates/grundy-cli/build.rs, src/math.rs): the
//! functions typical runs execute, named in link/hot-functions.txt, sit together at the
//! start of the code, and the binary does not load glibc's libm. Cram 5x7's peak memory
//! depends on both.
#![cfg(all(target_os = "linux", target_arch = "x86_64"))]

use std::collections::HashMap;
use std::process::Command;

const RECORDED: &str = include_str!("../link/hot-functions.txt");

fn binutils(tool: &str, args: &[&str]) -> String {
    let output = Command::new(tool)
        .args(args)
        .arg(env!("CARGO_BIN_EXE_grundy"))
        .output()
        .unwrap_or_else(|error| panic!("{tool} (binutils) reads the binary: {error}"));
    assert!(output.status.success(), "{tool} failed");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The binary's function symbols: name (without ThinLTO's `.llvm.<hash>`) -> (address,
/// size).
fn functions_of_the_binary() -> HashMap<String, (u64, u64)> {
    binutils("nm", &["-S"])
        .lines()
        .filter_map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let [address, size, kind, name] = fields[..] else {
                return None;
            };
            if !"tTW".contains(kind) {
                return None;
            }
            let name = name.split(".llvm.").next().unwrap_or(name);
            let address = u64::from_str_radix(address, 16).ok()?;
            let size = u64::from_str_radix(size, 16).ok()?;
            Some((name.to_owned(), (address, size)))
        })
        .collect()
}

#[test]
fn the_hot_functions_sit_together() {
    let functions = functions_of_the_binary();
    let found: Vec<(u64, u64)> = RECORDED
        .lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .filter_map(|name| functions.get(name.trim()).copied())
        .collect();
    // The names carry hashes of the compiler and of the features cargo resolved: a
    // test build's own crates are named otherwise than the `cargo build` the file was
    // recorded from (scripts/hot-functions.py --check counts those), but the standard
    // library's are the same.
    assert!(
        found.len() >= 100,
        "only {} hot functions found: was link/hot-functions.txt recorded with another \
         toolchain? Run python3 scripts/hot-functions.py",
        found.len()
    );
    let start = found.iter().map(|&(address, _)| address).min().unwrap();
    let end = found
        .iter()
        .map(|&(address, size)| address + size)
        .max()
        .unwrap();
    let total: u64 = found.iter().map(|&(_, size)| size).sum();
    // Together: within the hot section, whose other functions are the recorded ones
    // of this build that the lookup above missed. The binary has 6 MB of code.
    assert!(
        end - start <= 1 << 20,
        "the {} hot functions found ({total} bytes) spread over {} bytes: \
         was the linker script handed to the linker (build.rs)?",
        found.len(),
        end - start
    );
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
