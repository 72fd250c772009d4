//! Games defined by the user in a [Rhai](https://rhai.rs) script: `script[@PATH](ARGS)`.
//!
//! # The term
//! `script[@g.rhai](7)` reads the script from the file `g.rhai` (a path relative to
//! the current directory); `script["fn moves(p) { ... }"](7)` gives it inline (for
//! tests and one-liners; `\"` stands for a quote inside it, or use Rhai's backquoted
//! strings). The arguments are the position:
//!
//! - an integer: `script[@g.rhai](7)`;
//! - a list of integers: `script[@wythoff.rhai](5, 3)` (several integer arguments are
//!   one list) or `script[@wythoff.rhai]([5, 3])` (the same position);
//! - a text: `script[@g.rhai]("abc")`.
//!
//! Integers are 64-bit (`i64`); one out of range is refused at its column. A script
//! that defines `split` (below) gives each argument its own meaning instead: every
//! argument is one position (a list is written `[5, 3]` there), and the term is the
//! sum of them all, as the heaps of `lasker(3, 4)` are.
//!
//! # The script
//! - `fn moves(p)` (required) returns an array of the positions one move from `p`
//!   leads to, one entry per move as a player makes it: integers, arrays of integers
//!   or strings.
//! - `fn split(p)` (optional) returns the independent parts `p` is the sum of (an
//!   array of positions; `[]` for a position with no move at all). It is applied to
//!   the starting position and to every position a move leads to, so a move may split
//!   a heap: Lasker's Nim returns `[a, b]` from `moves` and `split([a, b])` is
//!   `[a, b]`, each part a heap of its own. Parts are not split again.
//! - `fn describe(from, to)` (optional) returns the text that names a move in answers
//!   (`"take 2"`); `to` is the position the move leads to, or, when the script
//!   defines `split`, the array of its parts. Without it a move is named by where it
//!   goes (`move to 5`).
//!
//! Functions see only their arguments (Rhai functions do not see the script's
//! top-level variables, which are never run): write constants inside the functions.
//! A game is the moves alone: sums with built-in games, winning moves, misère play and
//! `every(...)` come from the generic adapter ([`crate::family`]), and
//! `grundy seq 'script[@g.rhai]' -n N` computes the values of the integers `0..=N` by
//! mex ([`Script::sequence`]).
//!
//! # The sandbox
//! Rhai's engine has no access to files or the network: grundy builds it without
//! modules (`import` cannot read a file), sends `print` and `debug` to standard error,
//! and replaces `sleep` (which would block where no operation is counted) by an error.
//! Each call of a script function may run at most [`operations_per_call`] operations,
//! a hundredth of the work limit (`--max-work STEPS`, 3·10^8 by default: 3·10^6
//! operations, about a tenth of a second), so an endless loop stops with exit 3 naming
//! `--max-work`. Calls nest at most [`MAX_CALL_LEVELS`] deep, and strings, arrays and
//! maps hold at most [`MAX_DATA_SIZE`] characters or elements (counted through nested
//! arrays), which bounds the memory one value takes. A game that loops (a position reachable from
//! itself) is found by the generic search ([`SearchError::Cycle`]), and a huge state
//! space stops at `--max-states`.
//!
//! ```
//! use grundy::analysis::{solve, SolveOptions};
//! use grundy::catalogue::build;
//! use grundy::lang::parse;
//!
//! // Take 1 or 2 from a heap: G(n) = n mod 3.
//! let text = r#"script["fn moves(n) { let m = []; if n >= 1 { m.push(n - 1) } if n >= 2 { m.push(n - 2) } m }"](7) + nim(1)"#;
//! let answer = solve(&build(&parse(text).unwrap()).unwrap(), &SolveOptions::default()).unwrap();
//! assert_eq!(answer.nimber, Some(0u32.into()));
//! ```

use std::cell::RefCell;
use std::fmt;
use std::io::Write;
use std::ops::ControlFlow;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use num_traits::ToPrimitive;
use rhai::{AST, Array, CallFnOptions, Dynamic, Engine, EvalAltResult, FuncArgs, ImmutableString};

use crate::family::Family;
use crate::lang::arguments::regular_file;
use crate::lang::{LangError, Span, Term, Value, ValueKind};
use crate::registry::{BuildContext, DrawingKind, EntryKind, GameEntry};
use crate::sequence::{GrundyValues, Progress};
use crate::sums::position::Group;
use crate::theory::cancel::stop_requested;
use crate::theory::nimber::MexSet;
use crate::theory::solver::{Limit, Refusal, SearchError};

