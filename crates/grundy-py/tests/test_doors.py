"""One position, one answer, through every door: ``grundy solve --json``, Python's
``solve(...).to_dict()`` and the playground's ``POST /api/solve`` give the same
object, field for field (the playground adds fields of its own: the parts and
every move valued). The Python side runs in a fresh interpreter whose first call
is cut by a deadline, and the playground is a fresh server whose quick lane cuts
its first attempts: a construction cut short must not be remembered as a failure
(a misère quotient cut by the first short attempt once made every later call of
the process fall back to a search that ran out of states)."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from typing import Any, Dict, List

from conftest import cli_json

POSITIONS: List[str] = [
    # misère quotients, the genus, a misère search
    "misere(kayles(10, 20, 30, 40))",
    "misere(octal[0.07](9, 14, 20))",
    "misere(octal[0.75](5, 9, 12))",
    "misere(dawson_kayles(10, 12) + nim(3))",
    "misere(wythoff(3, 4) + nim(2))",
    # Every-SG, Fibonacci Nim, boards, Wythoff, a script, split heaps
    "every(nim(3, 5) + bash[2](7))",
    "fibonacci_nim(20) + nim(3)",
    # decided by theory alone: Fibonacci Nim's values up to 3, remoteness by formula
    "fibonacci_nim(1000000000000000000) + nim(1)",
    "every(nim(1000000000000))",
    "every(bash[2](1000000000000) + sub[1, 3, 4](1000000))",
    "cram(3, 4)",
    "chomp(3, 4)",
    "wythoff(5, 8) + nim(1)",
    'script["fn moves(n) { let m = []; for s in [1, 3, 4] { if n >= s { m.push(n - s) } } m }"](7, 9)',
    "grundy_game(1..40) + kayles(7)",
]

# The Python door, in an interpreter of its own: the first call is cut by a
# deadline of 0.1 ms, then every position is answered.
PYTHON_DOOR = """
import json, sys
import grundy
positions = json.loads(sys.argv[1])
try:
    grundy.solve(positions[0], max_time=0.0001)
    print(json.dumps({"first": "answered"}))
except (grundy.LimitError, grundy.Interrupted):
    print(json.dumps({"first": "cut"}))
for position in positions:
    print(json.dumps(grundy.solve(position).to_dict()))
"""


def python_answers() -> List[Dict[str, Any]]:
    done = subprocess.run(
        [sys.executable, "-c", PYTHON_DOOR, json.dumps(POSITIONS)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert lines[0] == {"first": "cut"}
    return lines[1:]


def server_answers(grundy_bin: str) -> List[Dict[str, Any]]:
    server = subprocess.Popen(
        [grundy_bin, "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert server.stdout is not None
        line = server.stdout.readline().strip()
        assert line.startswith("listening on "), line
        url = line[len("listening on ") :]
        answers = []
        for position in POSITIONS:
            request = urllib.request.Request(
                f"{url}/api/solve",
                data=json.dumps({"position": position}).encode(),
                headers={"Content-Type": "application/json"},
            )
            with urllib.request.urlopen(request, timeout=120) as response:
                assert response.status == 200, position
                answers.append(json.loads(response.read()))
        return answers
    finally:
        server.kill()
        server.wait()


def test_every_door_gives_the_same_answer(grundy_bin: str) -> None:
    cli = [cli_json(grundy_bin, "solve", "--json", position) for position in POSITIONS]
    python = python_answers()
    served = server_answers(grundy_bin)
    for position, by_cli, by_python, by_server in zip(POSITIONS, cli, python, served):
        assert by_python == by_cli, position
        for key, value in by_cli.items():
            assert by_server.get(key) == value, f"{position}: {key}"
