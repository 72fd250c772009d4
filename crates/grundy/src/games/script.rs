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
//! space stops at `--max-states`. Anonymous functions (`|x| x + 1`) see only their
//! parameters (Rhai without closures) and `curry` is refused, for the stack's sake
//! (below).
//!
//! # The stack
//! Rhai walks a value recursively to check its size after each change, to clone,
//! compare, write or drop it, so a value nested `d` deep takes stack in proportion to
//! `d` wherever it is touched; calls and expressions nest on the stack too. A script
//! runs on whatever thread calls it: a worker of a thread pool (2 MiB of stack), a
//! server's thread, the Python caller's. Running out of stack aborts the whole
//! process, so every entry into Rhai (a call of a script function together with the
//! reading and dropping of what it returns, a compilation) runs with a stack sized
//! from the sandbox's bounds, as measured on threads of decreasing stack sizes (values
//! nested 1,000 and 3,000 deep, or 200 and 600 in the debug profile, whose frames are
//! larger; "release" below is the release and `tests` profiles):
//!
//! - How deep values nest. Every value a script can build is counted by the size
//!   limits: there are no closures, whose captured variables Rhai does not count, nor
//!   `curry`, whose arguments it does not count either (a chain of either nests as
//!   deep as the operations allow, and `f.curry(f)` doubles a value at each step).
//!   Arrays and maps count their nested elements, each against its own limit, so a
//!   value nests at most [`MAX_VALUE_DEPTH`] levels (arrays and maps in turn, and an
//!   expression's temporaries around them).
//! - Walks that count no operation: checking a value's size, cloning, dropping it,
//!   writing it in a message take at most 0.35 KB a level (maps; arrays 0.21 KB) in
//!   release, 2.2 KB in debug. Counted as 1 KiB (4 KiB in debug).
//! - Walks through Rhai's own function calls, which count an operation a level:
//!   comparing (`==`, `!=`, `in`, `index_of`: 1.70 to 1.85 KB a level in release,
//!   7.7 KB in debug) and writing a value in the script (`${v}`, `print`,
//!   `to_debug`: 1.62 to 1.71 KB, 8.3 KB in debug). Counted as 2.5 KiB (10 KiB).
//! - Calls and expressions: the deepest the limits allow (48 nested calls through
//!   `Fn("f").call(..)`, each under 10 nested calls of a native function) took
//!   1.15 MB (8.7 MB in debug), counted as 4 MiB (16 MiB); compiling the deepest
//!   expression, 0.1 MB (0.66 MB), counted as 1 MiB (4 MiB).
//!
//! Every fourth operation of a call looks at the stack left and stops the call when
//! less is left than a reserve: enough for a few operations and the walks that count
//! no operation of the deepest value the call may build. Walks that count operations
//! and nested calls are thereby stopped before they overflow, and the stack given to
//! a call only decides how deep they may go. A call first runs on the thread's own
//! stack, when at least `FIRST_RUN_ENTRY` of it is left (960 KiB; 6.25 MiB in
//! debug), with arrays and maps of at most [`FIRST_RUN_DATA_SIZE`] elements (a reserve
//! of 448 KiB; 2.25 MiB in debug). Most calls (a position's moves) end there, for
//! the cost of the looks at the stack (2% of a call spent in a loop). A call that
//! builds a larger value, nests deeper than the stack left, or sorts with a function
//! of its own (whose errors Rhai ignores, which would hide the smaller limits) runs
//! again from its start with the full limits, a reserve of 64 MiB (257 MiB in debug)
//! and a stack of `FULL_STACK`: 228 MiB (914 MiB in debug), the reserve, the walks
//! that count operations and the deepest calls. That stack is a segment of its own
//! ([`stacker`]) unless the thread has that much left: address space, whose memory
//! the system gives as the call reaches it and takes back after it, for about 16 µs
//! a call (5 times a cheap call's cost, hence the first run). Rhai's scripts are
//! deterministic, so the second run does what the first one did up to where it
//! stopped (lines the first printed are not printed again) and goes on. Should it
//! still find less than its reserve (which the bounds above exclude), it ends in an
//! error, not an overflow.
//!
//! ```
//! use grundy::sums::analysis::{solve, SolveOptions};
//! use grundy::catalogue::build;
//! use grundy::lang::parse;
//!
//! // Take 1 or 2 from a heap: G(n) = n mod 3.
//! let text = r#"script["fn moves(n) { let m = []; if n >= 1 { m.push(n - 1) } if n >= 2 { m.push(n - 2) } m }"](7) + nim(1)"#;
//! let answer = solve(&build(&parse(text).unwrap()).unwrap(), &SolveOptions::default()).unwrap();
//! assert_eq!(answer.nimber, Some(0u32.into()));
//! ```

