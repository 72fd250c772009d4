"""``grundy.quotient``: the misère quotient of a heap rule, the same object as
``grundy quotient --json``, with its limits as ``LimitError``."""

from __future__ import annotations

import pytest

import grundy
from conftest import cli_json


@pytest.mark.parametrize(
    "rule, n",
    [("octal[0.75]", None), ("kayles", 12), ("octal[0.07]", 9), ("octal[0.1]", 3), ("sub[1, 3, 4]", None)],
)
def test_the_quotient_is_the_command_lines(grundy_bin: str, rule: str, n: int | None) -> None:
    args = ["quotient", "--json", rule] + ([] if n is None else ["-n", str(n)])
    assert grundy.quotient(rule, n) == cli_json(grundy_bin, *args)


def test_limits_and_bad_arguments_are_errors() -> None:
    with pytest.raises(grundy.LimitError) as caught:
        grundy.quotient("octal[0.07]", 30, max_order=100)
    assert "the orders of the quotients for heaps <= k" in str(caught.value)
    assert "max_order" in str(caught.value)
    with pytest.raises(grundy.ParseError):
        grundy.quotient("octal[0.7", 8)
    with pytest.raises(TypeError):
        grundy.quotient("kayles", "8")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        grundy.quotient("kayles", 10**9)


@pytest.mark.parametrize("rule, n", [("kayles", 12), ("nim", 10), ("octal[0.07]", 8)])
def test_the_genus_is_the_command_lines(grundy_bin: str, rule: str, n: int) -> None:
    expected = cli_json(grundy_bin, "seq", "--genus", "--json", rule, "-n", str(n))
    assert grundy.seq(rule, n, genus=True) == expected
    assert len(expected["genus"]) == n + 1


def test_a_genus_out_of_reach_is_a_limit_error() -> None:
    with pytest.raises(grundy.LimitError) as caught:
        grundy.seq("octal[0.75]", 8, genus=True)
    assert "the genera of octal[0.75] up to heap 8 are out of reach" in str(caught.value)
    assert "max_order" not in str(caught.value)


def test_the_genus_of_a_script_is_refused_as_the_command_line_refuses_it(grundy_bin: str) -> None:
    import subprocess

    script = 'script["fn moves(n) { if n > 0 { [n - 1] } else { [] } }"]'
    with pytest.raises(grundy.ParseError) as caught:
        grundy.seq(script, 5, genus=True)
    cli = subprocess.run([grundy_bin, "seq", "--genus", script, "-n", "5"], capture_output=True, text=True)
    assert cli.returncode == 2 and cli.stdout == ""
    assert cli.stderr == f"error: {caught.value}\n"
    assert str(caught.value).startswith("the genus needs a heap rule")