/// The deepest script function calls may nest (recursion included).
pub const MAX_CALL_LEVELS: usize = 48;
/// The deepest expressions may nest in a script (half as deep inside functions).
pub const MAX_EXPRESSION_DEPTH: usize = 64;
/// The most characters a string, or elements an array or map, may hold in a script
/// (nested arrays count all their elements). Rhai checks a value's size by walking
/// it after each change, so a value grown element by element costs the square of
/// its size: 2^15 elements take half a second to reach (2^20 took hours), and hold
/// at most 512 KiB (16 bytes an element).
pub const MAX_DATA_SIZE: usize = 1 << 15;
/// The largest script file read, in bytes.
pub const MAX_SCRIPT_BYTES: u64 = 1 << 20;
/// Work steps (as `--max-work` counts them) per script operation. Not a measure of
/// speed (a Rhai operation takes about 30 ns, three steps' time): the ratio that gives
/// one call 3·10^6 operations under the default work limit, a tenth of a second, so
/// that an endless loop stops at once while any sensible `moves` has room to spare.
const STEPS_PER_OPERATION: u64 = 100;

/// The operations one call of a script function may run within the work limit `work`
/// (`--max-work`): a hundredth of it, and at least one.
#[must_use]
pub const fn operations_per_call(work: u64) -> u64 {
    let operations = work / STEPS_PER_OPERATION;
    if operations == 0 { 1 } else { operations }
}

/// A position of a scripted game: what the script's functions take and return.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ScriptPosition {
    /// An integer.
    Integer(i64),
    /// An array of integers.
    List(Box<[i64]>),
    /// A string.
    Text(Box<str>),
}

impl ScriptPosition {
    fn to_dynamic(&self) -> Dynamic {
        match self {
            Self::Integer(n) => Dynamic::from_int(*n),
            Self::List(items) => {
                Dynamic::from_array(items.iter().map(|&n| Dynamic::from_int(n)).collect())
            }
            Self::Text(text) => Dynamic::from(ImmutableString::from(&**text)),
        }
    }

    /// The position as the script sees it: `7`, `[5, 3]`, `"abc"`.
    fn write_bracketed(&self, out: &mut String) {
        match self {
            Self::Integer(n) => out.push_str(&n.to_string()),
            Self::List(items) => {
                out.push('[');
                write_list(out, items);
                out.push(']');
            }
            Self::Text(text) => out.push_str(&text_value(text)),
        }
    }

    fn bracketed(&self) -> String {
        let mut out = String::new();
        self.write_bracketed(&mut out);
        out
    }
}

fn write_list(out: &mut String, items: &[i64]) {
    for (i, n) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(&n.to_string());
    }
}

/// A text as the position language quotes it.
fn text_value(text: &str) -> String {
    Value {
        kind: ValueKind::Text(text.to_owned()),
        span: Span::default(),
    }
    .to_string()
}

/// A compiled script: the rules of one scripted game.
///
/// Two scripts are equal when their source texts are, whatever file they were read
/// from, so two terms reading the same script share their searched positions.
pub struct Script {
    source: Arc<str>,
    /// How messages name the script: "`g.rhai`", or "the inline script".
    name: String,
    engine: Engine,
    ast: AST,
    has_split: bool,
    has_describe: bool,
    operations: u64,
    /// The script's number, and the thread that compiled it: other threads
    /// run copies of their own ([`COPIES`]).
    id: u64,
    home: std::thread::ThreadId,
}

impl fmt::Debug for Script {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Script")
            .field("name", &self.name)
            .field("has_split", &self.has_split)
            .field("has_describe", &self.has_describe)
            .field("operations", &self.operations)
            .finish_non_exhaustive()
    }
}

impl PartialEq for Script {
    fn eq(&self, other: &Self) -> bool {
        self.source == other.source
    }
}

/// Why a call of a script function failed.
enum CallError {
    /// A mistake of the script: exit 2.
    Script(String),
    /// A limit of the sandbox: exit 3.
    Limit(Refusal),
    /// The work on this thread was cancelled ([`crate::theory::cancel`]).
    Cancelled,
}

impl CallError {
    fn into_search(self) -> SearchError {
        match self {
            Self::Script(message) => SearchError::Script { message },
            Self::Limit(refusal) => SearchError::TheoryLimit { refusal },
            Self::Cancelled => SearchError::Cancelled,
        }
    }

    fn into_lang(self, span: Span) -> LangError {
        match self {
            Self::Script(message) => LangError::new(message, span),
            Self::Cancelled => LangError::stopped(span),
            Self::Limit(refusal) => {
                let error = LangError::new(refusal.reason, span);
                match refusal.raised_by.first() {
                    Some(&limit) => error.as_limit(limit),
                    None => error,
                }
            }
        }
    }
}