use std::cell::{Cell, RefCell};
use std::fmt;
use std::io::Write;
use std::ops::ControlFlow;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use num_traits::ToPrimitive;
use rhai::packages::{Package, StandardPackage};
use rhai::{
    AST, Array, CallFnOptions, Dynamic, Engine, EvalAltResult, FnPtr, FuncArgs, ImmutableString,
    Map,
};

use crate::family::Family;
use crate::lang::arguments::regular_file;
use crate::lang::{LangError, Span, Term, Value, ValueKind};
use crate::registry::{BuildContext, DrawingKind, EntryKind, GameEntry};
use crate::sequence::{GrundyValues, Progress};
use crate::sums::position::Group;
use crate::theory::caches::{Caches, Shelf};
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

/// The most stack one level of a value's nesting takes as Rhai walks it without
/// counting an operation (checking its size, cloning, dropping, writing it in a
/// message): 0.35 KB measured, 2.2 KB in debug ("The stack" above).
const SILENT_STACK_PER_LEVEL: usize = if cfg!(debug_assertions) {
    4 << 10
} else {
    1 << 10
};
/// The most stack one level of a value's nesting takes as Rhai walks it through its
/// own function calls, which count operations (comparing, writing it in the script):
/// 1.85 KB measured, 8.3 KB in debug.
const COUNTED_STACK_PER_LEVEL: usize = if cfg!(debug_assertions) {
    10 << 10
} else {
    5 << 9
};
/// The most stack four operations of a script take besides walking values (the
/// stack left is looked at every fourth operation): 2 to 5 KB an operation in
/// calls nested as deep as the limits allow, 15 KB in debug.
const OPERATION_STACK: usize = if cfg!(debug_assertions) {
    1 << 20
} else {
    128 << 10
};
/// The most stack the deepest calls and expressions take (1.15 MB measured, or
/// 8.7 MB in debug).
const EVALUATION_STACK: usize = if cfg!(debug_assertions) {
    16 << 20
} else {
    4 << 20
};
/// The most stack compiling a script takes (0.1 MB measured, 0.66 MB in debug).
const COMPILE_STACK: usize = if cfg!(debug_assertions) {
    4 << 20
} else {
    1 << 20
};
/// The most levels a value nests when arrays and maps hold at most `size` elements
/// each, counted through their nesting: arrays and maps in turn, and the
/// temporaries of an expression around them.
const fn value_depth(size: usize) -> usize {
    2 * size + MAX_EXPRESSION_DEPTH
}
/// The most levels a value nests in the sandbox.
pub const MAX_VALUE_DEPTH: usize = value_depth(MAX_DATA_SIZE);
/// The least stack an operation of a call with the full limits must find left, or
/// the call stops: the walks of the deepest value that count no operation, and a few
/// operations: 64 MiB (257 MiB in debug).
const FULL_RESERVE: usize = MAX_VALUE_DEPTH * SILENT_STACK_PER_LEVEL + OPERATION_STACK;
/// The stack a call with the full limits runs on: the reserve, the walks that count
/// operations (which stop at the reserve, as calls do) and the deepest calls: 228 MiB
/// (914 MiB in debug).
const FULL_STACK: usize =
    FULL_RESERVE + MAX_VALUE_DEPTH * COUNTED_STACK_PER_LEVEL + EVALUATION_STACK;
/// The most elements arrays and maps hold in a call's first run, on the thread's
/// own stack.
pub const FIRST_RUN_DATA_SIZE: usize = 128;
/// The least stack an operation of a first run must find left: 448 KiB (2.25 MiB in
/// debug).
const FIRST_RUN_RESERVE: usize =
    value_depth(FIRST_RUN_DATA_SIZE) * SILENT_STACK_PER_LEVEL + OPERATION_STACK;
