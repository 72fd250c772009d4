"""grundy.solve, grundy.parse and grundy.games against the command line."""

from __future__ import annotations

import random
from typing import List

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import grundy
from conftest import cli_batch, cli_json


def random_positions(count: int, seed: int) -> List[str]:
    """Positions across the catalogue, with random sizes, small enough to be
    answered at once."""
    rng = random.Random(seed)
    n = lambda hi: rng.randint(0, hi)  # noqa: E731
    heaps = lambda k, hi: ", ".join(str(n(hi)) for _ in range(rng.randint(1, k)))  # noqa: E731
    code = lambda: "0." + "".join(rng.choice("01234567") for _ in range(rng.randint(1, 3)))  # noqa: E731
    coins = lambda: "".join(rng.choice("ht") for _ in range(rng.randint(1, 9)))  # noqa: E731
    makers = [
        lambda: f"nim({heaps(5, 40)})",
        lambda: f"nim({n(10**30)}, {n(10**30)})",
        lambda: f"bash[{rng.randint(1, 6)}]({heaps(3, 100)})",
        lambda: f"sub[{', '.join(str(k) for k in sorted(rng.sample(range(1, 9), rng.randint(1, 4))))}]({heaps(3, 200)})",
        lambda: f"all_but[{rng.randint(1, 4)}]({heaps(2, 60)})",
        lambda: f"octal[{code()}]({heaps(3, 60)})",
        lambda: f"kayles({heaps(3, 80)})",
        lambda: f"dawson_kayles({heaps(2, 80)})",
        lambda: f"grundy_game({heaps(2, 60)})",
        lambda: f"lasker({heaps(3, 10**6)})",
        lambda: f"rest_nim({heaps(2, 30)})",
        lambda: f"wythoff({n(60)}, {n(60)})",
        lambda: f"wythoff[{rng.randint(1, 3)}]({n(40)}, {n(40)})",
        lambda: f"fibonacci_nim({rng.randint(1, 80)})",
        lambda: f"dynamic_sub[{rng.randint(1, 3)}]({rng.randint(1, 40)})",
        lambda: f"staircase({heaps(4, 9)})",
        lambda: f"moore[{rng.randint(1, 3)}]({heaps(4, 6)})",
        lambda: f"grid_nim([{n(5)}, {n(5)}], [{n(5)}, {n(5)}])",
        lambda: f"turtles(\"{coins()}\")",
        lambda: f"mock_turtles(\"{coins()}\")",
        lambda: f"ruler(\"{coins()}\")",
        lambda: f"twins(\"{coins()}\")",
        lambda: f"chomp({rng.randint(1, 4)}, {rng.randint(1, 5)})",
        lambda: f"divisors({rng.randint(1, 12)})",
        lambda: f"cram({rng.randint(1, 3)}, {rng.randint(1, 4)})",
        lambda: f"dag(\"4 4; 1 2; 2 3; 1 3; 3 4\", {rng.randint(1, 4)}, {rng.randint(1, 4)})",
        lambda: f"hackenbush(\"4 4; 1 2; 2 3; 3 4; 4 2\")",
        lambda: f"tree_walk(\"5 4; 1 2; 2 3; 2 4; 1 5\", {rng.randint(1, 5)})",
        lambda: f"prefix_game([\"abc\", \"abd\", \"b\"])",
        lambda: f"misere(nim({heaps(4, 6)}))",
        lambda: f"misere(kayles({heaps(2, 12)}) + nim({n(5)}))",
        lambda: f"every(nim({heaps(2, 5)}) + bash[2]({n(9)}))",
        lambda: f"rounds[{rng.randint(1, 3)}](nim({heaps(2, 4)}))",
    ]
    positions = []
    for _ in range(count):
        terms = [rng.choice(makers)() for _ in range(rng.choice([1, 1, 2, 3]))]
        # Wrappers take a whole sum: they are not added to other terms.
        wrapped = [t for t in terms if t.startswith(("misere", "every", "rounds"))]
        positions.append(wrapped[0] if wrapped else " + ".join(terms))
    return positions


def test_answers_equal_the_command_lines_on_200_random_positions(grundy_bin: str) -> None:
    positions = random_positions(200, seed=27)
    expected = cli_batch(grundy_bin, positions)
    for position, want in zip(positions, expected):
        got = grundy.solve(position).to_dict()
        assert got == want, position


def test_the_catalogues_examples_equal_the_command_lines(grundy_bin: str) -> None:
    examples = [e for game in grundy.games() for e in game["examples"] if "@" not in e]
    expected = cli_batch(grundy_bin, examples)
    for example, want in zip(examples, expected):
        assert grundy.solve(example).to_dict() == want, example


def test_large_positions_give_compact_moves_as_the_command_line(grundy_bin: str) -> None:
    position = "nim(" + ", ".join(["1"] * 6000) + ") + bash[2](5)"
    want = cli_batch(grundy_bin, [position])[0]
    answer = grundy.solve(position)
    assert answer.to_dict() == want
    (move,) = answer.winning_moves
    assert move.to is None and move.term == 1 and move.component_to == "bash[2](3)"


def test_the_fields_of_an_answer() -> None:
    answer = grundy.solve("nim(3, 5, 7)")
    assert (answer.outcome, answer.first_player_wins, answer.nimber) == ("N", True, 1)
    assert answer.winning_move_count == 3 and not answer.truncated
    assert [m.to for m in answer.winning_moves] == ["nim(2, 5, 7)", "nim(3, 4, 7)", "nim(3, 5, 6)"]
    assert answer.method == "nim-sum" and answer.notes == []
    assert answer.position == "nim(3, 5, 7)" and answer.convention == "normal"
    lost = grundy.solve("nim(1, 2, 3)")
    assert (lost.outcome, lost.first_player_wins, lost.nimber, lost.winning_moves) == ("P", False, 0, [])


