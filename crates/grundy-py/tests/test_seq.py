"""grundy.seq against the command line's seq --json."""

from __future__ import annotations

import numpy as np
import pytest

import grundy
from conftest import cli_json

RULES = ["octal[0.07]", "kayles", "octal[0.6]", "sub[1, 3, 4]", "grundy_game", "lasker", "nim", "octal[0.8]", "all_but[1, 2]", "octal[0.28]"]


@pytest.mark.parametrize("rule", RULES)
def test_values_and_period_equal_the_command_lines(grundy_bin: str, rule: str) -> None:
    want = cli_json(grundy_bin, "seq", "--json", rule, "-n", "3000")
    got = grundy.seq(rule, 3000)
    assert got.to_dict() == {k: want[k] for k in ("rule", "values", "period", "preperiod", "saltus", "proven", "proof")}
    assert got.values.dtype == np.uint64 and len(got) == 3001


def test_until_proven_goes_past_n(grundy_bin: str) -> None:
    want = cli_json(grundy_bin, "seq", "--json", "--until-proven", "octal[0.16]", "-n", "100")
    got = grundy.seq("octal[0.16]", 100, until_proven=True)
    assert (got.period, got.preperiod, got.proven) == (want["period"], want["preperiod"], True)
    assert list(got.values) == want["values"]


def test_a_script_rule_is_a_sequence() -> None:
    script = 'script["fn moves(n) { let m = []; for k in [1, 3, 4] { if k <= n { m.push(n - k) } } m }"]'
    got = grundy.seq(script, 100)
    assert list(got.values) == list(grundy.seq("sub[1, 3, 4]", 100).values)
    assert got.period == 7 and not got.proven


def test_limits_are_named() -> None:
    with pytest.raises(grundy.LimitError) as caught:
        grundy.seq("octal[0.9]", 100_000)
    assert caught.value.limit == "max_work"
    with pytest.raises(grundy.LimitError) as caught:
        grundy.seq("octal[0.6]", 10**7, max_memory="1M")
    assert caught.value.limit == "max_memory"
    with pytest.raises(grundy.LimitError):
        grundy.seq("nim", 2**33)
    with pytest.raises(grundy.ParseError):
        grundy.seq("octal[0.9.9]", 10)
    with pytest.raises(ValueError):
        grundy.seq("kayles", -1)


def test_plot_and_pandas() -> None:
    sequence = grundy.seq("kayles", 50)
    series = sequence.to_pandas()
    assert series.index.name == "n" and list(series) == list(sequence.values)
    figure = sequence.plot()
    assert figure.axes[0].get_xlabel() == "n"
    assert sequence._repr_png_().startswith(b"\x89PNG")


def test_a_heap_count_of_the_wrong_type_is_named() -> None:
    with pytest.raises(TypeError) as caught:
        grundy.seq("kayles", "10")  # type: ignore[arg-type]
    assert "`n`" in str(caught.value) and "str" in str(caught.value)
    import numpy as np

    assert grundy.seq("kayles", np.int64(12)).period == 12


def test_dir_lists_only_grundys_names() -> None:
    names = dir(grundy)
    assert "solve" in names and "seq" in names and "__version__" in names
    for helper in ("Any", "Dict", "List", "Optional", "Union", "annotations", "Bytes"):
        assert helper not in names