/// The stack a thread must have left for a call's first run to start on it: the
/// reserve and room for the call (960 KiB, so that a pool's worker with 2 MiB runs
/// it; 6.25 MiB in debug).
const FIRST_RUN_ENTRY: usize = FIRST_RUN_RESERVE + 4 * OPERATION_STACK;

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
    engines: Engines,
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

/// Where the text a script prints (`print`, `debug`) goes, for the whole
/// process ([`set_output`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScriptOutput {
    /// To standard error, every line (the command line's: the user's own
    /// script, on the user's own terminal).
    StandardError,
    /// To standard error, at most [`BOUNDED_LINES_PER_SECOND`] lines a second
    /// in all and [`BOUNDED_LINE_CHARS`] characters a line: a server that
    /// shows its clients' output without letting one flood its terminal.
    Bounded,
    /// Nowhere: a server's default.
    Discarded,
}

/// The lines a second [`ScriptOutput::Bounded`] writes, for all scripts of
/// the process; the others are dropped, and said to be, once a second.
pub const BOUNDED_LINES_PER_SECOND: u32 = 100;
/// The characters of a line [`ScriptOutput::Bounded`] writes; the rest is cut.
pub const BOUNDED_LINE_CHARS: usize = 300;

/// The process's [`ScriptOutput`]: 0 standard error, 1 bounded, 2 discarded.
static OUTPUT: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

/// Sets where every script of the process prints from now on.
pub fn set_output(output: ScriptOutput) {
    let code = match output {
        ScriptOutput::StandardError => 0,
        ScriptOutput::Bounded => 1,
        ScriptOutput::Discarded => 2,
    };
    OUTPUT.store(code, Ordering::Relaxed);
}

/// The second of the bounded output's count and the lines written in it.
static BOUNDED_SECOND: std::sync::Mutex<Option<(std::time::Instant, u32, bool)>> =
    std::sync::Mutex::new(None);

/// Whether one more line may be written under [`ScriptOutput::Bounded`], and
/// whether the drop of lines is to be said first.
fn bounded_line_allowed() -> (bool, bool) {
    let Ok(mut second) = BOUNDED_SECOND.lock() else {
        return (false, false);
    };
    let now = std::time::Instant::now();
    let (started, lines, said) = second.get_or_insert((now, 0, false));
    if now.duration_since(*started) >= std::time::Duration::from_secs(1) {
        *started = now;
        *lines = 0;
        *said = false;
    }
    if *lines < BOUNDED_LINES_PER_SECOND {
        *lines += 1;
        (true, false)
    } else {
        let say = !*said;
        *said = true;
        (false, say)
    }
}

/// `text` with its control characters written as escapes (`\u{1b}`), so that
/// a script cannot send a terminal its commands; line feeds and tabs stay.
fn escaped(text: &str) -> std::borrow::Cow<'_, str> {
    let is_control = |c: char| c.is_control() && c != '\n' && c != '\t';
    if !text.chars().any(is_control) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_control(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Writes a script's `print` and `debug` output as the process's
/// [`ScriptOutput`] says, escaped ([`escaped`]), ignoring a closed stream
/// (never a panic); the lines a call's first run printed are not printed
/// again when the call runs again ([`TO_SKIP`]).
fn to_stderr(text: &str) {
    let skip = TO_SKIP.get();
    if skip > 0 {
        TO_SKIP.set(skip - 1);
        return;
    }
    PRINTED.set(PRINTED.get() + 1);
    match OUTPUT.load(Ordering::Relaxed) {
        0 => {
            let _ = writeln!(std::io::stderr().lock(), "{}", escaped(text));
        }
        1 => match bounded_line_allowed() {
            (true, _) => {
                let mut chars = text.chars();
                let kept: String = chars.by_ref().take(BOUNDED_LINE_CHARS).collect();
                let cut = if chars.next().is_some() { "..." } else { "" };
                let _ = writeln!(std::io::stderr().lock(), "{}{cut}", escaped(&kept));
            }
            (false, true) => {
                let _ = writeln!(
                    std::io::stderr().lock(),
                    "(scripts printed more than {BOUNDED_LINES_PER_SECOND} lines this second: \
                     the rest of the second's lines are dropped)"
                );
            }
            (false, false) => {}
        },
        _ => {}
    }
}

/// Numbers the scripts compiled, for the other threads' copies.
static NEXT_SCRIPT: AtomicU64 = AtomicU64::new(0);

/// A thread's own copy of a script: its engines and its compiled functions.
type ScriptCopy = (Engines, AST);

/// How many scripts' copies a thread keeps (the most recently used).
const COPIES_PER_THREAD: usize = 4;

/// The bytes a thread's copy of a script holds, as the memory limit counts
/// them: its engines and the compiled functions, [`COPY_BYTES`] and
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
    /// Whether the call running on this thread was stopped to run again on a larger
    /// stack: its stack ran short of its reserve, or, in a first run, it reached a
    /// function that hides errors. Stays set until the call returns, so that every
    /// later operation stops too, even after Rhai ignored the first stop.
    static STOPPED: Cell<bool> = const { Cell::new(false) };
    /// The lines printed since the current call's first run started.
    static PRINTED: Cell<u64> = const { Cell::new(0) };
    /// The lines the current call printed in its first run, not printed again.
    static TO_SKIP: Cell<u64> = const { Cell::new(0) };
}