/// Writes a script's `print` and `debug` output to standard error, ignoring a
/// closed stream (never a panic).
fn to_stderr(text: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{text}");
}

/// Numbers the scripts compiled, for the other threads' copies.
static NEXT_SCRIPT: AtomicU64 = AtomicU64::new(0);

/// A thread's own copy of a script: its engine and its compiled functions.
type ScriptCopy = (Engine, AST);

/// How many scripts' copies a thread keeps (the most recently used).
const COPIES_PER_THREAD: usize = 4;

/// The bytes a thread's copy of a script holds, as the memory limit counts
/// them: a sandbox engine and the compiled functions, [`COPY_BYTES`] and
/// [`COPY_BYTES_PER_SOURCE_BYTE`] a byte of the source. Generous: copies of
/// the example scripts, and of sources of 70 to 90 kB made of them, took
/// 0.1 to 0.25 MB each, by the resident memory of 200 copies.
const COPY_BYTES: usize = 256 << 10;
const COPY_BYTES_PER_SOURCE_BYTE: usize = 8;

thread_local! {
    /// This thread's own copies of the scripts it ran that another thread
    /// compiled, by number: the engine and the compiled functions are
    /// reference-counted, and two threads calling one copy contend for those
    /// counts at every call (a cheap script ran slower on two threads than on
    /// one).
    static COPIES: RefCell<Vec<(u64, Rc<ScriptCopy>)>> = const { RefCell::new(Vec::new()) };
}

/// Rhai's engine as grundy's sandbox: each call of a script's functions runs at
/// most `operations` operations.
fn sandbox(operations: u64) -> Engine {
    let mut engine = Engine::new();
    engine
        .set_max_operations(operations.max(1))
        .set_max_call_levels(MAX_CALL_LEVELS)
        // Rhai's own defaults differ between debug and release builds (32 and 16 in
        // debug): fixed here so that a script means the same in both.
        .set_max_expr_depths(MAX_EXPRESSION_DEPTH, MAX_EXPRESSION_DEPTH / 2)
        .set_max_string_size(MAX_DATA_SIZE)
        .set_max_array_size(MAX_DATA_SIZE)
        .set_max_map_size(MAX_DATA_SIZE)
        .set_strict_variables(true)
        // A cancelled computation stops between operations, however long
        // one call of the script runs.
        .on_progress(|operations| {
            (operations.is_multiple_of(CANCEL_EVERY_OPERATIONS) && stop_requested())
                .then_some(Dynamic::UNIT)
        })
        .on_print(to_stderr)
        .on_debug(|text, _, _| to_stderr(text));
    // Rhai's standard library can block the thread (`sleep(seconds)`), where no
    // operation is counted: refused instead, so no script can hang.
    let no_sleep = || -> Result<(), Box<EvalAltResult>> {
        Err("`sleep` is not available in grundy's sandbox".into())
    };
    engine
        .register_fn("sleep", move |_: i64| no_sleep())
        .register_fn("sleep", move |_: f64| no_sleep());
    engine
}

impl Script {
    /// Compiles `source`, named `name` in messages ("`g.rhai`"), each call of its
    /// functions running at most `operations` operations.
    ///
    /// # Errors
    /// A syntax error (with the script's line and column), or a missing or
    /// malformed `fn moves(p)`, `fn split(p)` or `fn describe(from, to)`, in words.
    pub fn compile(source: &str, name: &str, operations: u64) -> Result<Self, String> {
        let engine = sandbox(operations);
        let ast = engine.compile(source).map_err(|error| {
            let rhai::ParseError(kind, at) = error;
            format!("syntax error in {name} at {}: {kind}", place(at))
        })?;
        let arity = |wanted: &str| {
            ast.iter_functions()
                .filter(|function| function.name == wanted)
                .map(|function| function.params.len())
                .collect::<Vec<_>>()
        };
        let check =
            |function: &str, params: usize, signature: &str| match arity(function).as_slice() {
                [] => Ok(false),
                counts if counts.contains(&params) => Ok(true),
                _ => Err(format!(
                    "{name} defines `{function}` without the form grundy calls: `{signature}`"
                )),
            };
        if !check("moves", 1, "fn moves(p)")? {
            return Err(format!(
                "{name} defines no `fn moves(p)`, which returns the array of positions one move from `p` leads to"
            ));
        }
        let has_split = check("split", 1, "fn split(p)")?;
        let has_describe = check("describe", 2, "fn describe(from, to)")?;
        Ok(Self {
            source: source.into(),
            name: name.to_owned(),
            engine,
            ast,
            has_split,
            has_describe,
            operations: operations.max(1),
            id: NEXT_SCRIPT.fetch_add(1, Ordering::Relaxed),
            home: std::thread::current().id(),
        })
    }

