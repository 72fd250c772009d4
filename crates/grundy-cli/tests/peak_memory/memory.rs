//! Memory of `grundy seq`: the estimate checked against --max-memory holds,
//! a zero limit is refused, and memory refused by the system is exit 3 naming
//! --max-memory, never an abort.

use std::process::{Command, Output};

use crate::support::{command, grundy};

/// Runs grundy, which must exit 3 with one line of error; returns the line.
fn refused(args: &[&str]) -> String {
    refused_output(&grundy(args), &args.join(" "))
}

fn refused_output(output: &Output, command: &str) -> String {
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(3), "{command}: {stderr}");
    // Notes (the estimated time of a long run) may come first; one error line ends it.
    let errors: Vec<&str> = stderr
        .lines()
        .filter(|line| !line.starts_with("note:"))
        .collect();
    assert_eq!(errors.len(), 1, "{stderr}");
    assert!(errors[0].starts_with("error:"), "{stderr}");
    errors[0].to_owned()
}

#[test]
fn a_zero_memory_limit_is_refused() {
    // Kayles' values were answered before (the estimate was checked against 0 only
    // after 256 values), and 0.8's, whose period is proven from the first values,
    // without any check.
    for rule in ["kayles", "octal[0.8]", "nim"] {
        let stderr = refused(&["seq", rule, "-n", "10", "--max-memory", "0"]);
        assert!(stderr.contains("--max-memory 0"), "{stderr}");
        assert!(
            stderr.contains("raise it with --max-memory BYTES"),
            "{stderr}"
        );
    }
}

#[test]
fn a_zero_largest_heap_is_refused() {
    // Was: the values of heaps 0..=10 and "no period found", exit 0.
    let stderr = refused(&[
        "seq",
        "kayles",
        "-n",
        "10",
        "--until-proven",
        "--max-heap",
        "0",
    ]);
    assert!(stderr.contains("--max-heap 0"), "{stderr}");
    assert!(stderr.contains("raise it with --max-heap N"), "{stderr}");
}

#[test]
fn the_estimate_counts_the_program_itself() {
    // A handful of values needs next to nothing, but the process needs megabytes.
    let stderr = refused(&["seq", "kayles", "-n", "10", "--max-memory", "1M"]);
    assert!(stderr.contains("MiB"), "{stderr}");
    assert!(stderr.contains("--max-memory BYTES"), "{stderr}");
    let output = grundy(&["seq", "kayles", "-n", "10", "--max-memory", "16M"]);
    assert!(output.status.success());
}

#[test]
fn values_from_a_proven_period_are_checked_against_the_memory_limit() {
    // 0.8's period (3, saltus 1) is proven by the first values; its 10^8 values still
    // take 4 bytes each (G(n) is about n/3).
    let stderr = refused(&[
        "seq",
        "octal[0.8]",
        "-n",
        "100000000",
        "--max-memory",
        "100M",
    ]);
    assert!(stderr.contains("proven period"), "{stderr}");
    assert!(stderr.contains("--max-memory BYTES"), "{stderr}");
}

/// Runs grundy with its address space limited to `kilobytes` (`ulimit -v`), so that an
/// allocation fails well within the --max-memory given.
#[cfg(target_os = "linux")]
fn with_address_space(kilobytes: u64, args: &[&str]) -> Output {
    let quoted: Vec<String> = args.iter().map(|arg| format!("'{arg}'")).collect();
    Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v {kilobytes} && exec '{}' {}",
            env!("CARGO_BIN_EXE_grundy"),
            quoted.join(" ")
        ))
        .output()
        .unwrap()
}

#[test]
#[cfg(target_os = "linux")]
fn memory_refused_by_the_system_is_exit_3_naming_max_memory() {
    // Was: "memory allocation of 2147483648 bytes failed", a backtrace and exit 134.
    // The value vector of a closed form (nim: 4 bytes a value), and the values and
    // tables of the engine (all_but[15]: its counts of each value grow with the values);
    // each fails within a second, after some 7*10^7 values.
    for args in [
        ["seq", "nim", "-n", "1000000000", "--max-memory", "8G"],
        [
            "seq",
            "all_but[15]",
            "-n",
            "300000000",
            "--max-memory",
            "8G",
        ],
    ] {
        let output = with_address_space(400_000, &args);
        let stderr = refused_output(&output, &args.join(" "));
        assert!(stderr.contains("out of memory"), "{stderr}");
        assert!(stderr.contains("--max-memory BYTES"), "{stderr}");
    }
}