/// Which of a script's engines runs a call: a first run on the thread's stack,
/// or the full limits on a stack of their own ("The stack" above).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tier {
    /// Arrays and maps of at most [`FIRST_RUN_DATA_SIZE`] elements, a reserve of
    /// [`FIRST_RUN_RESERVE`] of stack.
    First,
    /// The sandbox's limits, a reserve of [`FULL_RESERVE`] of stack.
    Full,
}

/// A script's two engines, sharing one copy of Rhai's standard library.
struct Engines {
    first: Engine,
    full: Engine,
}

impl Engines {
    const fn get(&self, tier: Tier) -> &Engine {
        match tier {
            Tier::First => &self.first,
            Tier::Full => &self.full,
        }
    }
}

/// How a run of a call ended: done, or to be run again with the full limits.
enum Run<R> {
    Done(Result<R, CallError>),
    Again,
}

/// Rhai's engines as grundy's sandbox: each call of a script's functions runs at
/// most `operations` operations.
fn sandbox(operations: u64) -> Engines {
    let library = StandardPackage::new().as_shared_module();
    let engine = |tier: Tier| {
        let (data_size, reserve) = match tier {
            Tier::First => (FIRST_RUN_DATA_SIZE, FIRST_RUN_RESERVE),
            Tier::Full => (MAX_DATA_SIZE, FULL_RESERVE),
        };
        let mut engine = Engine::new_raw();
        engine.register_global_module(library.clone());
        engine
            // What `Engine::new` sets.
            .set_max_strings_interned(256)
            .set_max_operations(operations.max(1))
            .set_max_call_levels(MAX_CALL_LEVELS)
            // Rhai's own defaults differ between debug and release builds (32 and 16 in
            // debug): fixed here so that a script means the same in both.
            .set_max_expr_depths(MAX_EXPRESSION_DEPTH, MAX_EXPRESSION_DEPTH / 2)
            .set_max_string_size(MAX_DATA_SIZE)
            .set_max_array_size(data_size)
            .set_max_map_size(data_size)
            .set_strict_variables(true)
            // A call stops when an operation finds less than `reserve` of stack
            // left ("The stack" above), and a cancelled computation stops between
            // operations, however long one call of the script runs.
            .on_progress(move |operations| {
                if !operations.is_multiple_of(STACK_CHECK_EVERY_OPERATIONS) {
                    return None;
                }
                if STOPPED.get() || stacker::remaining_stack().is_some_and(|left| left < reserve) {
                    STOPPED.set(true);
                    return Some(Dynamic::UNIT);
                }
                (operations.is_multiple_of(CANCEL_EVERY_OPERATIONS) && stop_requested())
                    .then_some(Dynamic::UNIT)
            })
            .on_print(to_stderr)
            .on_debug(|text, _, _| to_stderr(text))
            // Arguments Rhai does not count against the size limits.
            .disable_symbol("curry");
        // Rhai's standard library can block the thread (`sleep(seconds)`), where no
        // operation is counted: refused instead, so no script can hang.
        let no_sleep = || -> Result<(), Box<EvalAltResult>> {
            Err("`sleep` is not available in grundy's sandbox".into())
        };
        engine
            .register_fn("sleep", move |_: i64| no_sleep())
            .register_fn("sleep", move |_: f64| no_sleep());
        if tier == Tier::First {
            // Sorting with a function of the script's ignores that function's errors,
            // the smaller limits' among them: left to the full limits.
            let again = |_: &mut Array, _: FnPtr| -> Result<(), Box<EvalAltResult>> {
                STOPPED.set(true);
                Err(EvalAltResult::ErrorTerminated(Dynamic::UNIT, rhai::Position::NONE).into())
            };
            engine
                .register_fn("sort", again)
                .register_fn("sort_by", again)
                .register_fn("dedup", again);
        }
        engine
    };
    Engines {
        first: engine(Tier::First),
        full: engine(Tier::Full),
    }
}

