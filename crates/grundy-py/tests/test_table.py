"""grundy.table against the command line's table --json."""

from __future__ import annotations

import pytest

import grundy
from conftest import cli_json


@pytest.mark.parametrize(
    "expression, ranges",
    [
        ("wythoff(x, y)", {"x": range(0, 25), "y": range(0, 25)}),
        ("bash[3](n) + nim(2)", {"n": range(0, 200)}),
        ("nim(x, y)", {"x": range(3, 20), "y": range(0, 9)}),
        ("fibonacci_nim(n)", {"n": range(1, 200)}),
        ("chomp(r, c)", {"r": range(1, 5), "c": range(1, 6)}),
    ],
)
def test_values_and_patterns_equal_the_command_lines(grundy_bin: str, expression: str, ranges: dict) -> None:
    arguments = [f"{name}={r.start}..{r.stop - 1}" for name, r in ranges.items()]
    want = cli_json(grundy_bin, "table", "--json", expression, *arguments)
    got = grundy.table(expression, **ranges)
    assert got.to_dict() == want


def test_outcomes_equal_the_command_lines(grundy_bin: str) -> None:
    want = cli_json(grundy_bin, "table", "--json", "--outcome", "misere(nim(n, 1, 2))", "n=0..20")
    assert grundy.table("misere(nim(n, 1, 2))", n=range(0, 21), outcome=True).to_dict() == want


def test_to_pandas_is_indexed_by_the_variables() -> None:
    frame = grundy.table("wythoff(x, y)", x=range(0, 4), y=range(0, 3)).to_pandas()
    assert list(frame.index.names) == ["x", "y"] and list(frame.columns) == ["nimber"]
    assert frame.loc[(1, 2), "nimber"] == 0 and frame.loc[(3, 2), "nimber"] == 5
    one = grundy.table("bash[2](n)", n=range(5, 10)).to_pandas()
    assert one.index.name == "n" and list(one.index) == [5, 6, 7, 8, 9]


def test_plot_is_a_heat_map_with_p_positions_black() -> None:
    table = grundy.table("wythoff(x, y)", x=range(0, 10), y=range(0, 10))
    figure = table.plot()
    image = figure.axes[0].images[0]
    assert tuple(image.get_cmap().get_bad())[:3] == (0.0, 0.0, 0.0)
    assert bool(image.get_array().mask[1][2]) and not bool(image.get_array().mask[1][1])
    assert table._repr_png_().startswith(b"\x89PNG")
    assert grundy.table("bash[2](n)", n=range(0, 30)).plot().axes[0].get_xlabel() == "n"


def test_errors_name_the_cell() -> None:
    with pytest.raises(grundy.ParseError) as caught:
        grundy.table("misere(nim(n))", n=range(0, 3))
    assert "outcome=True" in str(caught.value)
    with pytest.raises(grundy.LimitError) as caught:
        grundy.table("cram(r, c)", r=range(4, 6), c=range(5, 8), max_states=1000)
    assert "in the cell r = 4, c = 6" in str(caught.value) or "in the cell r = 4" in str(caught.value)
    with pytest.raises(grundy.LimitError) as caught:
        grundy.table("nim(x, y)", x=range(0, 1000), y=range(0, 1000), max_cells=1000)
    assert caught.value.limit == "max_cells"
    with pytest.raises(grundy.ParseError):
        grundy.table("nim(x)", y=range(3))
    with pytest.raises(ValueError):
        grundy.table("nim(n)", n=range(0, 10, 2))


def test_a_function_gives_the_cells() -> None:
    table = grundy.table(lambda n: ["nim(1)", f"bash[2]({n})"], n=range(0, 6))
    assert table.values == [1, 0, 3, 1, 0, 3]
