"""The example notebook runs end to end (nbclient), and shows what it should."""

from __future__ import annotations

import nbformat
from nbclient import NotebookClient

from conftest import REPOSITORY


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
    # Without ipywidgets, tqdm's notebook bar cannot be drawn: the text bar is.
    notebook = nbformat.v4.new_notebook()
    notebook.cells.append(nbformat.v4.new_code_cell("import grundy\ns = grundy.seq('grundy_game', 1_000_000)\nprint(len(s))"))
    NotebookClient(notebook, timeout=120, kernel_name="python3").execute()
    outputs = notebook.cells[0].outputs
    assert not [o for o in outputs if o.output_type == "error"], outputs
    shown = "".join(o.get("text", "") for o in outputs) + "".join(str(o.get("data", "")) for o in outputs)
    assert "1000001" in shown
    assert "values" in shown, f"no progress bar: {shown[:500]}"


def test_a_long_survey_in_a_notebook_shows_a_progress_bar() -> None:
    notebook = nbformat.v4.new_notebook()
    notebook.cells.append(
        nbformat.v4.new_code_cell(
            "import grundy\nframe = grundy.survey(['grundy_game', 'kayles'], 1_000_000, prove=False, threads=1)\nprint(len(frame))"
        )
    )
    NotebookClient(notebook, timeout=120, kernel_name="python3").execute()
    outputs = notebook.cells[0].outputs
    assert not [o for o in outputs if o.output_type == "error"], outputs
    shown = "".join(o.get("text", "") for o in outputs) + "".join(str(o.get("data", "")) for o in outputs)
    assert "2\n" in shown
    assert "rules" in shown, f"no progress bar: {shown[:500]}"
