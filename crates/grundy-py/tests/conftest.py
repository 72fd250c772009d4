"""Shared helpers of the Python package's tests: the command-line binary the
answers are checked against (``GRUNDY_BIN``, set by .ci/run to the binary the
Rust tests built; a test that needs it fails when it is not set)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any, Dict, List

import pytest

REPOSITORY = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="session")
def grundy_bin() -> str:
    path = os.environ.get("GRUNDY_BIN")
    if not path:
        pytest.fail(
            "GRUNDY_BIN is not set: build the command line (cargo build --profile tests -p grundy-cli) "
            "and set GRUNDY_BIN=target/tests/grundy; .ci/run does"
        )
    if not os.access(path, os.X_OK):
        pytest.fail(f"GRUNDY_BIN={path} is not an executable")
    return path


def cli_json(grundy_bin: str, *args: str) -> Any:
    """The JSON object the command line prints for ``args``."""
    done = subprocess.run([grundy_bin, *args], capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, f"grundy {' '.join(args)}: exit {done.returncode}: {done.stderr}"
    return json.loads(done.stdout)


def cli_batch(grundy_bin: str, positions: List[str]) -> List[Dict[str, Any]]:
    """``grundy solve --json --file -`` on ``positions``, one answer each."""
    done = subprocess.run(
        [grundy_bin, "solve", "--json", "--file", "-"],
        input="\n".join(positions) + "\n",
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(answers) == len(positions)
    return answers
