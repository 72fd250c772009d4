//! Nimbers of Wythoff positions on thin boards and huge piles: answered or refused
//! within the memory allowed, never an abort or a panic. Each of these aborted
//! (an allocation of up to 125 GB for the dense table's bitsets), panicked (a
//! pile of 2^64 - 1 plus one wrapped to 0), or held gigabytes.

/// Runs grundy with its output thrown away; returns its exit code and peak
/// resident memory in bytes (`ru_maxrss` of wait4(2), for this child alone).
#[cfg(target_os = "linux")]
#[allow(
    unsafe_code,
    reason = "wait4(2) through libc, the only way to this figure"
)]
#[allow(
    clippy::zombie_processes,
    reason = "the child is reaped by wait4, not by `Child`"
)]
fn exit_and_peak(args: &[&str]) -> (i32, u64) {
    use std::process::{Command, Stdio};
    let child = Command::new(env!("CARGO_BIN_EXE_grundy"))
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
    let code = if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        128 + libc::WTERMSIG(status)
    };
    (code, u64::try_from(usage.ru_maxrss).unwrap() * 1024)
}

#[test]
#[cfg(target_os = "linux")]
fn thin_boards_and_huge_piles_stay_within_the_memory_allowed() {
    let positions = [
        "wythoff(1, 999999)",
        "wythoff(1, 450000)",
        "wythoff(999999, 1)",
        "wythoff(1, 999999) + nim(1)",
        "wythoff(0, 18446744073709551615)",
        "wythoff(4294967295, 18446744073709551615)",
        "wythoff(4, 18446744073709551615)",
        "wythoff(18446744073709551615, 4)",
        "wythoff(1, 400000)",
        "wythoff(3, 330701)",
        "wythoff(5, 333000)",
    ];
    for position in positions {
        let (code, peak) = exit_and_peak(&["solve", "--max-memory", "256M", position]);
        // 0: answered, the nimber perhaps unknown with a note; 3: a limit reached.
        assert!(code == 0 || code == 3, "{position}: exit {code}");
        assert!(peak < 300 << 20, "{position}: {} MB", peak >> 20);
    }
}