    /// Whether the script defines `fn split(p)`.
    #[must_use]
    pub const fn has_split(&self) -> bool {
        self.has_split
    }

    /// Calls the script's function `function`; `call` is the call as written in
    /// messages (`moves(7)`).
    fn call(
        &self,
        function: &str,
        args: impl FuncArgs,
        call: &dyn Fn() -> String,
    ) -> Result<Dynamic, CallError> {
        let options = CallFnOptions::new().eval_ast(false).rewind_scope(false);
        let mut scope = rhai::Scope::new();
        let copy = (std::thread::current().id() != self.home)
            .then(|| self.copy_for_this_thread())
            .flatten();
        let (engine, ast) = copy
            .as_deref()
            .map_or((&self.engine, &self.ast), |(e, a)| (e, a));
        let result =
            engine.call_fn_with_options::<Dynamic>(options, &mut scope, ast, function, args);
        result.map_err(|error| self.call_error(&error, &call()))
    }

    /// This thread's copy of the script, compiled again from its source when
    /// first needed (kept with the most recently used first); `None` would mean
    /// the source no longer compiles, and the shared script serves.
    fn copy_for_this_thread(&self) -> Option<Rc<ScriptCopy>> {
        COPIES.with(|copies| {
            let mut copies = copies.borrow_mut();
            if let Some(at) = copies.iter().position(|(id, _)| *id == self.id) {
                copies[..=at].rotate_right(1);
                return Some(Rc::clone(&copies[0].1));
            }
            let engine = sandbox(self.operations);
            let ast = engine.compile(&*self.source).ok()?;
            let copy = Rc::new((engine, ast));
            copies.insert(0, (self.id, Rc::clone(&copy)));
            copies.truncate(COPIES_PER_THREAD);
            Some(copy)
        })
    }

    fn call_error(&self, error: &EvalAltResult, call: &str) -> CallError {
        let inner = error.unwrap_inner();
        let at = inner.position();
        let name = &self.name;
        match inner {
            EvalAltResult::ErrorTerminated(..) => CallError::Cancelled,
            EvalAltResult::ErrorTooManyOperations(_) => CallError::Limit(Refusal::new(
                format!(
                    "{name}: {call} ran more than {} operations, the limit of one call (a hundredth of the work limit){}: an endless loop?",
                    self.operations,
                    at.line()
                        .map_or_else(String::new, |_| format!(", at {}", place(at)))
                ),
                &[Limit::Work],
            )),
            EvalAltResult::ErrorDataTooLarge(what, _) => CallError::Limit(Refusal::new(
                format!(
                    "{name}: {call} built a {what} larger than the sandbox allows ({MAX_DATA_SIZE} characters or elements; {}); no flag raises it",
                    place(at)
                ),
                &[],
            )),
            EvalAltResult::ErrorStackOverflow(_) => CallError::Script(format!(
                "{name}: {call} nested calls more than {MAX_CALL_LEVELS} deep ({}): an endless recursion?",
                place(at)
            )),
            _ => {
                // Rhai ends its message with " (line 3, position 9)": said our way instead.
                let message = inner.to_string();
                let bare = message
                    .strip_suffix(&format!(" ({at})"))
                    .unwrap_or(&message);
                CallError::Script(format!("{name}: {call} failed at {}: {bare}", place(at)))
            }
        }
    }

    /// The positions one move from `position` leads to, each as the script's
    /// `moves` returned it.
    fn raw_moves(&self, position: &ScriptPosition) -> Result<Vec<ScriptPosition>, CallError> {
        let call = || format!("moves({})", position.bracketed());
        let result = self.call("moves", (position.to_dynamic(),), &call)?;
        self.positions(result, &call, "moves")
    }

    /// The parts of `position`: `split(position)`, or the position itself when the
    /// script has no `split`.
    fn parts(&self, position: ScriptPosition) -> Result<Vec<ScriptPosition>, CallError> {
        if !self.has_split {
            return Ok(vec![position]);
        }
        let call = || format!("split({})", position.bracketed());
        let result = self.call("split", (position.to_dynamic(),), &call)?;
        self.positions(result, &call, "split")
    }