/// Compiles `source` with `engine` on a stack of at least [`COMPILE_STACK`].
fn compile_on_stack(engine: &Engine, source: &str) -> Result<AST, rhai::ParseError> {
    stacker::maybe_grow(COMPILE_STACK, COMPILE_STACK, || engine.compile(source))
}

impl Script {
    /// Compiles `source`, named `name` in messages ("`g.rhai`"), each call of its
    /// functions running at most `operations` operations.
    ///
    /// # Errors
    /// A syntax error (with the script's line and column), or a missing or
    /// malformed `fn moves(p)`, `fn split(p)` or `fn describe(from, to)`, in words.
    pub fn compile(source: &str, name: &str, operations: u64) -> Result<Self, String> {
        let engines = sandbox(operations);
        // Compiled with the full limits, which also bound the arrays written in it.
        let ast = compile_on_stack(&engines.full, source).map_err(|error| {
            let rhai::ParseError(kind, at) = error;
            format!(
                "syntax error in {name} at {}: {kind}{}",
                place(at),
                syntax_help(source, &kind, at)
            )
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
            engines,
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

    /// Calls the script's function `function` with the arguments `args` makes, and
    /// reads what it returns with `read`; `call` is the call as written in messages
    /// (`moves(7)`). The call, and the reading and dropping of every value Rhai gives
    /// back, run with the stack "The stack" above describes: first on the thread's
    /// own stack with small limits when enough of it is left, then, if that run
    /// stopped short of an answer, again with the full limits on a stack of
    /// [`FULL_STACK`].
    fn call<A: FuncArgs, R>(
        &self,
        function: &str,
        args: impl Fn() -> A,
        call: &dyn Fn() -> String,
        read: impl Fn(Dynamic) -> Result<R, CallError>,
    ) -> Result<R, CallError> {
        let copy = (std::thread::current().id() != self.home)
            .then(|| self.copy_for_this_thread())
            .flatten();
        let (engines, ast) = copy
            .as_deref()
            .map_or((&self.engines, &self.ast), |(e, a)| (e, a));
        let run = |tier: Tier| -> Run<R> {
            STOPPED.set(false);
            let options = CallFnOptions::new().eval_ast(false).rewind_scope(false);
            let mut scope = rhai::Scope::new();
            let result = engines.get(tier).call_fn_with_options::<Dynamic>(
                options,
                &mut scope,
                ast,
                function,
                args(),
            );
            let stopped = STOPPED.replace(false);
            match (tier, stopped, result) {
                (Tier::First, true, _) => Run::Again,
                (Tier::First, false, Err(error))
                    if matches!(error.unwrap_inner(), EvalAltResult::ErrorDataTooLarge(..)) =>
                {
                    Run::Again
                }
                (Tier::Full, true, _) => Run::Done(Err(self.out_of_stack(&call()))),
                (_, false, Ok(value)) => Run::Done(read(value)),
                (_, false, Err(error)) => Run::Done(Err(self.call_error(&error, &call()))),
            }
        };
        if stacker::remaining_stack().is_some_and(|left| left >= FIRST_RUN_ENTRY) {
            PRINTED.set(0);
            TO_SKIP.set(0);
            if let Run::Done(done) = run(Tier::First) {
                return done;
            }
            TO_SKIP.set(PRINTED.get());
        }
        let done = stacker::maybe_grow(FULL_STACK, FULL_STACK, || run(Tier::Full));
        TO_SKIP.set(0);
        match done {
            Run::Done(done) => done,
            Run::Again => unreachable!("a run with the full limits is never run again"),
        }
    }

    /// The error of a call that nested deeper than its stack, which the sandbox's
    /// limits should exclude.
    fn out_of_stack(&self, call: &str) -> CallError {
        CallError::Limit(Refusal::new(
            format!(
                "{}: {call} nested calls or values deeper than the {} MiB of stack a script has",
                self.name,
                FULL_STACK >> 20
            ),
            &[],
        ))
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
            let engines = sandbox(self.operations);
            let ast = compile_on_stack(&engines.full, &self.source).ok()?;
            let copy = Rc::new((engines, ast));
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
                // A value thrown may be huge.
                let bare = shortened(bare, MESSAGE_CHARS);
                CallError::Script(format!("{name}: {call} failed at {}: {bare}", place(at)))
            }
        }
    }

    /// The positions one move from `position` leads to, each as the script's
    /// `moves` returned it.
    fn raw_moves(&self, position: &ScriptPosition) -> Result<Vec<ScriptPosition>, CallError> {
        let call = || format!("moves({})", position.bracketed());
        self.call(
            "moves",
            || (position.to_dynamic(),),
            &call,
            |result| self.positions(result, &call, "moves"),
        )
    }

    /// The parts of `position`: `split(position)`, or the position itself when the
    /// script has no `split`.
    fn parts(&self, position: ScriptPosition) -> Result<Vec<ScriptPosition>, CallError> {
        if !self.has_split {
            return Ok(vec![position]);
        }
        let call = || format!("split({})", position.bracketed());
        self.call(
            "split",
            || (position.to_dynamic(),),
            &call,
            |result| self.positions(result, &call, "split"),
        )
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

/// What to add to a syntax error that grundy's sandbox causes: `curry` refused, or a
/// variable that an anonymous function does not see (no closures).
fn syntax_help(source: &str, kind: &rhai::ParseErrorType, at: rhai::Position) -> &'static str {
    let rest = at
        .line()
        .and_then(|line| source.lines().nth(line.checked_sub(1)?))
        .map(|line| {
            let column = at.position().unwrap_or(1).saturating_sub(1);
            line.chars().skip(column).take(5).collect::<String>()
        })
        .unwrap_or_default();
    if rest == "curry" {
        ": `curry` is not available in grundy's sandbox"
    } else if matches!(kind, rhai::ParseErrorType::VariableUndefined(_)) && source.contains('|') {
        " (an anonymous function `|x| ...` sees only its parameters: scripts have no closures in grundy's sandbox)"
    } else {
        ""
    }
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

/// The most characters of Rhai's message that an error shows.
const MESSAGE_CHARS: usize = 1000;
/// The most characters of a value that messages show.
const SHOWN_CHARS: usize = 60;
/// The most levels of a nested value that messages show.
const SHOWN_DEPTH: usize = 4;

/// A value as messages show it: as Rhai writes it, cut after [`SHOWN_CHARS`]
/// characters, with arrays and maps nested more than [`SHOWN_DEPTH`] deep written
/// `[…]` and `#{…}`, so that a huge or deeply nested value neither floods a message
/// nor takes the stack that writing all of it would.
fn shown(value: &Dynamic) -> String {
    fn write(value: &Dynamic, depth: usize, out: &mut String) {
        if out.len() > SHOWN_CHARS {
            return;
        }
        if value.is_array() {
            let Some(items) = value.read_lock::<Array>() else {
                return;
            };
            if depth >= SHOWN_DEPTH && !items.is_empty() {
                out.push_str("[…]");
                return;
            }
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if out.len() > SHOWN_CHARS {
                    break;
                }
                if i > 0 {
                    out.push_str(", ");
                }
                write(item, depth + 1, out);
            }
            out.push(']');
        } else if value.is_map() {
            let Some(map) = value.read_lock::<Map>() else {
                return;
            };
            if depth >= SHOWN_DEPTH && !map.is_empty() {
                out.push_str("#{…}");
                return;
            }
            out.push_str("#{");
            for (i, (key, item)) in map.iter().enumerate() {
                if out.len() > SHOWN_CHARS {
                    break;
                }
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(&format!("{:?}: ", key.as_str()));
                write(item, depth + 1, out);
            }
            out.push('}');
        } else if depth == 0 {
            out.push_str(&value.to_string());
        } else {
            // Inside an array or a map, as Rhai writes it: strings quoted.
            out.push_str(&format!("{value:?}"));
        }
    }
    let mut out = String::new();
    write(value, 0, &mut out);
    shortened(&out, SHOWN_CHARS)
}

/// `text` cut after `chars` characters, with `…` where it was cut.
fn shortened(text: &str, chars: usize) -> String {
    match text.char_indices().nth(chars) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
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
    let described = |value: &Dynamic| format!("{} ({})", a_type(value.type_name()), shown(value));
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
            let text = self.call(
                "describe",
                || (from.to_dynamic(), to_value.clone()),
                &call,
                |text| {
                    Ok(text
                        .into_immutable_string()
                        .ok()
                        .map(|text| text.to_string()))
                },
            );
            if let Ok(Some(text)) = text {
                return text;
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
fn script_of(term: &Term, work: u64, bytes: u64) -> Result<(Arc<Script>, String), LangError> {
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
    let script = compiled(&source, &name, operations_per_call(work), bytes)
        .map_err(|message| LangError::new(message, span))?;
    Ok((script, format!("script[{}]", param.value)))
}

/// The most compiled scripts kept for reuse.
const COMPILED_KEPT: usize = 16;

/// Operations of a script between two looks at the cancellation signal (a multiple
/// of [`STACK_CHECK_EVERY_OPERATIONS`]).
const CANCEL_EVERY_OPERATIONS: u64 = 64;

/// Operations of a script between two looks at the stack left: a look at every
/// operation cost 10% of a call spent in a loop, every fourth 2%.
const STACK_CHECK_EVERY_OPERATIONS: u64 = 4;

/// Scripts compiled, kept for reuse in the computation's context of caches
/// (at most [`COMPILED_KEPT`]), keyed by the source text, its name and the
/// operations allowed, so a changed file is compiled anew; each counted as a
/// thread's copy of it is ([`COPY_BYTES`], [`COPY_BYTES_PER_SOURCE_BYTE`]), and
/// its key's text.
struct Compiled;

impl Shelf for Compiled {
    type Key = (Box<str>, Box<str>, u64);
    type Value = Arc<Script>;
    const ENTRIES: usize = COMPILED_KEPT;
}

/// [`Script::compile`], kept for reuse ([`Compiled`]): a table (`grundy table
/// 'script[@g.rhai](n)' n=0..100000`) or a batch file builds the same term
/// thousands of times, and compiling is most of the cost of building one.
/// What is kept counts against `bytes`, the memory budget of the computation
/// ([`Caches::limit_under`]).
fn compiled(source: &str, name: &str, operations: u64, bytes: u64) -> Result<Arc<Script>, String> {
    let caches = Caches::current();
    let found = caches.find::<Compiled>(bytes, |(s, n, o), _| {
        &**s == source && &**n == name && *o == operations
    });
    if let Some(script) = found {
        return Ok(script);
    }
    let script = Arc::new(Script::compile(source, name, operations)?);
    let held = COPY_BYTES + (COPY_BYTES_PER_SOURCE_BYTE + 1) * source.len() + name.len();
    let key = (source.into(), name.into(), operations);
    caches.keep::<Compiled>(bytes, key, Arc::clone(&script), held as u64);
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
    let (script, head) = script_of(term, context.limits.work, context.limits.bytes)?;
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
/// is not a script term (a heap rule, which `seq` reads as before). The
/// compiled script is kept within the cap of the context of caches alone.
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
    Some(script_of(term, work, u64::MAX))
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
            --max-work); calls nest at most 48 deep; strings, arrays and maps hold at most \
            32,768 characters or elements (counted through nested arrays and maps); anonymous \
            functions (`|x| ...`) see only their parameters (no closures) and `curry` is not \
            available; a script file is at most 1 MiB. A script error (a syntax error, an \
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
