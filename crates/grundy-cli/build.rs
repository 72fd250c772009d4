//! Link options for the `grundy` binary.
//!
//! - `-z pack-relative-relocs`: the relocation table in its packed form (354 KB to 6 KB
//!   of start-up memory, ASLR kept).
//! - A linker script, written here from `link/hot-functions.txt`, that places the
//!   functions typical runs execute first and together (an output section `.text.hot`
//!   before `.text`). The kernel maps code 64 KiB around each page a run touches, so
//!   code spread over the binary's 6 MB costs resident memory: code resident during
//!   Cram 5x8 fell from 2.7 MB to 0.66 MB (docs/BENCHMARKS.md, "The binary's start-up
//!   footprint"). Names absent from a build are simply not matched;
//!   `scripts/hot-functions.py` records them again (CI checks them with `--check`).

use std::env;
use std::fmt::Write as _;
use std::path::PathBuf;

const HOT_FUNCTIONS: &str = "link/hot-functions.txt";

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed={HOT_FUNCTIONS}");
    println!("cargo:rustc-link-arg-bins=-Wl,-z,pack-relative-relocs");

    if env::var("CARGO_CFG_TARGET_OS").as_deref() != Ok("linux") {
        return;
    }
    let manifest_dir = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let out_dir = PathBuf::from(env::var_os("OUT_DIR").unwrap_or_default());
    let Ok(recorded) = std::fs::read_to_string(manifest_dir.join(HOT_FUNCTIONS)) else {
        return;
    };
    let script = out_dir.join("hot-functions.ld");
    if std::fs::write(&script, linker_script(&recorded)).is_ok() {
        println!("cargo:rustc-link-arg-bins=-Wl,-T,{}", script.display());
    }
}

/// One input-section rule per function, in the file's order (the order of the rules is
/// the order in the output). Each matches the function's section under every prefix
/// LLVM gives (`.text.unlikely.` for cold functions, `.text.startup.`, `.text.hot.`),
/// and ThinLTO's renamed copy (`NAME.llvm.<hash>`). `INSERT BEFORE .text` keeps the
/// linker's default layout for everything else.
fn linker_script(recorded: &str) -> String {
    let mut script = String::from("SECTIONS\n{\n  .text.hot :\n  {\n");
    for name in recorded
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
    {
        script.push_str("    *(");
        for prefix in [".text.", ".text.unlikely.", ".text.startup.", ".text.hot."] {
            let _ = write!(script, " {prefix}{name} {prefix}{name}.llvm.*");
        }
        script.push_str(" )\n");
    }
    script.push_str("  }\n}\nINSERT BEFORE .text;\n");
    script
}