    /// The positions of an array a script function returned.
    fn positions(
        &self,
        result: Dynamic,
        call: &dyn Fn() -> String,
        function: &str,
    ) -> Result<Vec<ScriptPosition>, CallError> {
        let name = &self.name;
        // The value returned has no place in the script: the function's line stands in.
        let call = || match definition_line(&self.source, function) {
            Some(line) => format!("{} (`fn {function}` at line {line})", call()),
            None => call(),
        };
        let type_name = result.type_name();
        let Some(items) = result.try_cast::<Array>() else {
            return Err(CallError::Script(format!(
                "{name}: {call} returned {}, not an array of positions (`{function}` returns e.g. `[4, 2]`)",
                a_type(type_name),
                call = call()
            )));
        };
        items
            .into_iter()
            .enumerate()
            .map(|(index, item)| {
                position_of(item).map_err(|found| {
                    CallError::Script(format!(
                        "{name}: {call} returned an array whose element {index} (from 0) is {found}: a position is an integer, an array of integers or a string",
                        call = call()
                    ))
                })
            })
            .collect()
    }

    /// The values of the integer positions `0..=last` by mex over the script's moves,
    /// each option's value the nim-sum of its parts' (`split`); `progress` is told
    /// as values are computed and may stop the computation (`Ok(None)`).
    ///
    /// # Errors
    /// [`SearchError::Script`] when the script fails, or a move leads to a part that
    /// is not an integer below the position moved from (the values are computed in
    /// increasing order); [`SearchError::TheoryLimit`] at a limit of the sandbox.
    pub fn sequence(
        &self,
        last: usize,
        progress: &mut dyn FnMut(Progress) -> ControlFlow<()>,
    ) -> Result<Option<GrundyValues>, SearchError> {
        let mut values = GrundyValues::new();
        let mut mex = MexSet::default();
        let total = last.saturating_add(1);
        for heap in 0..=last {
            let n = i64::try_from(heap).map_err(|_| SearchError::Script {
                message: format!("{heap} is not a 64-bit integer"),
            })?;
            mex.clear();
            let moves = self
                .raw_moves(&ScriptPosition::Integer(n))
                .map_err(CallError::into_search)?;
            for option in moves {
                let written = option.bracketed();
                let mut value = 0;
                for part in self.parts(option).map_err(CallError::into_search)? {
                    let smaller = match part {
                        ScriptPosition::Integer(m) if (0..n).contains(&m) => {
                            usize::try_from(m).ok()
                        }
                        _ => None,
                    };
                    let Some(smaller) = smaller else {
                        let whose = if self.has_split {
                            format!(", whose part {} is", part.bracketed())
                        } else {
                            ", which is".to_owned()
                        };
                        return Err(SearchError::Script {
                            message: format!(
                                "{}: moves({n}) returned {written}{whose} not {}: `grundy seq` computes the values in increasing order, so every move must lead to smaller non-negative integers",
                                self.name,
                                if n == 0 {
                                    "smaller than 0".to_owned()
                                } else {
                                    format!("an integer from 0 to {}", n - 1)
                                }
                            ),
                        });
                    };
                    value ^= values.get(smaller).unwrap_or(0);
                }
                mex.insert(value);
            }
            values.push(mex.mex());
            if heap % 1024 == 1023
                && progress(Progress {
                    done: heap + 1,
                    total,
                })
                .is_break()
            {
                return Ok(None);
            }
        }
        Ok(Some(values))
    }
}

/// The line (from 1) where `source` defines `fn function(`, if it is found.
fn definition_line(source: &str, function: &str) -> Option<usize> {
    source
        .lines()
        .position(|line| {
            line.split("fn").skip(1).any(|rest| {
                rest.trim_start()
                    .strip_prefix(function)
                    .is_some_and(|after| after.trim_start().starts_with('('))
            })
        })
        .map(|index| index + 1)
}

/// "line 3, column 9" of a place in a script.
fn place(at: rhai::Position) -> String {
    match (at.line(), at.position()) {
        (Some(line), Some(column)) => format!("line {line}, column {column}"),
        (Some(line), None) => format!("line {line}"),
        _ => "an unknown place".to_owned(),
    }
}

/// "an integer", "a map", ... for a Rhai type name.
fn a_type(type_name: &str) -> String {
    match type_name {
        "i64" => "an integer".to_owned(),
        "f64" => "a decimal number".to_owned(),
        "()" => "nothing (`()`)".to_owned(),
        "bool" => "a boolean".to_owned(),
        "char" => "a character".to_owned(),
        other if other.starts_with(['a', 'e', 'i', 'o', 'u']) => format!("an {other}"),
        other => format!("a {other}"),
    }
}

