//! Games whose moves a front end's functions give: Python's `grundy.Game(moves=...,
//! split=None, describe=None)`, a [`Family`] as [`crate::games`]' script
//! family is for Rhai. Sums, winning moves, misère play, tables and sequences
//! then come from the generic adapter.
//!
//! A position is an integer (64-bit), a text, or a tuple of them, nested as deep
//! as wanted ([`Value`]): held here, so that searches hash and compare positions
//! without the front end (a Python interpreter's lock is taken only to call the
//! functions). The front end calls its functions ([`Functions`]); this module
//! reads what they return, names the game and the call in every error, and
//! writes positions and moves.

use std::fmt::{self, Write as _};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::family::{Family, parts};
use crate::sums::position::Group;
use crate::theory::limits::SearchError;

/// A position of a game given by functions.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// An integer.
    Integer(i64),
    /// A text.
    Text(Box<str>),
    /// A tuple (Python's lists are read as tuples).
    Tuple(Box<[Value]>),
}

impl Value {
    /// Appends the value as Python writes it: `7`, `'abc'`, `(5, 3)`, `(5,)`.
    pub fn write(&self, out: &mut String) {
        match self {
            Self::Integer(n) => {
                let _ = write!(out, "{n}");
            }
            Self::Text(text) => {
                out.push('\'');
                for c in text.chars() {
                    match c {
                        '\'' | '\\' => {
                            out.push('\\');
                            out.push(c);
                        }
                        '\n' => out.push_str("\\n"),
                        c => out.push(c),
                    }
                }
                out.push('\'');
            }
            Self::Tuple(items) => {
                out.push('(');
                write_items(out, items);
                if items.len() == 1 {
                    out.push(',');
                }
                out.push(')');
            }
        }
    }

    /// The value as [`Value::write`] writes it.
    #[must_use]
    pub fn written(&self) -> String {
        let mut out = String::new();
        self.write(&mut out);
        out
    }
}

/// Writes `items` separated by `, `.
fn write_items(out: &mut String, items: &[Value]) {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        item.write(out);
    }
}

/// One of a game's functions that return positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Function {
    /// `moves(p)`: the positions one move from `p` leads to.
    Moves,
    /// `split(p)`: the independent parts `p` is the sum of.
    Split,
}

impl Function {
    /// The function's name: `moves`, `split`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Moves => "moves",
            Self::Split => "split",
        }
    }
}

/// Why a call of a game's function gave no list of positions, as the front
/// end saw it; [`Game`] writes the message, naming the game and the call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Wrong {
    /// The function raised an error: its kind (`ValueError`) and text.
    Raised {
        /// The kind of error (the exception's class).
        kind: String,
        /// What it says.
        message: String,
    },
    /// It returned something that is not a list: `a int`, said by the front end.
    NotAList(String),
    /// Reading the list failed: why.
    Unreadable(String),
    /// Element `index` (from 0) of the list is not a position: why.
    NotAPosition {
        /// Its index, from 0.
        index: usize,
        /// Why it is not one.
        why: String,
    },
    /// The list had more than the limit of positions asked.
    TooMany,
    /// The argument could not be handed to the function: why.
    Argument(String),
}

/// What reads the entries of a list a function returned, one by one: a
/// position, or why the entry is not one ([`Functions::call`]).
pub type Reader<'a> = dyn FnMut(Result<Value, String>) -> Result<(), Wrong> + 'a;

/// The functions of a game, called by its front end (with the interpreter's
/// lock, for Python).
pub trait Functions: Send + Sync + 'static {
    /// Calls `function` (`split` only when the game has one) on `position`
    /// and hands each entry of the list it returns to `read`, as a position
    /// or why it is not one, until `read` refuses one.
    ///
    /// # Errors
    /// What went wrong, in the front end's words ([`Wrong`]), or what `read`
    /// refused.
    fn call(
        &self,
        function: Function,
        position: &Value,
        read: &mut Reader<'_>,
    ) -> Result<(), Wrong>;

    /// The text `describe(from, to)` gives a move, `to` being the parts the
    /// move leaves (handed to the function as a list when `as_list`, else
    /// the one position); `None` when the game has no `describe` or it failed.
    fn describe(&self, from: &Value, to: &[Value], as_list: bool) -> Option<String>;

    /// Runs `work` with the functions callable: a front end holding a lock to
    /// call them (Python's interpreter lock) takes it once for all the calls
    /// of `work`. The default runs `work` as it is.
    fn enter(&self, work: &mut dyn FnMut()) {
        work();
    }
}

