"""grundy.survey and grundy.survey_boards: in parallel on local processes and on
a Dask cluster, errors as rows, resumed from Parquet."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import grundy
from grundy._survey import COLUMNS

TWO_DIGIT_CODES = [f"0.{a}{b}" for a, b in itertools.product("01234567", repeat=2)]


def assert_same_rows(left: pd.DataFrame, right: pd.DataFrame) -> None:
    assert list(left.columns) == COLUMNS and list(right.columns) == COLUMNS
    assert list(left["rule"]) == list(right["rule"])
    for column in ("period", "preperiod", "saltus", "proven", "proof", "max_nimber", "error"):
        assert left[column].tolist() == right[column].tolist(), column
    for a, b in zip(left["values"], right["values"]):
        assert (a is None and b is None) or np.array_equal(a, b)


@pytest.fixture(scope="module")
def sequential() -> pd.DataFrame:
    return grundy.survey(TWO_DIGIT_CODES, 10_000, processes=1)


def test_rows_are_the_sequences(sequential: pd.DataFrame) -> None:
    assert len(sequential) == 64 and sequential["error"].isna().all()
    reach = 4 * 10_000
    for rule, row in zip(TWO_DIGIT_CODES, sequential.itertuples()):
        plain = grundy.seq(f"octal[{rule}]", 10_000)
        assert np.array_equal(row.values, plain.values.astype(np.uint32)), rule
        assert row.max_nimber == int(plain.values.max())
        assert row.seconds >= 0
        if not row.proven:
            # No proof up to 4n: seq, asked for one, says so.
            with pytest.raises(grundy.LimitError):
                grundy.seq(f"octal[{rule}]", 10_000, until_proven=True, max_heap=reach)
            continue
        proven = grundy.seq(f"octal[{rule}]", 10_000, until_proven=True, max_heap=reach)
        assert (row.period, row.preperiod, row.saltus, row.proven, row.proof) == (
            proven.period,
            proven.preperiod,
            proven.saltus,
            True,
            proven.proof,
        ), rule
    kayles = sequential[sequential["rule"] == "0.77"].iloc[0]
    assert (kayles["period"], kayles["preperiod"], kayles["proven"]) == (12, 71, True)
    assert sequential["proven"].sum() >= 40


def test_a_dask_local_cluster_of_two_workers_gives_the_same_rows(sequential: pd.DataFrame) -> None:
    from dask.distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with Client(cluster) as client:
            distributed = grundy.survey(TWO_DIGIT_CODES, 10_000, client=client)
    assert_same_rows(distributed, sequential)


def test_local_processes_give_the_same_rows(sequential: pd.DataFrame) -> None:
    assert_same_rows(grundy.survey(TWO_DIGIT_CODES, 10_000, processes=2), sequential)


def test_failed_and_limited_tasks_are_rows_with_their_error() -> None:
    frame = grundy.survey(["0.07", "octal[0.9]", "not_a_game", "0.6"], 100_000, prove=False, processes=2)
    errors = dict(zip(frame["rule"], frame["error"]))
    assert errors["0.07"] is None and errors["0.6"] is None
    assert errors["octal[0.9]"].startswith("LimitError: ") and "max_work" in errors["octal[0.9]"]
    assert errors["not_a_game"].startswith("ParseError: ")
    assert frame.loc[frame["rule"] == "0.6", "proven"].iloc[0] == False  # noqa: E712
    assert pd.isna(frame.loc[frame["rule"] == "not_a_game", "period"].iloc[0])


def test_a_survey_resumes_from_its_parquet_file(tmp_path: Path) -> None:
    path = str(tmp_path / "rows.parquet")
    first = grundy.survey(["0.07", "0.137", "octal[0.9]"], 20_000, processes=1, resume=path)
    kept = pd.read_parquet(path)
    assert list(kept["rule"]) == ["0.07", "0.137", "octal[0.9]"]
    # Rows already finished are taken from the file, not computed again: the
    # file's seconds come back; the row with an error is computed again.
    kept.loc[kept["rule"] == "0.07", "seconds"] = 1234.5
    kept.to_parquet(path, index=False)
    again = grundy.survey(["0.07", "0.137", "octal[0.9]", "0.6"], 20_000, processes=1, resume=path)
    assert list(again["rule"]) == ["0.07", "0.137", "octal[0.9]", "0.6"]
    assert again.loc[again["rule"] == "0.07", "seconds"].iloc[0] == 1234.5
    assert again.loc[again["rule"] == "octal[0.9]", "seconds"].iloc[0] != first.loc[2, "seconds"]
    assert np.array_equal(again["values"][1], first["values"][1])
    assert len(pd.read_parquet(path)) == 4


def test_boards_are_surveyed() -> None:
    frame = grundy.survey_boards("cram", range(1, 4), range(1, 5), processes=2)
    assert list(frame.columns) == ["game", "rows", "cols", "position", "nimber", "outcome", "method", "seconds", "error"]
    for row in frame.itertuples():
        assert row.nimber == grundy.solve(f"cram({row.rows}, {row.cols})", no_moves=True).nimber
    limited = grundy.survey_boards("cram", [5], [7], processes=1, max_states=1000)
    assert limited["error"].iloc[0].startswith("LimitError: ")


def test_a_rule_given_twice_is_named() -> None:
    with pytest.raises(ValueError) as caught:
        grundy.survey(["kayles", "0.137", "kayles"], 100)
    assert "'kayles' is given twice" in str(caught.value)


def test_a_survey_whose_processes_cannot_start_raises(tmp_path: Path) -> None:
    """The README's survey line run as a plain script (no `__main__` guard):
    the spawned workers cannot start, and the survey raises SurveyError
    saying why, instead of returning a frame whose every row is an error."""
    import subprocess
    import sys

    script = tmp_path / "plain.py"
    script.write_text('import grundy\ngrundy.survey(["0.137", "0.07"], 100)\nprint("returned")\n')
    ran = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert ran.returncode != 0
    assert "returned" not in ran.stdout
    assert "SurveyError" in ran.stderr
    assert '__name__ == "__main__"' in ran.stderr
