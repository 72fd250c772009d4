"""The limits every computation takes as keyword arguments, with the command
line's names (``grundy solve --help``) and defaults."""

from __future__ import annotations

from typing import Optional, Tuple, Union

from . import _native

DEFAULTS = dict(_native.DEFAULTS)

#: A number of bytes: an int, or a str such as ``"512M"`` or ``"4G"``.
Bytes = Union[int, str]

Limits = Tuple[int, int, int, Bytes, int, Optional[float]]


def limits(
    max_states: int,
    max_digits: int,
    max_heap: int,
    max_memory: Bytes,
    max_work: int,
    max_time: Optional[float],
) -> Limits:
    """The limits as the native module takes them."""
    return (max_states, max_digits, max_heap, max_memory, max_work, max_time)