/// Numbers each game, so that two games are the same family only when they
/// are the same game made once.
static NEXT_GAME: AtomicU64 = AtomicU64::new(0);

/// A game whose moves [`Functions`] give.
pub struct Game {
    id: u64,
    name: String,
    split: bool,
    functions: Box<dyn Functions>,
}

impl fmt::Debug for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Game")
            .field("name", &self.name)
            .field("split", &self.split)
            .finish_non_exhaustive()
    }
}

impl PartialEq for Game {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}

impl Game {
    /// The game of `functions`, named `name`, or without one after its
    /// `moves` function's own name (`moves_name`: Python's `__name__`),
    /// `game` when that is anonymous (`<lambda>`) or `moves`. `split` says
    /// whether it has a `split` function.
    ///
    /// # Errors
    /// The message for a name that is not a word: empty, or with brackets or `+`.
    pub fn new(
        name: Option<String>,
        moves_name: &str,
        split: bool,
        functions: Box<dyn Functions>,
    ) -> Result<Self, String> {
        let name = name.unwrap_or_else(|| {
            if moves_name.is_empty() || moves_name.starts_with('<') || moves_name == "moves" {
                "game".to_owned()
            } else {
                moves_name.to_owned()
            }
        });
        if name.is_empty() || name.contains(['(', ')', '+', '[', ']']) {
            return Err(format!(
                "a game's name is a word, without brackets or `+`: not {name:?}"
            ));
        }
        Ok(Self {
            id: NEXT_GAME.fetch_add(1, Ordering::Relaxed),
            name,
            split,
            functions,
        })
    }

    /// The game's name, as its positions are written: `name(7)`.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The positions a term `name(args)` stands for: with `split`, each
    /// argument is one; without, one argument is the position and several
    /// are one tuple.
    ///
    /// # Errors
    /// The message for a term without arguments (a game without `split`).
    pub fn term(&self, mut given: Vec<Value>) -> Result<Vec<Value>, String> {
        if self.split {
            return Ok(given);
        }
        let name = &self.name;
        match given.len() {
            0 => Err(format!(
                "game `{name}` takes its position: {name}(7), {name}(5, 3), {name}('abc')"
            )),
            1 => Ok(vec![given.remove(0)]),
            _ => Ok(vec![Value::Tuple(given.into())]),
        }
    }

    /// The term of a sum whose parts are `positions` of this game: `name(7)`.
    #[must_use]
    pub fn group(self: &Arc<Self>, positions: &[Value]) -> Group {
        Group::new(self.name.as_str(), parts(self, positions.iter().cloned()))
    }

    /// The parts of `positions`: `split` of each, or the positions
    /// themselves without `split`.
    ///
    /// # Errors
    /// [`SearchError::Script`] saying how `split` failed.
    pub fn parts_of(&self, positions: Vec<Value>) -> Result<Vec<Value>, SearchError> {
        let mut found = Ok(Vec::new());
        self.functions.enter(&mut || {
            found = positions
                .iter()
                .map(|position| self.split_one(position))
                .collect::<Result<Vec<_>, _>>()
                .map(|parts| parts.into_iter().flatten().collect());
        });
        found
    }

    /// The parts of one position (the functions entered).
    fn split_one(&self, position: &Value) -> Result<Vec<Value>, SearchError> {
        if self.split {
            self.called(Function::Split, position, usize::MAX)
        } else {
            Ok(vec![position.clone()])
        }
    }