/// Runs grundy with its output thrown away and returns its peak resident memory in
/// bytes, as the kernel counted it (`ru_maxrss` of wait4(2), for this child alone: the
/// tests run side by side, so the maximum over all children would mix them).
#[cfg(target_os = "linux")]
#[allow(
    unsafe_code,
    reason = "wait4(2) through libc, the only way to this figure"
)]
#[allow(
    clippy::zombie_processes,
    reason = "the child is reaped by wait4, not by `Child`"
)]
fn peak_resident_bytes(args: &[&str]) -> u64 {
    use std::process::Stdio;
    let child = command()
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let pid = libc::pid_t::try_from(child.id()).unwrap();
    let mut status = 0;
    // SAFETY: `rusage` is plain integers, for which zero bytes are a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: `status` and `usage` are valid for writes, and `pid` is our child,
        // not yet waited for (`Child` never waits unless asked).
        let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if reaped == pid {
            break;
        }
        let error = std::io::Error::last_os_error();
        assert_eq!(
            error.kind(),
            std::io::ErrorKind::Interrupted,
            "wait4: {error}"
        );
    }
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "grundy {} failed: {status:#x}",
        args.join(" ")
    );
    u64::try_from(usage.ru_maxrss).unwrap() * 1024
}

/// The memory `grundy seq ARGS` estimates (from its refusal of a 1-byte limit).
#[cfg(target_os = "linux")]
fn estimated_bytes(args: &[&str]) -> u64 {
    let mut refused_args = args.to_vec();
    refused_args.extend(["--max-memory", "1"]);
    let stderr = refused(&refused_args);
    let (_, rest) = stderr.split_once(" (").expect("the estimate in bytes");
    let (bytes, _) = rest.split_once(" bytes)").expect("the estimate in bytes");
    bytes.parse().unwrap()
}

#[test]
#[cfg(target_os = "linux")]
#[ignore = "exhaustive (about 30 s, up to 250 MB): run with --include-ignored, as CI does"]
fn the_estimate_is_within_a_factor_2_of_the_peak_for_every_rule_family() {
    // Each runs a few seconds and, but for the smallest, holds tens to hundreds of
    // megabytes, so that the values and tables dominate the program's 4 MB.
    let cases: [&[&str]; 14] = [
        // Codes with two-heap splits (sparse space), text and JSON output.
        &["seq", "octal[0.16]", "-n", "20000000"],
        &["seq", "--json", "octal[0.6]", "-n", "3000000"],
        &["seq", "octal[0.1777]", "-n", "10000000"],
        &["seq", "octal[4.0]", "-n", "30000000"],
        &["seq", "grundy_game", "-n", "2000000"],
        // All-but and subtraction sets.
        &["seq", "all_but[15]", "-n", "30000000"],
        &["seq", "sub[1,3,4]", "-n", "50000000"],
        // A code leaving three heaps: its sets of two-heap values (0.9, no period
        // known, computed to exactly N), and one answered from a proven period (0.8).
        &[
            "seq",
            "octal[0.9]",
            "-n",
            "5000",
            "--until-proven",
            "--max-heap",
            "5000",
            "--max-work",
            "100000000000",
        ],
        &["seq", "octal[0.8]", "-n", "50000000"],
        // Closed forms.
        &["seq", "lasker", "-n", "50000000"],
        &["seq", "rest_nim", "-n", "50000000"],
        // The plain method: counts of each value (nim), every split (Lasker's Nim),
        // partition sets (Rest Nim).
        &["seq", "nim", "--method", "plain", "-n", "30000000"],
        &[
            "seq",
            "lasker",
            "--method",
            "plain",
            "-n",
            "20000",
            "--max-work",
            "1000000000",
        ],
        &[
            "seq",
            "rest_nim",
            "--method",
            "plain",
            "-n",
            "600",
            "--max-work",
            "1000000000",
        ],
    ];
    let mut report = String::new();
    let mut wrong = Vec::new();
    for args in cases {
        let estimate = estimated_bytes(args);
        let peak = peak_resident_bytes(args);
        let line = format!(
            "{:>7.1} MiB estimated, {:>7.1} MiB peak: grundy {}\n",
            estimate as f64 / f64::from(1 << 20),
            peak as f64 / f64::from(1 << 20),
            args.join(" ")
        );
        report.push_str(&line);
        if estimate > 2 * peak || peak > 2 * estimate {
            wrong.push(line);
        }
    }
    eprint!("{report}");
    assert!(
        wrong.is_empty(),
        "off by more than a factor 2:\n{}",
        wrong.concat()
    );
}