/// A script value as a position, or what it is instead.
fn position_of(value: Dynamic) -> Result<ScriptPosition, String> {
    if let Ok(n) = value.as_int() {
        return Ok(ScriptPosition::Integer(n));
    }
    if value.is_string() {
        let text = value.into_immutable_string().unwrap_or_default();
        return Ok(ScriptPosition::Text(text.as_str().into()));
    }
    // Described only when it is not a position: formatting every array would cost
    // more than the script's own work.
    let described = |value: &Dynamic| format!("{} ({value})", a_type(value.type_name()));
    if !value.is_array() {
        return Err(described(&value));
    }
    let integers = value.read_lock::<Array>().and_then(|items| {
        items
            .iter()
            .map(|item| item.as_int().ok())
            .collect::<Option<Box<[i64]>>>()
    });
    integers.map(ScriptPosition::List).ok_or_else(|| {
        format!(
            "an array holding something else than integers ({})",
            described(&value)
        )
    })
}

impl Family for Script {
    type Position = ScriptPosition;

    /// An integer as `7`, a text quoted. A list is written `5, 3` (its integers as
    /// the term's arguments) when it is the whole term's position (no `split`) and
    /// has two integers or more, and `[5, 3]` otherwise, so that every term parses
    /// back to the same position.
    fn write_position(&self, position: &ScriptPosition, out: &mut String) {
        match position {
            ScriptPosition::List(items) if !self.has_split && items.len() >= 2 => {
                write_list(out, items);
            }
            other => other.write_bracketed(out),
        }
    }

    fn moves(
        &self,
        position: &ScriptPosition,
        limit: usize,
    ) -> Result<Vec<Vec<ScriptPosition>>, SearchError> {
        let moves = self.raw_moves(position).map_err(CallError::into_search)?;
        if moves.len() > limit {
            return Err(SearchError::StateLimit { limit });
        }
        moves
            .into_iter()
            .map(|to| self.parts(to).map_err(CallError::into_search))
            .collect()
    }

    /// Another thread's copy of the script (`COPIES`), by its number.
    fn thread_copy(&self) -> Option<(u64, usize)> {
        Some((
            self.id,
            COPY_BYTES + COPY_BYTES_PER_SOURCE_BYTE * self.source.len(),
        ))
    }

    /// An array's integers (8 bytes each) or a text's bytes.
    fn held_bytes(&self, position: &ScriptPosition) -> usize {
        match position {
            ScriptPosition::Integer(_) => 0,
            ScriptPosition::List(items) => std::mem::size_of_val(&**items),
            ScriptPosition::Text(text) => text.len(),
        }
    }

    fn describe_move(&self, from: &ScriptPosition, to: &[ScriptPosition]) -> String {
        let written = || match to {
            [one] if !self.has_split => one.bracketed(),
            [] => "nothing".to_owned(),
            parts => parts
                .iter()
                .map(ScriptPosition::bracketed)
                .collect::<Vec<_>>()
                .join(" + "),
        };
        if self.has_describe {
            let to_value = if self.has_split {
                Dynamic::from_array(to.iter().map(ScriptPosition::to_dynamic).collect())
            } else {
                to.first().map_or(Dynamic::UNIT, ScriptPosition::to_dynamic)
            };
            let call = || format!("describe({}, {})", from.bracketed(), written());
            if let Ok(text) = self.call("describe", (from.to_dynamic(), to_value), &call)
                && let Ok(text) = text.into_immutable_string()
            {
                return text.to_string();
            }
        }
        format!("move to {}", written())
    }
}

/// The script of a term's parameter, compiled, with the term's head
/// (`script[@g.rhai]`).
///
/// # Errors
/// A missing or malformed parameter, a file that cannot be read, or a script that
/// does not compile (at the parameter's column).
fn script_of(term: &Term, work: u64) -> Result<(Arc<Script>, String), LangError> {
    let example = "for example `script[@game.rhai](7)` or `script[\"fn moves(n) { if n > 0 { [n - 1] } else { [] } }\"](3)`";
    let param = match term.params.as_slice() {
        [param] if param.key.is_none() => param,
        [_, second, ..] => {
            return Err(LangError::new(
                "`script` takes one parameter: the script, as `@PATH` or a quoted text",
                second.value.span,
            )
            .with_help(example));
        }
        _ => {
            let span = term.params.first().map_or(term.name_span, |p| p.value.span);
            return Err(LangError::new(
                "`script` takes one parameter: the script, as `@PATH` or a quoted text",
                span,
            )
            .with_help(example));
        }
    };
    let span = param.value.span;
    let (source, name) = match &param.value.kind {
        ValueKind::File(path) => (read_script(path, span)?, format!("`{path}`")),
        ValueKind::Text(source) => (source.clone(), "the inline script".to_owned()),
        _ => {
            return Err(LangError::new(
                format!(
                    "`script` takes the script as `@PATH` or a quoted text, found `{}`",
                    param.value
                ),
                span,
            )
            .with_help(example));
        }
    };
    let script = compiled(&source, &name, operations_per_call(work))
        .map_err(|message| LangError::new(message, span))?;
    Ok((script, format!("script[{}]", param.value)))
}

