"""Pictures of sequences and tables (matplotlib), as ``grundy table --plot``
draws them: one variable, the values against it with the P-positions in red;
two, a heat map with the P-positions black."""

from __future__ import annotations

import io
from typing import Any, Optional, Sequence as Seq

import numpy as np


def _pyplot() -> Any:
    try:
        import matplotlib

        if matplotlib.get_backend().lower() not in ("agg", "module://matplotlib_inline.backend_inline"):
            try:
                import IPython  # noqa: F401
            except ImportError:
                matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as error:  # pragma: no cover - depends on the installation
        raise ImportError(
            "plots need matplotlib: pip install matplotlib (or grundy[plot])"
        ) from error
    return plt


def line(xs: Seq[int], values: np.ndarray, name: str, measure: str, title: str) -> Any:
    """The values against one variable, P-positions (value 0) in red."""
    plt = _pyplot()
    figure, axes = plt.subplots(figsize=(8, 3.5))
    xs = np.asarray(xs)
    numbers = np.asarray(values, dtype=float)
    axes.plot(xs, numbers, color="0.55", linewidth=0.8, zorder=1)
    losing = numbers == 0
    axes.scatter(xs[~losing], numbers[~losing], s=6, color="tab:blue", zorder=2, label="N-positions")
    axes.scatter(xs[losing], numbers[losing], s=10, color="red", zorder=3, label="P-positions")
    axes.set_xlabel(name)
    axes.set_ylabel(measure)
    axes.set_title(title)
    axes.legend(loc="upper left", fontsize="small")
    figure.tight_layout()
    plt.close(figure)
    return figure


def heat_map(
    grid: np.ndarray, xs: Seq[int], ys: Seq[int], names: Seq[str], measure: str, title: str
) -> Any:
    """A heat map of a table of two variables, the P-positions (value 0) black;
    the first variable runs down the rows."""
    plt = _pyplot()
    figure, axes = plt.subplots(figsize=(6, 5))
    numbers = np.asarray(grid, dtype=float)
    cmap = plt.get_cmap("viridis").with_extremes(bad="black")
    shown = np.ma.masked_where(numbers == 0, numbers)
    extent = (ys[0] - 0.5, ys[-1] + 0.5, xs[-1] + 0.5, xs[0] - 0.5)
    image = axes.imshow(shown, cmap=cmap, extent=extent, interpolation="nearest", aspect="auto")
    figure.colorbar(image, ax=axes, label=f"{measure} (P-positions black)")
    axes.set_ylabel(names[0])
    axes.set_xlabel(names[1])
    axes.set_title(title)
    figure.tight_layout()
    plt.close(figure)
    return figure


def png(figure: Any) -> Optional[bytes]:
    """The figure as PNG bytes."""
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=80)
    return buffer.getvalue()
