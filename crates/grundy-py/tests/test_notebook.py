"""The example notebook runs end to end (nbclient), and shows what it should."""

from __future__ import annotations

import nbformat
from nbclient import NotebookClient

from conftest import REPOSITORY


#: Makes the default progress bar appear without its second of quiet.
SHOW_AT_ONCE = "import grundy\nimport grundy._sequence\ngrundy._sequence._Progress.QUIET_FOR = 0.0\n"


def test_the_tour_notebook_runs() -> None:
    path = REPOSITORY / "examples" / "notebooks" / "tour.ipynb"
    notebook = nbformat.read(path, as_version=4)
    NotebookClient(notebook, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}).execute()
    outputs = [output for cell in notebook.cells if cell.cell_type == "code" for output in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    html = [o["data"]["text/html"] for o in outputs if "text/html" in o.get("data", {})]
    assert any("nim-sum" in page for page in html)
    pictures = [o for o in outputs if "image/png" in o.get("data", {})]
    assert len(pictures) >= 2  # the sequence's and the table's plots
    text = "".join(o.get("text", "") for o in outputs)
    assert "34 53 True" in text and "picky" in text


def test_a_long_sequence_in_a_notebook_shows_a_progress_bar() -> None:
    # Without ipywidgets, tqdm's notebook bar cannot be drawn: the text bar is,
    # without tqdm's warning. The bar waits for a run to last a second; the
    # test does not wait (a fast machine computes these values in less).
    notebook = nbformat.v4.new_notebook()
    notebook.cells.append(nbformat.v4.new_code_cell(SHOW_AT_ONCE + "s = grundy.seq('grundy_game', 1_000_000)\nprint(len(s))"))
    NotebookClient(notebook, timeout=120, kernel_name="python3").execute()
    outputs = notebook.cells[0].outputs
    assert not [o for o in outputs if o.output_type == "error"], outputs
    shown = "".join(o.get("text", "") for o in outputs) + "".join(str(o.get("data", "")) for o in outputs)
    assert "1000001" in shown
    assert "TqdmWarning" not in shown, shown[:500]
    assert "values" in shown, f"no progress bar: {shown[:500]}"


def test_a_long_survey_in_a_notebook_shows_a_progress_bar() -> None:
    notebook = nbformat.v4.new_notebook()
    notebook.cells.append(
        nbformat.v4.new_code_cell(
            SHOW_AT_ONCE + "frame = grundy.survey(['grundy_game', 'kayles'], 1_000_000, prove=False, threads=1)\nprint(len(frame))"
        )
    )
    NotebookClient(notebook, timeout=120, kernel_name="python3").execute()
    outputs = notebook.cells[0].outputs
    assert not [o for o in outputs if o.output_type == "error"], outputs
    shown = "".join(o.get("text", "") for o in outputs) + "".join(str(o.get("data", "")) for o in outputs)
    assert "2\n" in shown
    assert "rules" in shown, f"no progress bar: {shown[:500]}"