    /// `function(position)`, its failure said as a [`SearchError`]: a script
    /// error naming the game and the call, or the state limit.
    fn called(
        &self,
        function: Function,
        position: &Value,
        limit: usize,
    ) -> Result<Vec<Value>, SearchError> {
        let name = function.name();
        let call = format!("{name}({})", position.written());
        // Each entry read in turn: more than `limit` are too many.
        let mut positions = Vec::new();
        let mut read = |entry: Result<Value, String>| {
            let index = positions.len();
            positions.push(entry.map_err(|why| Wrong::NotAPosition { index, why })?);
            if positions.len() > limit {
                return Err(Wrong::TooMany);
            }
            Ok(())
        };
        let why = match self.functions.call(function, position, &mut read) {
            Ok(()) => return Ok(positions),
            Err(Wrong::TooMany) => return Err(SearchError::StateLimit { limit }),
            Err(Wrong::Argument(why)) => return Err(SearchError::Script { message: why }),
            Err(Wrong::Raised { kind, message }) => format!("raised {kind}: {message}"),
            Err(Wrong::NotAList(what)) => {
                format!("returned {what}, not a list of positions (`{name}` returns e.g. `[4, 2]`)")
            }
            Err(Wrong::Unreadable(why)) => format!("failed while its result was read: {why}"),
            Err(Wrong::NotAPosition { index, why }) => {
                format!("returned a list whose element {index} (from 0) is not a position: {why}")
            }
        };
        Err(SearchError::Script {
            message: format!("game `{}`: {call} {why}", self.name),
        })
    }
}

impl Family for Game {
    type Position = Value;

    /// A tuple of two or more items is written `5, 3` when it is the whole
    /// term's position (a game without `split`), as `g(5, 3)` makes it.
    fn write_position(&self, position: &Value, out: &mut String) {
        match position {
            Value::Tuple(items) if !self.split && items.len() >= 2 => write_items(out, items),
            other => other.write(out),
        }
    }

    fn moves(&self, position: &Value, limit: usize) -> Result<Vec<Vec<Value>>, SearchError> {
        let mut found = Ok(Vec::new());
        self.functions.enter(&mut || {
            found = self
                .called(Function::Moves, position, limit)
                .and_then(|options| options.iter().map(|o| self.split_one(o)).collect());
        });
        found
    }

