"""Type stubs of grundy's native module (Rust, PyO3): the library called
directly. Use the package's functions (``grundy.solve``, ...), not these."""

from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

DEFAULTS: Dict[str, int]
VERSION: str

Limits = Tuple[int, int, int, Union[int, str], int, Optional[float]]

class Solved:
    @property
    def json(self) -> str: ...
    @property
    def position(self) -> str: ...
    @property
    def outcome(self) -> str: ...
    @property
    def nimber(self) -> Optional[int]: ...
    @property
    def winning_move_count(self) -> Optional[int]: ...
    def parts(self) -> List[Tuple[str, Optional[int]]]: ...

class GamePosition:
    """A position of a :class:`Game`: ``g(7)``."""

class Game:
    """A game whose moves a Python function gives.

    ``moves(p)`` returns the positions one move from ``p`` leads to, one entry
    per move; ``split(p)`` (optional) the independent parts ``p`` is the sum
    of; ``describe(from, to)`` (optional) the text naming a move. A position is
    an int, a str, or a tuple (or list) of them. ``g(7)`` is a position, used
    in ``grundy.solve``, ``grundy.seq`` and ``grundy.table`` as built-in ones.
    """

    def __init__(
        self,
        moves: Callable[[Any], Sequence[Any]],
        split: Optional[Callable[[Any], Sequence[Any]]] = ...,
        describe: Optional[Callable[[Any, Any], str]] = ...,
        name: Optional[str] = ...,
    ) -> None: ...
    def __call__(self, *args: Any) -> GamePosition: ...
    @property
    def name(self) -> str: ...

def solve(
    parts: Tuple[Any, ...],
    limits: Limits,
    max_moves: int = ...,
    no_moves: bool = ...,
    play: str = ...,
    rounds: Optional[int] = ...,
) -> Solved: ...
def parse(expression: str, limits: Limits) -> str: ...
def games() -> List[Dict[str, Any]]: ...
def contract_integer(value: int) -> str: ...
def seq(
    rule: Union[str, Game],
    n: int,
    limits: Limits,
    until_proven: bool = ...,
    max_heap: int = ...,
    method: str = ...,
    require_proof: Optional[bool] = ...,
    progress: Optional[Callable[[int, int], Any]] = ...,
) -> Tuple[str, bytes, Optional[Tuple[int, int, int, bool, str]], bool, bool]: ...
def table(
    expression: Union[str, Callable[..., Any]],
    variables: List[Tuple[str, int, int]],
    limits: Limits,
    outcome: bool = ...,
    max_cells: int = ...,
) -> Tuple[List[Union[int, str]], bool, List[str], bool]: ...
def survey(
    rules: List[str],
    n: int,
    limits: Limits,
    prove: bool,
    max_heap: int,
    threads: Optional[int],
    on_row: Callable[[int, Tuple[Optional[bytes], Optional[Tuple[int, int, int, bool, str]], float, Optional[BaseException]]], Any],
) -> None: ...