/// The most compiled scripts kept for reuse.
const COMPILED_KEPT: usize = 16;

/// Operations of a script between two looks at the cancellation signal.
const CANCEL_EVERY_OPERATIONS: u64 = 64;

/// [`Script::compile`], kept for reuse: a table (`grundy table
/// 'script[@g.rhai](n)' n=0..100000`) or a batch file builds the same term
/// thousands of times, and compiling is most of the cost of building one.
/// Keyed by the source text, its name and the operations allowed, so a
/// changed file is compiled anew.
fn compiled(source: &str, name: &str, operations: u64) -> Result<Arc<Script>, String> {
    type Kept = Vec<((Box<str>, Box<str>, u64), Arc<Script>)>;
    static KEPT: std::sync::Mutex<Kept> = std::sync::Mutex::new(Vec::new());
    let found = KEPT.lock().ok().and_then(|kept| {
        kept.iter()
            .find(|((s, n, o), _)| &**s == source && &**n == name && *o == operations)
            .map(|(_, script)| Arc::clone(script))
    });
    if let Some(script) = found {
        return Ok(script);
    }
    let script = Arc::new(Script::compile(source, name, operations)?);
    if let Ok(mut kept) = KEPT.lock() {
        if kept.len() >= COMPILED_KEPT {
            kept.remove(0);
        }
        kept.push((
            (source.into(), name.into(), operations),
            Arc::clone(&script),
        ));
    }
    Ok(script)
}

fn read_script(path: &str, span: Span) -> Result<String, LangError> {
    let cannot =
        |why: String| LangError::new(format!("cannot read the script `{path}`: {why}"), span);
    // A device or a FIFO would never end or never start.
    regular_file(std::fs::metadata(path)).map_err(cannot)?;
    let file = std::fs::File::open(path).map_err(|e| cannot(e.to_string()))?;
    let mut text = String::new();
    std::io::Read::read_to_string(
        &mut std::io::Read::take(file, MAX_SCRIPT_BYTES + 1),
        &mut text,
    )
    .map_err(|e| cannot(e.to_string()))?;
    if text.len() as u64 > MAX_SCRIPT_BYTES {
        return Err(cannot(format!(
            "it is longer than {MAX_SCRIPT_BYTES} bytes"
        )));
    }
    Ok(text)
}

/// An integer argument as a 64-bit integer.
fn integer(value: &Value) -> Result<i64, LangError> {
    match &value.kind {
        ValueKind::Integer(n) => n.to_i64().ok_or_else(|| {
            LangError::new(
                format!(
                    "{n} is out of range: a script's integers are 64-bit, from {} to {}",
                    i64::MIN,
                    i64::MAX
                ),
                value.span,
            )
        }),
        _ => Err(LangError::new(
            format!("a script's list holds integers, found `{value}`"),
            value.span,
        )),
    }
}

/// One argument as a position: an integer, a list of integers or a text.
fn position_argument(value: &Value) -> Result<ScriptPosition, LangError> {
    match &value.kind {
        ValueKind::Integer(_) => Ok(ScriptPosition::Integer(integer(value)?)),
        ValueKind::List(items) => Ok(ScriptPosition::List(
            items.iter().map(integer).collect::<Result<_, _>>()?,
        )),
        ValueKind::Text(text) => Ok(ScriptPosition::Text(text.as_str().into())),
        _ => Err(LangError::new(
            format!(
                "a script's position is an integer, a list of integers `[5, 3]` or a quoted text, found `{value}`"
            ),
            value.span,
        )),
    }
}

/// The positions a term's arguments give, each with its span: one position (several
/// integers are one list) for a script without `split`, one per argument with it.
fn positions_of(term: &Term, script: &Script) -> Result<Vec<(ScriptPosition, Span)>, LangError> {
    if script.has_split {
        return term
            .args
            .iter()
            .map(|value| Ok((position_argument(value)?, value.span)))
            .collect();
    }
    match term.args.as_slice() {
        [] => Err(LangError::new(
            "a scripted game takes its position: an integer, integers (one list), a list `[5, 3]` or a quoted text",
            term.span,
        )),
        [one] => Ok(vec![(position_argument(one)?, one.span)]),
        several => {
            let list = several.iter().map(integer).collect::<Result<_, _>>()?;
            let span = several[0].span.to(several[several.len() - 1].span);
            Ok(vec![(ScriptPosition::List(list), span)])
        }
    }
}