    fn describe_move(&self, from: &Value, to: &[Value]) -> String {
        if let Some(text) = self.functions.describe(from, to, self.split) {
            return text;
        }
        let written = match to {
            [one] if !self.split => one.written(),
            [] => "nothing".to_owned(),
            parts => parts
                .iter()
                .map(Value::written)
                .collect::<Vec<_>>()
                .join(" + "),
        };
        format!("move to {written}")
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::sums::analysis::{SolveOptions, solve};
    use crate::sums::position::Position;
    use crate::theory::game::Convention;

    /// Subtraction of 1, 3 or 4 on integers; a pair `(a, b)` splits into two
    /// heaps; `describe` says `take k`; 13 raises, 14 returns a non-list, -1
    /// a list whose second entry is not a position.
    struct Heaps {
        split: bool,
    }

    impl Functions for Heaps {
        fn call(
            &self,
            function: Function,
            position: &Value,
            read: &mut Reader<'_>,
        ) -> Result<(), Wrong> {
            let found = match (function, position) {
                (Function::Split, Value::Tuple(items)) => items.to_vec(),
                (Function::Split, other) => vec![other.clone()],
                (Function::Moves, Value::Integer(13)) => {
                    return Err(Wrong::Raised {
                        kind: "ValueError".into(),
                        message: "unlucky".into(),
                    });
                }
                (Function::Moves, Value::Integer(14)) => {
                    return Err(Wrong::NotAList("a int".into()));
                }
                (Function::Moves, Value::Integer(-1)) => {
                    read(Ok(Value::Integer(14)))?;
                    return read(Err("a float".into()));
                }
                (Function::Moves, Value::Integer(n)) => [1, 3, 4]
                    .iter()
                    .filter(|&&k| k <= *n)
                    .map(|k| Value::Integer(n - k))
                    .collect(),
                (Function::Moves, _) => Vec::new(),
            };
            found.into_iter().try_for_each(|value| read(Ok(value)))
        }

        fn describe(&self, from: &Value, to: &[Value], _as_list: bool) -> Option<String> {
            match (from, to) {
                (Value::Integer(a), [Value::Integer(b)]) if !self.split => {
                    Some(format!("take {}", a - b))
                }
                _ => None,
            }
        }
    }

    fn game(split: bool) -> Arc<Game> {
        Arc::new(Game::new(None, "<lambda>", split, Box::new(Heaps { split })).unwrap())
    }

    fn answer(
        game: &Arc<Game>,
        positions: Vec<Value>,
    ) -> Result<crate::sums::analysis::Answer, SearchError> {
        let found = game.parts_of(game.term(positions).unwrap())?;
        let position = Position::sum(Convention::Normal, vec![game.group(&found)]);
        solve(&position, &SolveOptions::default())
    }

    #[test]
    fn values_are_written_as_python_writes_them() {
        let value = Value::Tuple(
            vec![
                Value::Integer(-5),
                Value::Text("it's\n".into()),
                Value::Tuple(vec![Value::Integer(1)].into()),
            ]
            .into(),
        );
        assert_eq!(value.written(), r"(-5, 'it\'s\n', (1,))");
    }

    #[test]
    fn a_game_is_searched_through_its_functions() {
        let game = game(false);
        assert_eq!(game.name(), "game");
        // Subtraction of 1, 3, 4: the values 0 1 0 1 2 3 2, with period 7.
        let found = answer(&game, vec![Value::Integer(11)]).unwrap();
        assert_eq!(found.nimber, Some(2u32.into()));
        assert_eq!(found.winning_moves[0].description, "take 4");
        let tuple = game
            .term(vec![Value::Integer(5), Value::Integer(3)])
            .unwrap();
        let mut out = String::new();
        game.write_position(&tuple[0], &mut out);
        assert_eq!(out, "5, 3");
        assert!(
            game.term(Vec::new())
                .unwrap_err()
                .contains("takes its position")
        );
    }

    #[test]
    fn a_split_game_is_the_sum_of_its_parts() {
        let game = game(true);
        let pair = Value::Tuple(vec![Value::Integer(2), Value::Integer(2)].into());
        let found = answer(&game, vec![pair]).unwrap();
        assert_eq!(found.nimber, Some(0u32.into()));
        assert_eq!(
            game.describe_move(&Value::Integer(3), &[Value::Integer(1), Value::Integer(1)]),
            "move to 1 + 1"
        );
    }

    #[test]
    fn a_failing_function_is_named_with_the_game_and_the_call() {
        let game = game(false);
        let Err(SearchError::Script { message }) = answer(&game, vec![Value::Integer(17)]) else {
            panic!("no script error");
        };
        assert_eq!(message, "game `game`: moves(13) raised ValueError: unlucky");
        let Err(SearchError::Script { message }) = game.moves(&Value::Integer(14), 10) else {
            panic!("no script error");
        };
        assert!(
            message.contains("moves(14) returned a int, not a list"),
            "{message}"
        );
        let Err(SearchError::Script { message }) = game.moves(&Value::Integer(-1), 10) else {
            panic!("no script error");
        };
        assert_eq!(
            message,
            "game `game`: moves(-1) returned a list whose element 1 (from 0) is not a position: a float"
        );
        assert!(matches!(
            game.moves(&Value::Integer(9), 2),
            Err(SearchError::StateLimit { limit: 2 })
        ));
    }

    #[test]
    fn a_name_is_a_word() {
        let named = |name: &str| {
            Game::new(
                Some(name.into()),
                "moves",
                false,
                Box::new(Heaps { split: false }),
            )
        };
        assert_eq!(named("take").unwrap().name(), "take");
        assert!(named("a(b").is_err());
        assert!(named("").is_err());
        let own = Game::new(None, "subtract", false, Box::new(Heaps { split: false })).unwrap();
        assert_eq!(own.name(), "subtract");
    }
}
