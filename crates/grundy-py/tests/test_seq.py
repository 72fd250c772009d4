"""grundy.seq against the command line's seq --json."""

from __future__ import annotations

import re
import warnings

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


@pytest.mark.filterwarnings("ignore:estimated time")
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


def test_a_long_run_warns_first_with_the_command_lines_estimate() -> None:
    # Grundy's game to 10^9 takes an hour or more here (the command line says
    # so too); the time limit ends it after the warning, given once.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(grundy.LimitError):
            grundy.seq("grundy_game", 10**9, max_time=0.5)
    said = [str(w.message) for w in caught if "estimated time" in str(w.message)]
    assert len(said) == 1, said
    assert re.match(r"estimated time: about [0-9.]+ (min|h) for the values of grundy_game of heaps 0\.\.=1000000000", said[0]), said
    assert caught[0].filename == __file__, "the warning points at the caller's line"


def test_until_proven_warns_of_the_whole_range_it_may_compute() -> None:
    # Officers has no known period: to 10^5 is quick, but the search for a
    # proven period may go on to max_heap.
    # max_time leaves the estimate (sampled before the run) time to be made
    # on a loaded machine: at 0.5 s the warning was missing once while the
    # command line's tests ran beside this one.
    with pytest.warns(UserWarning, match=r"until a period is proven, up to .* for heaps 100001\.\.=100000000 \(max_heap=N bounds them\)"):
        with pytest.raises(grundy.LimitError):
            grundy.seq("octal[0.6]", 10**5, until_proven=True, max_heap=10**8, max_time=2)


def test_progress_is_reported_to_a_callable() -> None:
    seen: list[tuple[int, int]] = []
    grundy.seq("grundy_game", 300_000, progress=lambda done, total: seen.append((done, total)))
    assert seen, "a run of about a second reports its progress"
    assert all(0 <= done <= total for done, total in seen)
    assert [done for done, _ in seen] == sorted(done for done, _ in seen)


def test_progress_is_checked() -> None:
    with pytest.raises(TypeError, match="progress"):
        grundy.seq("kayles", 10, progress="yes")  # type: ignore[arg-type]