fn build(term: &Term, context: &BuildContext<'_>) -> Result<Group, LangError> {
    let (script, head) = script_of(term, context.limits.work)?;
    let positions = positions_of(term, &script)?;
    let mut parts = Vec::with_capacity(positions.len());
    for (position, span) in positions {
        parts.extend(
            script
                .parts(position)
                .map_err(|error| error.into_lang(span))?,
        );
    }
    Ok(Group::new(head, crate::family::parts(&script, parts)))
}

/// The script of a `grundy seq` rule (`script[@g.rhai]`, no arguments), compiled
/// with `work` as its work limit, and the rule's canonical text; `None` when `rule`
/// is not a script term (a heap rule, which `seq` reads as before).
///
/// # Errors
/// As building the term: a parse error, a missing file, a script that does not
/// compile, or arguments given.
pub fn sequence_rule(rule: &str, work: u64) -> Option<Result<(Arc<Script>, String), LangError>> {
    let sum = crate::lang::parse(&format!("{rule}()")).ok()?;
    let [term] = sum.terms.as_slice() else {
        return None;
    };
    if term.name != "script" {
        return None;
    }
    Some(script_of(term, work))
}

/// The catalogue entry.
pub(crate) const ENTRY: GameEntry = GameEntry {
    name: "script",
    summary: "a game whose moves a Rhai script defines",
    rules: "The moves come from a script in the Rhai language (https://rhai.rs), read from a \
            file (`script[@g.rhai](7)`, a path relative to the current directory) or given \
            inline (`script[\"fn moves(n) { ... }\"](7)`). The position is an integer \
            (`script[@g.rhai](7)`), a list of integers (`script[@wythoff.rhai](5, 3)`: several \
            integers are one list; `([5, 3])` is the same) or a text (`(\"abc\")`); integers are \
            64-bit.\n\n\
            The script defines:\n\
            - `fn moves(p)` (required): the array of positions one move from p leads to, one \
            entry per move (integers, arrays of integers or strings);\n\
            - `fn split(p)` (optional): the array of independent parts p is the sum of, applied \
            to the starting position and to every position a move leads to (parts are not \
            split again). With `split`, each argument of the term is one position (lists \
            written `[5, 3]`) and the term is their sum, as in `lasker(3, 4)`;\n\
            - `fn describe(from, to)` (optional): the text naming a move in answers; `to` is the \
            position reached, or the array of its parts when the script defines `split`.\n\
            Functions see only their arguments: put constants inside them.\n\n\
            Everything else is generic: sums with other games, winning moves, misère play. \
            `grundy seq 'script[@g.rhai]' -n N` gives the values of 0..=N when every move from \
            an integer leads to smaller non-negative integers (after `split`); a period seen is \
            never proven.\n\n\
            Sandbox: no file, network or module access (`print` writes to stderr; `sleep` is \
            an error). Each call \
            may run --max-work / 100 operations (3,000,000 by default; more is exit 3 naming \
            --max-work); calls nest at most 48 deep; strings and arrays hold at most 1,048,576 \
            elements; a script file is at most 1 MiB. A script error (a syntax error, an \
            exception, a wrong type returned) is exit 2 naming the script's line; a loop in the \
            game (a position reachable from itself) is exit 2; a huge game stops at \
            --max-states (exit 3).\n\n\
            Speed (one core, release build): `grundy seq` of 100,000 values of \
            examples/scripts/subtraction.rhai takes about 0.3 s (the built-in sub[1, 3, 4]: \
            0.007 s); `solve` of examples/scripts/pairs.rhai at (999, 999), a million \
            positions searched, about 6 s and 450 MiB. A script is some 40 times slower than a \
            built-in rule: use `split` where positions fall apart into independent parts. \
            Examples to copy are in examples/scripts/ of the repository (nim, bash, wythoff, \
            subtraction, lasker, grundy_game, pairs).",
    syntax: "script[@PATH](ARGS) or script[\"SOURCE\"](ARGS)",
    examples: &[
        "script[\"fn moves(n) { let m = []; for k in [1, 3, 4] { if k <= n { m.push(n - k) } } m }\"](10)",
        "script[\"fn moves(p) { let m = []; for i in 0..p.len() { if p[i] > 0 { let q = p; q[i] -= 1; m.push(q) } } m }\"](2, 3)",
    ],
    kind: EntryKind::Game(build),
    heap_rule: None,
    drawing: DrawingKind::None,
    every_start: None,
};

#[cfg(test)]
mod tests;