def test_nimbers_are_python_ints_of_any_size_and_none_without_one() -> None:
    big = 10**40 + 12345
    answer = grundy.solve(f"nim({big}, 3)")
    assert answer.nimber == big ^ 3 and isinstance(answer.nimber, int)
    assert answer.to_dict()["nimber"] == str(big ^ 3)
    assert answer.winning_move_count == 1
    misere = grundy.solve("misere(nim(1, 1))")
    assert misere.nimber is None and misere.convention == "misere"
    assert misere.to_dict()["nimber"] is None


def test_parts_are_added_as_one_expression() -> None:
    assert grundy.solve("nim(3)", "bash[3](10)").to_dict() == grundy.solve("nim(3) + bash[3](10)").to_dict()


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=2**70), min_size=1, max_size=6))
def test_nim_is_the_nim_sum_and_its_winning_moves_empty_a_p_position(heaps: List[int]) -> None:
    answer = grundy.solve(f"nim({', '.join(map(str, heaps))})")
    total = 0
    for heap in heaps:
        total ^= heap
    assert answer.nimber == total
    assert answer.winning_move_count == sum(1 for h in heaps if h ^ total < h)
    for move in answer.winning_moves:
        assert grundy.solve(move.to).outcome == "P"


def test_no_moves_answers_the_nimber_alone() -> None:
    answer = grundy.solve("cram(3, 4)", no_moves=True)
    assert answer.winning_move_count is None and answer.winning_moves == []
    assert answer.nimber == grundy.solve("cram(3, 4)").nimber


def test_parse_gives_the_canonical_form_or_a_positioned_error() -> None:
    assert grundy.parse("nim(3,5 , 7)") == "nim(3, 5, 7)"
    assert grundy.parse("multi_nim(3)") == "lasker(3)"
    with pytest.raises(grundy.ParseError) as caught:
        grundy.parse("nim(3")
    error = caught.value
    assert error.column == 6
    assert error.caret == "  nim(3\n       ^"
    assert "expected `,` or `)`" in error.message
    assert isinstance(error, ValueError)
    with pytest.raises(grundy.ParseError) as caught:
        grundy.solve("nim(1) + nmi(2)")
    assert caught.value.column == 10 and "did you mean `nim`" in str(caught.value)


def test_games_is_the_catalogue() -> None:
    games = {game["name"]: game for game in grundy.games()}
    assert {"nim", "wythoff", "octal", "cram", "script", "misere"} <= set(games)
    assert "lasker" in games and "multi_nim" in games["lasker"]["aliases"]
    for game in games.values():
        assert set(game) == {"name", "summary", "rules", "syntax", "aliases", "examples"}


def test_limits_are_keywords_named_in_the_error() -> None:
    with pytest.raises(grundy.LimitError) as caught:
        grundy.solve("cram(5, 7)", max_states=1000)
    assert caught.value.limit == "max_states"
    assert "raise it with max_states=N" in str(caught.value)
    with pytest.raises(grundy.LimitError) as caught:
        grundy.solve("nim(" + "9" * 50 + ")", max_digits=10)
    assert caught.value.limit == "max_digits"
    with pytest.raises(grundy.LimitError) as caught:
        grundy.solve("divisors(60)", max_memory="1M")
    assert caught.value.limit == "max_memory"
    assert "raise it with max_memory=BYTES" in str(caught.value)
    with pytest.raises(grundy.LimitError) as caught:
        grundy.solve("cram(7, 7)", max_time=0.2)
    assert caught.value.limit == "max_time"
    with pytest.raises(ValueError):
        grundy.solve("nim(1)", max_memory="lots")
    with pytest.raises(grundy.LimitError):
        grundy.solve("nim(1)", max_memory=0)


def test_bad_parts_are_type_errors() -> None:
    with pytest.raises(TypeError):
        grundy.solve(3)  # type: ignore[arg-type]
    with pytest.raises(grundy.ParseError):
        grundy.solve()


def test_the_html_view_shows_the_nim_sum_table_and_the_moves() -> None:
    page = grundy.solve("nim(3, 5) + bash[3](10)")._repr_html_()
    assert "nim(3, 5) + bash[3](10)" in page
    assert "<td><code>nim(3)</code></td><td>3</td>" in page
    assert "<td><code>bash[3](10)</code></td><td>2</td>" in page
    assert "nim-sum" in page and "winning move" in page
    assert "N-position" in page


def test_the_json_of_the_command_line_and_the_python_ints_agree(grundy_bin: str) -> None:
    want = cli_json(grundy_bin, "solve", "--json", "dawson_kayles(1000000000000000000001, 7) + nim(5)")
    answer = grundy.solve("dawson_kayles(1000000000000000000001, 7) + nim(5)")
    assert answer.to_dict() == want
    assert grundy._native.contract_integer(answer.nimber) == str(want["nimber"])


def test_the_examples_in_the_docstrings_hold() -> None:
    import doctest

    import grundy._answer
    import grundy._sequence
    import grundy._survey
    import grundy._table

    for module in (grundy, grundy._answer, grundy._sequence, grundy._table, grundy._survey):
        failed, tried = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
        assert failed == 0, module.__name__
        assert tried > 0, module.__name__
