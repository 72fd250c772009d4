#!/usr/bin/env python3
"""Records which functions of the `grundy` binary typical runs execute, in the order
the linker should place them: crates/grundy-cli/link/hot-functions.txt.

Why: the kernel maps a binary's code 64 KiB around each page a run touches, so code
executed by a run but scattered over the binary costs resident memory (the `grundy`
binary has 6 MB of code; a Cram solve executed about 400 KB of it, spread over 44
windows of 64 KiB). crates/grundy-cli/build.rs turns this file into a linker script
that puts these functions first, together.

The names are those of `cargo build --release`, the binary users run. ThinLTO's
`.llvm.NNN` suffix, which changes with any edit of the code around, is left out (the
linker script matches it with a wildcard). The hashes in the names stay: they change
with the compiler, and `cargo test` resolves other features than `cargo build` (its
binary's names differ; there the order is partly applied). Record again when the
toolchain changes or many hot functions were renamed:

    python3 scripts/hot-functions.py            # needs valgrind (apt-get install valgrind)
    python3 scripts/hot-functions.py --check    # share of names found in target/release/grundy (CI)
"""

import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "crates", "grundy-cli", "link", "hot-functions.txt")
BINARY = os.path.join(ROOT, "target", "release", "grundy")

# Typical runs: start-up and argument parsing, the position language, the sum solver,
# the board searches benchmarked against igsolve, the heap engine, text and JSON output.
WORKLOADS = [
    ["solve", "--no-moves", "cram(5, 6)"],
    ["solve", "cram(5, 6)"],
    ["solve", "--no-moves", "chomp(9, 9)"],
    ["solve", "chomp(9, 9)"],
    ["solve", "nim(3, 5, 7)"],
    ["solve", "--json", "kayles(20) + wythoff(5, 8) + sub[1, 3, 4](10)"],
    ["seq", "kayles", "-n", "3000"],
    ["seq", "octal[0.16]", "-n", "20000"],
]

BUILD = ["cargo", "build", "--release", "-p", "grundy-cli"]


def executed_functions(binary, args, workdir):
    """Names of the functions callgrind saw executed in `binary args`, left mangled
    (the linker matches symbol names)."""
    out = os.path.join(workdir, "callgrind.out")
    subprocess.run(
        ["valgrind", "--tool=callgrind", "--demangle=no", f"--callgrind-out-file={out}", binary]
        + args,
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    names = set()
    with open(out, encoding="utf-8", errors="replace") as profile:
        for line in profile:
            match = re.match(r"c?fn=\(\d+\) (.+)", line)
            if match:
                names.add(match.group(1).strip())
    return names


def text_symbols(binary):
    """Function symbols of the binary: name -> address."""
    listing = subprocess.run(
        ["nm", binary], check=True, capture_output=True, text=True
    ).stdout
    symbols = {}
    for line in listing.splitlines():
        fields = line.split()
        if len(fields) == 3 and fields[1] in "tTW":
            symbols[fields[2]] = int(fields[0], 16)
    return symbols


def hot_order(binary, workdir):
    """The executed functions, those most runs share first (start-up), then each run's
    own in the run's order, each group in the binary's present order. Every name of an
    executed address is kept: rustc merges identical functions into aliases, and
    callgrind may report an alias while the code sits in the section of another name."""
    symbols = text_symbols(binary)
    names_at = collections.defaultdict(list)
    for name, address in symbols.items():
        names_at[address].append(name)
    runs = collections.Counter()
    first_run = {}
    for index, args in enumerate(WORKLOADS):
        executed = {symbols[name] for name in executed_functions(binary, args, workdir) if name in symbols}
        for address in executed:
            runs[address] += 1
            first_run.setdefault(address, index)
    order = sorted(runs, key=lambda address: (-runs[address], first_run[address], address))
    return [name for address in order for name in sorted(names_at[address])]


def without_lto_suffix(symbol):
    """The symbol without ThinLTO's `.llvm.<digits>` (a hash of the code around)."""
    return re.sub(r"\.llvm\.\d+$", "", symbol)


def check():
    """Exit 1 unless 90 % of the recorded names are functions of target/release/grundy."""
    recorded = [
        line.strip()
        for line in open(OUT, encoding="utf-8")
        if line.strip() and not line.startswith("#")
    ]
    present = {without_lto_suffix(name) for name in text_symbols(BINARY)}
    found = sum(name in present for name in recorded)
    print(f"{found} of the {len(recorded)} hot functions are in {BINARY}")
    if found * 10 < len(recorded) * 9:
        sys.exit(
            "error: link/hot-functions.txt is out of date (another toolchain, or renamed "
            "functions): run python3 scripts/hot-functions.py"
        )


def rustc_version():
    return subprocess.run(
        ["rustc", "--version"], check=True, capture_output=True, text=True
    ).stdout.strip()


def main():
    os.chdir(ROOT)
    if sys.argv[1:] == ["--check"]:
        check()
        return
    if shutil.which("valgrind") is None:
        sys.exit("error: valgrind is needed (apt-get install valgrind)")
    subprocess.run(BUILD, check=True, stdout=subprocess.DEVNULL)
    with tempfile.TemporaryDirectory() as workdir:
        names = hot_order(BINARY, workdir)
    names = list(dict.fromkeys(without_lto_suffix(name) for name in names))
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w", encoding="utf-8") as file:
        file.write("# Functions typical runs of `grundy` execute, in the order the linker places them\n")
        file.write("# (crates/grundy-cli/build.rs). Written by scripts/hot-functions.py; do not edit.\n")
        file.write(f"# Recorded with {rustc_version()}.\n")
        for name in names:
            file.write(name + "\n")
    subprocess.run(BUILD, check=True, stdout=subprocess.DEVNULL)  # relink with the order
    print(f"wrote {len(names)} names to {os.path.relpath(OUT, ROOT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
