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
