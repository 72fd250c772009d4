"""Games written as Python functions (grundy.Game) against their built-in twins."""

from __future__ import annotations

from typing import List

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import grundy


def nim_moves(heaps: tuple) -> list:
    return [heaps[:i] + (k,) + heaps[i + 1 :] for i, h in enumerate(heaps) for k in range(h)]


def subtraction(amounts: List[int]) -> grundy.Game:
    return grundy.Game(moves=lambda n: [n - k for k in amounts if k <= n], name="subtract")


def wythoff_moves(p: tuple) -> list:
    a, b = p
    moves = [(a - k, b) for k in range(1, a + 1)] + [(a, b - k) for k in range(1, b + 1)]
    return moves + [(a - k, b - k) for k in range(1, min(a, b) + 1)]


def lasker_moves(n: int) -> list:
    # Take any number, or split a heap into two non-empty heaps (one move each way of writing it).
    return [n - k for k in range(1, n + 1)] + [(a, n - a) for a in range(1, n // 2 + 1)]


def lasker_split(p):
    return list(p) if isinstance(p, tuple) else [p]


def test_nim_as_a_python_game_equals_nim_on_a_table() -> None:
    nim = grundy.Game(moves=nim_moves, name="py_nim")
    mine = grundy.table(nim, x=range(0, 9), y=range(0, 9))
    builtin = grundy.table("nim(x, y)", x=range(0, 9), y=range(0, 9))
    assert mine.values == builtin.values
    assert mine.patterns == builtin.patterns


def test_wythoff_as_a_python_game_equals_wythoff_on_a_table() -> None:
    wythoff = grundy.Game(moves=wythoff_moves, name="py_wythoff")
    mine = grundy.table(lambda x, y: wythoff(x, y), x=range(0, 15), y=range(0, 15))
    builtin = grundy.table("wythoff(x, y)", x=range(0, 15), y=range(0, 15))
    assert mine.values == builtin.values


def test_lasker_as_a_python_game_with_split_equals_lasker() -> None:
    lasker = grundy.Game(moves=lasker_moves, split=lasker_split, name="py_lasker")
    mine = grundy.table(lasker, n=range(0, 40))
    builtin = grundy.table("lasker(n)", n=range(0, 40))
    assert mine.values == builtin.values
    assert list(grundy.seq(lasker, 39).values) == list(grundy.seq("lasker", 39).values)
    # A sum of heaps: each argument its own heap, as lasker(3, 4).
    assert grundy.solve(lasker(3, 4)).nimber == grundy.solve("lasker(3, 4)").nimber


@settings(max_examples=25, deadline=None)
@given(st.sets(st.integers(min_value=1, max_value=9), min_size=1, max_size=4), st.integers(0, 120))
def test_subtraction_games_equal_their_built_in_twin(amounts: set, last: int) -> None:
    amounts_list = sorted(amounts)
    game = subtraction(amounts_list)
    rule = f"sub[{', '.join(map(str, amounts_list))}]"
    assert grundy.table(game, n=range(0, last + 1)).values == grundy.table(f"{rule}(n)", n=range(0, last + 1)).values
    mine = grundy.seq(game, last)
    builtin = grundy.seq(rule, last)
    assert list(mine.values) == list(builtin.values)
    assert not mine.proven


def test_python_games_play_in_sums_with_built_in_games() -> None:
    game = subtraction([1, 3, 4])
    answer = grundy.solve(game(10), "nim(3)")
    twin = grundy.solve("sub[1, 3, 4](10) + nim(3)")
    assert answer.nimber == twin.nimber and answer.winning_move_count == twin.winning_move_count
    assert answer.position == "subtract(10) + nim(3)"
    assert sorted(m.to for m in answer.winning_moves) == sorted(
        m.to.replace("sub[1, 3, 4]", "subtract") for m in twin.winning_moves
    )
    assert answer.parts() == [("subtract(10)", 1), ("nim(3)", 3)]


def test_positions_of_several_arguments_and_of_text() -> None:
    wythoff = grundy.Game(moves=wythoff_moves, name="w")
    assert repr(wythoff(3, 5)) == "w(3, 5)"
    assert grundy.solve(wythoff(3, 5)).outcome == "P"
    word = grundy.Game(moves=lambda s: [s[1:]] if s else [], name="chop")
    assert grundy.solve(word("abcd")).nimber == 0
    assert grundy.solve(word("abc")).nimber == 1
    assert repr(word("ab")) == "chop('ab')"


def test_describe_names_the_moves() -> None:
    game = grundy.Game(
        moves=lambda n: [n - k for k in (1, 2) if k <= n],
        describe=lambda a, b: f"take {a - b}",
        name="take",
    )
    (move,) = grundy.solve(game(4)).winning_moves
    assert move.move == "take 1" and move.to == "take(3)"


def test_an_exception_in_moves_is_a_game_error_naming_the_position() -> None:
    def moves(n: int) -> list:
        if n == 3:
            raise ValueError("three is not allowed")
        return [n - 1] if n else []

    game = grundy.Game(moves=moves, name="picky")
    with pytest.raises(grundy.GameError) as caught:
        grundy.solve(game(5))
    text = str(caught.value)
    assert "picky" in text and "moves(3)" in text and "three is not allowed" in text
    assert isinstance(caught.value.__cause__, ValueError)
    with pytest.raises(grundy.GameError):
        grundy.seq(game, 10)
    with pytest.raises(grundy.GameError) as caught:
        grundy.table(game, n=range(0, 6))
    assert "in the cell n = 3" in str(caught.value)


def test_each_calls_game_error_has_its_own_callbacks_exception_as_cause() -> None:
    """Calls on several threads at once, each with a game raising its own kind of
    exception: every GameError's cause is the one its own call's game raised."""
    import threading

    def picky(kind: type) -> grundy.Game:
        def moves(n: int) -> list:
            if n == 3:
                raise kind(f"{kind.__name__} at three")
            return [n - 1] if n else []

        return grundy.Game(moves=moves, name=f"picky_{kind.__name__}")

    causes: dict = {}

    def calls(kind: type) -> None:
        game = picky(kind)
        seen = set()
        for size in range(5, 45):
            try:
                grundy.solve(game(size))
            except grundy.GameError as error:
                seen.add(type(error.__cause__))
        causes[kind] = seen

    kinds = (ValueError, KeyError, ZeroDivisionError)
    threads = [threading.Thread(target=calls, args=(kind,)) for kind in kinds]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert causes == {kind: {kind} for kind in kinds}


def test_wrong_results_are_game_errors() -> None:
    for moves in (lambda n: 5, lambda n: [1.5], lambda n: [object()]):
        with pytest.raises(grundy.GameError) as caught:
            grundy.solve(grundy.Game(moves=moves, name="wrong")(2))
        assert "moves(2)" in str(caught.value)


def test_a_loop_is_reported_as_for_scripts() -> None:
    loopy = grundy.Game(moves=lambda n: [(n + 1) % 3], name="loopy")
    with pytest.raises(grundy.GameError) as caught:
        grundy.solve(loopy(0))
    script = 'script["fn moves(n) { [(n + 1) % 3] }"](0)'
    with pytest.raises(grundy.GameError) as scripted:
        grundy.solve(script)
    assert str(caught.value) == str(scripted.value)
    assert "loopy" in str(caught.value)


def test_a_game_too_large_stops_at_the_state_limit() -> None:
    game = grundy.Game(moves=lambda n: [n - 1, n - 2] if n >= 2 else [], name="chain")
    with pytest.raises(grundy.LimitError) as caught:
        grundy.solve(game(5000), max_states=100)
    assert caught.value.limit == "max_states"


def test_bad_games_and_positions_are_refused() -> None:
    with pytest.raises(TypeError):
        grundy.Game(moves=3)  # type: ignore[arg-type]
    game = subtraction([1])
    with pytest.raises(TypeError):
        game(1.5)
    with pytest.raises(ValueError):
        game(2**70)
    with pytest.raises(grundy.ParseError):
        grundy.solve(game(3), "misere(nim(1))")


@pytest.mark.parametrize("play", ["normal", "misere", "every"])
@pytest.mark.parametrize("amounts", [[1, 2], [1, 3, 4], [2, 5]])
def test_a_python_game_is_played_as_its_twin_under_every_play(play: str, amounts: List[int]) -> None:
    """A Python game under misere, every and rounds answers as the built-in
    subtraction game with the same amounts: outcome, nimber, winning moves'
    count."""
    game = subtraction(amounts)
    twin = "sub[" + ", ".join(map(str, amounts)) + "]"
    for n in range(0, 12):
        for rest in ["nim(2)", "kayles(3)", "nim(0)"]:
            mine = grundy.solve(game(n), rest, play=play).to_dict()
            theirs = grundy.solve(f"{twin}({n})", rest, play=play).to_dict()
            assert mine["outcome"] == theirs["outcome"], (n, rest)
            assert mine["winning_move_count"] == theirs["winning_move_count"], (n, rest)
            assert mine["nimber"] == theirs["nimber"], (n, rest)
        match = grundy.solve(game(n), rounds=3)
        assert match.outcome == grundy.solve(f"rounds[3]({twin}({n}))").outcome, n


def test_play_and_rounds_are_checked() -> None:
    game = subtraction([1, 2])
    assert grundy.solve(game(4), play="misere").position == "misere(subtract(4))"
    assert grundy.solve("nim(1, 1)", play="misere").outcome == "N"
    assert grundy.solve("nim(1, 1)", play="every").position == "every(nim(1, 1))"
    assert grundy.solve(game(4), rounds=2).position == "rounds[2](subtract(4))"
    with pytest.raises(ValueError, match="play"):
        grundy.solve(game(4), play="anti")
    with pytest.raises(ValueError, match="at least 1"):
        grundy.solve(game(4), rounds=0)
    with pytest.raises(ValueError, match="normal sum"):
        grundy.solve(game(4), play="every", rounds=2)


def test_a_deeply_nested_script_value_on_a_small_thread_is_answered() -> None:
    """A script nesting a value 12,000 levels deep, solved from a Python thread
    with 256 KiB of stack: answered (it used to abort the interpreter with a
    stack overflow)."""
    import threading

    script = (
        'script["fn moves(n) { let a = []; for i in 0..12000 { a = [take(a)]; }'
        ' if n > 0 { [n - 1] } else { [] } }"](3)'
    )
    answers = []
    previous = threading.stack_size(256 * 1024)
    try:
        thread = threading.Thread(target=lambda: answers.append(grundy.solve(script)))
        thread.start()
        thread.join()
    finally:
        threading.stack_size(previous)
    assert len(answers) == 1
    assert answers[0].nimber == 1
