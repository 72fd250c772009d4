//! The Grundy sequence of a heap rule (`grundy seq`, `grundy.seq`, the
//! playground's `/api/seq`): the values of heaps `0..=N`, the period found
//! past them and whether a theorem proves it; or Conway's genus of each heap.
//!
//! Before computing, the cost of the range is estimated ([`CostModel`], from
//! the values of the first 1024 heaps, plus the memory the front end's process
//! holds besides, [`Request::process_bytes`]): the values asked for must fit
//! the memory and work limits, or the run stops with a [`Failure::Limit`]
//! naming the setting that raises them. Memory the system refuses all the same
//! is a limit too. The search for a period past N (to heap 16384 by default)
//! is cut short where the limits would be passed; with
//! [`Request::until_proven`] it goes on until a theorem proves the period, up
//! to [`Limits::largest_heap`], and fails if the limits stop it first.
//!
//! Values may be written to a file ([`Request::out`]) with its check file: a
//! run resumes from the values already there, every one checked first, and
//! holds a lock on the file so that two runs cannot mix their values.
//!
//! The front end is told of the work as it goes ([`Watcher`]): progress, a
//! long run's estimated time before it starts, notes on the file. A run is
//! stopped by the watcher or by the library's cancellation
//! ([`crate::theory::cancel`]); it then keeps the values computed ([`Finish`]).

mod game;
mod genus;
mod out;
mod report;
mod tally;

use std::ops::ControlFlow;
use std::path::PathBuf;

pub use game::game_sequence;
pub use genus::Genera;
pub use tally::{Tally, method_named};

use super::watch::CutShort;
use super::{Door, Failure, Limits};
use crate::catalogue::parse_rule;
use crate::rules::HeapRule;
use crate::sequence::bounded::{LARGEST_HEAP, periodic_bytes, proven_shortcut};
use crate::sequence::estimate::announcement;
use crate::sequence::{
    Cost, CostModel, FileError, FileFormat, GrundyValues, Interrupted, Kernel, Method, Periodicity,
    Progress, ResumeError, SequenceSolver, StopCause, check_rule_of_file, save_to_file,
    until_proven,
};
use crate::theory::cancel::stop_requested;
use crate::theory::limits::Limit;

/// The furthest heap the period is looked for past the last heap asked,
/// without [`Request::until_proven`] (when the last heap is smaller).
pub const DEFAULT_PERIOD_REACH: usize = 1 << 14;
/// The furthest heap a run until its period is proven computes by default
/// (`--max-heap`, `max_heap=`).
pub const UNTIL_PROVEN_REACH: usize = 1_000_000_000;
/// Values computed first, as the period search would.
const FIRST_HEAPS: usize = 1 << 8;
/// Values computed first to predict the cost of the rest (see [`CostModel`]).
const PREDICTION_HEAPS: usize = 1 << 10;

/// What a run is asked: the rule, the heaps, how, and where the values go.
/// Its limits are a [`Limits`]: memory, work, and for a run until its
/// period is proven the furthest heap ([`Limits::largest_heap`]).
#[derive(Clone, Debug)]
pub struct Request {
    /// The heap game, without heaps: `kayles`, `octal[0.137]`,
    /// `sub[1, 3, 4]`, `script[...]`, ...
    pub rule: String,
    /// The last heap: the values of heaps `0..=last_heap` are asked for.
    pub last_heap: usize,
    /// Conway's genus of each heap instead of its value.
    pub genus: bool,
    /// How the values are computed.
    pub method: Method,
    /// The instructions the engine computes with (the values are the same with every
    /// kernel): by default the fastest this machine runs.
    pub kernel: Kernel,
    /// Keep computing past the last heap until a theorem proves the period.
    pub until_proven: bool,
    /// A period left unproven at the furthest heap allowed is a failure too
    /// (not only one the memory and work limits leave unproven).
    pub require_proof: bool,
    /// The file the values are written to, resumed from when it holds some.
    pub out: Option<PathBuf>,
    /// The format of that file.
    pub format: FileFormat,
    /// Memory the front end's process holds besides the computation, counted
    /// with the estimate against the memory limit.
    pub process_bytes: u64,
}

impl Request {
    /// The values of heaps `0..=last_heap` of `rule`, computed the fast way,
    /// in memory.
    pub fn new(rule: impl Into<String>, last_heap: usize) -> Self {
        Self {
            rule: rule.into(),
            last_heap,
            genus: false,
            method: Method::SparseSpace,
            kernel: Kernel::auto(),
            until_proven: false,
            require_proof: false,
            out: None,
            format: FileFormat::Text,
            process_bytes: 0,
        }
    }
}

/// Who is told of a run as it goes. Every method has a default that tells
/// no one.
pub trait Watcher {
    /// `report.done` of `report.total` values are computed (or checked, for
    /// a file's values); `Break` stops the run, which keeps what it computed.
    fn progress(&mut self, report: Progress) -> ControlFlow<()> {
        let _ = report;
        ControlFlow::Continue(())
    }

    /// Whether the watcher is told a long run's estimated time: measuring
    /// the speed it is estimated from takes a moment.
    fn wants_estimate(&self) -> bool {
        false
    }

    /// A run estimated to take more than a few seconds says so before it
    /// starts: `about 5 min for the values of ...`.
    fn estimate(&mut self, said: &str) {
        let _ = said;
    }

    /// A remark on the run that is not its answer: a file without its check
    /// file, or holding more values than asked.
    fn note(&mut self, note: &str) {
        let _ = note;
    }
}

/// A [`Watcher`] told nothing, which never stops the run.
#[derive(Clone, Copy, Debug, Default)]
pub struct Quiet;

impl Watcher for Quiet {}

/// How far a run went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Finish {
    /// Every value asked for was computed (the period past them may have
    /// been left unknown by a stop, when the values went to a file).
    Complete,
    /// Stopped early: the values computed are kept, heaps `0..values.len()`.
    Partial,
    /// Stopped early: the values computed are in the file, `held` of them.
    Saved {
        /// The values in the file.
        held: usize,
    },
    /// Stopped early, and the values computed are not kept (a script's).
    Dropped,
}

/// The values of a run and the period found.
#[derive(Clone, Debug)]
pub struct Sequence {
    /// The rule, written as the library writes it.
    pub rule: String,
    /// Every value computed, from heap 0: more than asked when the period
    /// was looked for past the last heap, or a file held more.
    pub values: GrundyValues,
    /// The last heap the answer shows: the one asked, or the last computed
    /// by a run stopped early.
    pub last_heap: usize,
    /// The period found, proven or not; `None` when none was seen.
    pub periodicity: Option<Periodicity>,
    /// The file the values were written to, if any.
    pub out: Option<PathBuf>,
    /// Whether the run went to its end.
    pub finish: Finish,
}

/// What a run answers: values, or genera.
#[derive(Clone, Debug)]
pub enum Answer {
    /// The values of the heaps and the period.
    Values(Sequence),
    /// Conway's genus of each heap ([`Request::genus`]).
    Genera(Genera),
}

/// A run stopped early kept what it computed, or dropped it.
impl CutShort for Sequence {
    fn cut_short(&self) -> bool {
        self.finish != Finish::Complete
    }
}

/// Genera are all found, or their quotient failed.
impl CutShort for Genera {
    fn cut_short(&self) -> bool {
        false
    }
}

impl CutShort for Answer {
    fn cut_short(&self) -> bool {
        match self {
            Self::Values(sequence) => sequence.cut_short(),
            Self::Genera(genera) => genera.cut_short(),
        }
    }
}

/// Runs `request` within `limits`, its failures said in the words of `door`
/// and its progress told to `watcher`: the genera ([`genera`]) when
/// [`Request::genus`] asks for them, otherwise the values ([`values`]).
///
/// ```
/// use grundy::workflow::seq::{self, Answer, Quiet, Request};
/// use grundy::workflow::{Door, Limits};
///
/// let answer = seq::run(&Request::new("kayles", 20), &Limits::default(), Door::Python, &mut Quiet);
/// let Ok(Answer::Values(found)) = answer else { panic!("no values") };
/// assert_eq!(found.values.get(4), Some(1));
/// let period = found.periodicity.unwrap();
/// assert_eq!((period.period, period.preperiod, period.proven()), (12, 71, true));
/// ```
///
/// # Errors
/// A [`Failure`], as [`values`] and [`genera`] give it.
pub fn run(
    request: &Request,
    limits: &Limits,
    door: Door,
    watcher: &mut dyn Watcher,
) -> Result<Answer, Failure> {
    if request.genus {
        genera(&request.rule, request.last_heap, limits, door).map(Answer::Genera)
    } else {
        values(request, limits, door, watcher).map(Answer::Values)
    }
}

/// The values `request` asks for (its [`Request::genus`] aside), of a heap
/// rule or of a `script[...]` rule, within `limits`, its failures said in the
/// words of `door` and its progress told to `watcher`.
///
/// # Errors
/// A [`Failure`]: a rule that does not parse, a limit reached (by estimate
/// before the work, or memory refused during it), a file that cannot be
/// used or written.
pub fn values(
    request: &Request,
    limits: &Limits,
    door: Door,
    watcher: &mut dyn Watcher,
) -> Result<Sequence, Failure> {
    #[cfg(feature = "script")]
    if let Some(script) = crate::games::script::sequence_rule(&request.rule, limits.work) {
        let (script, rule) = script.map_err(|e| Failure::language(&e, &request.rule, door))?;
        return out::script_sequence(request, &script, rule, door, watcher);
    }
    #[cfg(not(feature = "script"))]
    if request.rule.trim_start().starts_with("script[") {
        return Err(Failure::input(super::WITHOUT_SCRIPT));
    }
    let (rule, rule_text) =
        parse_rule(&request.rule).map_err(|e| Failure::language(&e, &request.rule, door))?;
    heap_sequence(request, &rule, rule_text, limits, door, watcher)
}

/// Conway's genus of heaps `0..=last_heap` of the heap rule `rule`, read from
/// a misère quotient ([`crate::workflow::quotient`]), within `limits`.
///
/// # Errors
/// A [`Failure`]: a rule that does not parse or is a `script[...]` rule (a
/// quotient is built from a heap rule's moves), or a quotient out of reach.
pub fn genera(
    rule: &str,
    last_heap: usize,
    limits: &Limits,
    door: Door,
) -> Result<Genera, Failure> {
    if names_a_script(rule) {
        return Err(Failure::input(
            "error: the genus needs a heap rule (`kayles`, `octal[0.75]`, `sub[1, 3, 4]`, ...): \
             it is read from a misère quotient, which is built from a heap rule's moves, not from \
             a script's",
        ));
    }
    let (parsed, rule_text) = parse_rule(rule).map_err(|e| Failure::language(&e, rule, door))?;
    genus::genera(&parsed, rule_text, last_heap as u64, limits, door)
}

/// Whether `rule` is a `script[...]` rule (its script unread).
fn names_a_script(rule: &str) -> bool {
    crate::lang::parse(&format!("{rule}()"))
        .is_ok_and(|sum| matches!(sum.terms.as_slice(), [term] if term.name == "script"))
}

/// `last_heap`, when its value can be stored: values are 32-bit, so heaps
/// up to `sequence::bounded::LARGEST_HEAP` are computed.
///
/// # Errors
/// A [`Failure::Limit`] that nothing raises for a larger heap.
pub fn allowed_last_heap(last_heap: u64, door: Door) -> Result<usize, Failure> {
    match usize::try_from(last_heap) {
        Ok(last) if last <= LARGEST_HEAP => Ok(last),
        fitted => {
            let asked = match fitted {
                Ok(usize::MAX) | Err(_) => format!("{} or more", usize::MAX),
                _ => last_heap.to_string(),
            };
            Err(Failure::limit(format!(
                "error: values are stored in 32 bits, so heaps up to {LARGEST_HEAP} are computed, not {asked}; {}: ask for at most {}",
                words(door).nothing_raises,
                given(door, words(door).last_heap, &LARGEST_HEAP.to_string())
            )))
        }
    }
}

/// The words of a front end for what is not a limit.
pub(super) struct Words {
    /// The option of a run until proven: `--until-proven`.
    until_proven: &'static str,
    /// The setting of the last heap, for [`given`]: `-n`.
    last_heap: &'static str,
    /// The last heap in a sentence: `N`.
    n: &'static str,
    /// The option writing the values to a file: `--out FILE`.
    out: &'static str,
    /// What is said of a limit that nothing raises.
    pub(super) nothing_raises: &'static str,
}

pub(super) const fn words(door: Door) -> Words {
    match door {
        Door::CommandLine => Words {
            until_proven: "--until-proven",
            last_heap: "-n",
            n: "N",
            out: "--out FILE",
            nothing_raises: "no flag raises this",
        },
        Door::Python => Words {
            until_proven: "until_proven",
            last_heap: "n",
            n: "n",
            out: "out=FILE",
            nothing_raises: "nothing raises this",
        },
    }
}

/// A setting given a value: `--max-memory 512M`, `-n 5`, `max_memory="512M"`,
/// `n=5`; `setting` is the flag (`--max-memory`, `-n`) or the keyword.
fn given(door: Door, setting: &str, value: &str) -> String {
    match door {
        Door::CommandLine => format!("{setting} {value}"),
        Door::Python if value.bytes().all(|b| b.is_ascii_digit()) => format!("{setting}={value}"),
        Door::Python => format!("{setting}=\"{value}\""),
    }
}

/// The setting of `limit` without its value: `--max-heap`, `max_heap`.
pub(super) fn setting(door: Door, limit: Limit) -> String {
    match door {
        Door::CommandLine => format!("--{}", door.setting_name(limit)),
        Door::Python => door.setting_name(limit).to_owned(),
    }
}

/// A limit's failure, raised by `limit`'s setting.
fn limited(message: String, limit: Limit) -> Failure {
    Failure::Limit {
        message,
        raised_by: Some(limit),
    }
}

/// Bytes for people: `1.5 GiB`.
fn human_bytes(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["bytes", "KiB", "MiB", "GiB", "TiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} bytes")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

/// The estimated cost of computing the values of heaps `0..=heap`, with the
/// memory of the process around the computation.
fn estimate(model: &CostModel, heap: usize, process_bytes: u64) -> Cost {
    let cost = model.cost(heap);
    Cost {
        bytes: cost.bytes.saturating_add(process_bytes),
        steps: cost.steps,
    }
}

/// What a run may take, and says when it would take more.
struct RunLimits {
    limits: Cost,
    process_bytes: u64,
    door: Door,
}

impl RunLimits {
    /// The largest heap in `from..=to` whose values are estimated to stay
    /// within the limits, or `None` when even `from` does not.
    fn largest_heap_within(&self, model: &CostModel, from: usize, to: usize) -> Option<usize> {
        let budget = Cost {
            bytes: self.limits.bytes.checked_sub(self.process_bytes)?,
            steps: self.limits.steps,
        };
        model.largest_heap_within(from, to, &budget)
    }

    /// Which limit the range `0..=heap` passes, in words naming the setting
    /// that raises it, and that limit.
    fn over_limits(&self, model: &CostModel, heap: usize) -> (String, Limit) {
        let cost = estimate(model, heap, self.process_bytes);
        let why = model
            .what_grows()
            .map_or_else(String::new, |what| format!(" ({what})"));
        if cost.bytes > self.limits.bytes {
            (self.over_memory(cost.bytes, &why), Limit::Memory)
        } else {
            (
                format!(
                    "need about {} steps of work by estimate{why}, more than the work limit of {} steps; raise it with {}",
                    cost.steps,
                    self.limits.steps,
                    self.door.setting(Limit::Work)
                ),
                Limit::Work,
            )
        }
    }

    /// "need about 1.5 GiB (...) of memory by estimate, more than the memory
    /// limit ...; raise it with --max-memory BYTES (e.g. ...)"; `why` follows
    /// the estimate.
    fn over_memory(&self, bytes: u64, why: &str) -> String {
        let suggestion = if bytes < 1 << 30 {
            format!("{}M", bytes.div_ceil(1 << 20))
        } else {
            format!("{}G", bytes.div_ceil(1 << 30))
        };
        format!(
            "need about {} ({bytes} bytes) of memory by estimate{why}, more than the memory limit of {} bytes; raise it with {} (e.g. {})",
            human_bytes(bytes),
            self.limits.bytes,
            self.door.setting(Limit::Memory),
            given(self.door, &setting(self.door, Limit::Memory), &suggestion)
        )
    }

    /// The failure of a computation that stopped before the values it
    /// needed, whose estimate was `estimated` bytes: memory refused by the
    /// system, or a value beyond 32 bits.
    fn stopped(&self, rule: &str, stop: Interrupted, estimated: u64) -> Failure {
        match stop.cause {
            StopCause::OutOfMemory(error) => limited(
                format!(
                    "error: out of memory after the values of {rule} up to heap {}: {error}. The estimate, {} ({estimated} bytes), is within the memory limit of {} bytes, but the system gives less; lower {} to the memory free, so that such ranges are refused before they start",
                    stop.done.saturating_sub(1),
                    human_bytes(estimated),
                    self.limits.bytes,
                    self.door.setting(Limit::Memory)
                ),
                Limit::Memory,
            ),
            _ => Failure::limit(format!(
                "error: the values of {rule} stop at heap {}: larger values do not fit in 32 bits",
                stop.done.saturating_sub(1)
            )),
        }
    }
}

/// The values computed by a run stopped early, kept.
fn partial(rule: String, values: GrundyValues) -> Sequence {
    Sequence {
        rule,
        last_heap: values.len().saturating_sub(1),
        values,
        periodicity: None,
        out: None,
        finish: Finish::Partial,
    }
}

/// Whether a computation stopped because it was asked to (by the watcher or
/// the cancellation signal), rather than failed.
const fn asked_to_stop(cause: &StopCause) -> bool {
    matches!(cause, StopCause::Callback | StopCause::Cancelled)
}

/// The values of a heap rule: the run of [`run`] for rules that are not
/// scripts.
fn heap_sequence(
    request: &Request,
    rule: &HeapRule,
    rule_text: String,
    limits: &Limits,
    door: Door,
    watcher: &mut dyn Watcher,
) -> Result<Sequence, Failure> {
    let last_heap = allowed_last_heap(request.last_heap as u64, door)?;
    // A zero limit allows nothing: refused, rather than read as "no limit".
    if limits.bytes == 0 {
        return Err(limited(
            format!(
                "error: {} leaves no memory to compute with; raise it with {} (e.g. {})",
                given(door, &setting(door, Limit::Memory), "0"),
                door.setting(Limit::Memory),
                given(door, &setting(door, Limit::Memory), "512M")
            ),
            Limit::Memory,
        ));
    }
    if limits.largest_heap == 0 {
        return Err(limited(
            format!(
                "error: {} allows no heap to be computed; raise it with {} (at least {}, the last heap asked for)",
                given(door, &setting(door, Limit::LargestHeap), "0"),
                door.setting(Limit::LargestHeap),
                words(door).n
            ),
            Limit::LargestHeap,
        ));
    }
    let budget = RunLimits {
        limits: Cost {
            bytes: limits.bytes,
            steps: limits.work,
        },
        process_bytes: request.process_bytes,
        door,
    };
    let method = request.method;
    // The period is looked for past N (the values answered stay 0..=N): a
    // little way by default, as far as the largest heap until proven.
    let wanted = if request.until_proven {
        usize::try_from(limits.largest_heap).unwrap_or(usize::MAX)
    } else {
        DEFAULT_PERIOD_REACH
    }
    .clamp(last_heap, LARGEST_HEAP.max(last_heap));
    // The first values predict what the rest costs: 256 (as many as the period
    // search starts with) tell which kind of rule it is, and 1024 how fast the
    // values grow. Rules costing more than linear keep computing from the
    // 1024; the others start again from 256, so that the period search starts
    // where it always does.
    let mut probe = SequenceSolver::new(rule.clone(), method).with_kernel(request.kernel);
    probe.extend_to(wanted.min(FIRST_HEAPS - 1));
    let mut prediction = probe.clone();
    prediction.extend_to(wanted.min(PREDICTION_HEAPS - 1));
    let model = CostModel::new(rule, method, prediction.values());
    if model.what_grows().is_some() {
        probe = prediction;
    }
    // The first values stop short when cancelled, and a period proven from
    // fewer of them would be proven on another range: the stop is reported.
    if stop_requested() && request.out.is_none() {
        return Ok(partial(rule_text, probe.into_values()));
    }
    // Once the first values prove a period, every value follows from it: any N
    // is answered at once, for rules costing more than linear time (codes
    // leaving three heaps) and for purely periodic ones whose sparse space
    // stays large (Dawson's Kayles, 0.07). Values growing with a saltus (Nim)
    // keep the engine, whose allocations are fallible: memory the system
    // refuses is a limit, not an abort.
    if let Some(periodicity) = proven_shortcut(rule, method, &model, probe.values()) {
        return from_period(
            request,
            rule,
            rule_text,
            &budget,
            periodicity,
            &probe,
            watcher,
        );
    }
    let Some(reach) = budget.largest_heap_within(&model, last_heap, wanted) else {
        let (why, limit) = budget.over_limits(&model, last_heap);
        return Err(limited(
            format!("error: the values of {rule_text} up to heap {last_heap} {why}"),
            limit,
        ));
    };
    let _lock = request
        .out
        .as_deref()
        .map(|path| out::OutLock::take(path, door))
        .transpose()?;
    let file = match &request.out {
        Some(path) => Some(out::open(request, path, rule, &rule_text, door, watcher)?),
        None => None,
    };
    let held = file.as_ref().map_or(0, |file| file.values().len());
    // A run until proven goes past N only as far as no period is proven, which
    // is not known in advance: the estimate names the heaps asked and the
    // whole range it may compute. Otherwise `reach` is the little way past N
    // the period is looked for, computed anyway.
    if watcher.wants_estimate() {
        let (last, until_proven_to) = if request.until_proven {
            (last_heap.min(reach), Some(reach))
        } else {
            (reach, None)
        };
        if let Some(said) = announcement(
            &rule_text,
            &model,
            &mut probe,
            held,
            last,
            until_proven_to,
            door,
        ) {
            watcher.estimate(&said);
        }
    }
    let mut solver = match (file, &request.out) {
        (Some(mut file), Some(path)) => {
            match file.extend_to(last_heap, &mut |report| watcher.progress(report)) {
                Err(FileError::Interrupted { done }) => {
                    return Ok(Sequence {
                        rule: rule_text,
                        values: GrundyValues::new(),
                        last_heap: done.saturating_sub(1),
                        periodicity: None,
                        out: Some(path.clone()),
                        finish: Finish::Saved { held: done },
                    });
                }
                other => {
                    other.map_err(|error| {
                        out::file_failure(&error, path, request.format, &rule_text, door)
                    })?;
                }
            }
            file.into_solver()
        }
        _ => {
            let mut solver = probe;
            if let Err(stop) =
                solver.extend_to_with_progress(last_heap, &mut |report| watcher.progress(report))
            {
                if asked_to_stop(&stop.cause) {
                    return Ok(partial(rule_text, solver.into_values()));
                }
                let estimated = estimate(&model, last_heap, request.process_bytes).bytes;
                return Err(budget.stopped(&rule_text, stop, estimated));
            }
            solver
        }
    };
    if solver.values().len() <= last_heap {
        return Err(Failure::limit(format!(
            "error: the values of {rule_text} stop at heap {}: larger values do not fit in 32 bits",
            solver.values().len().saturating_sub(1)
        )));
    }
    // `until_proven` ends with the detection on every value computed, proven
    // or not. Past N, values beyond 32 bits end the search (the values asked
    // for are known), and so does a stop when the values are in a file;
    // running out of memory is a limit.
    let periodicity = match until_proven(&mut solver, reach, &mut |report| watcher.progress(report))
    {
        Ok(found) => found,
        Err(
            stop @ Interrupted {
                cause: StopCause::OutOfMemory(_),
                ..
            },
        ) => {
            let estimated = estimate(&model, reach, request.process_bytes).bytes;
            return Err(budget.stopped(&rule_text, stop, estimated));
        }
        Err(stop) if asked_to_stop(&stop.cause) && request.out.is_none() => {
            return Ok(partial(rule_text, solver.into_values()));
        }
        Err(_) => None,
    };
    let proven = periodicity.as_ref().is_some_and(Periodicity::proven);
    let until = words(door).until_proven;
    if request.until_proven && reach < wanted && !proven {
        let (why, limit) = budget.over_limits(&model, reach + 1);
        return Err(limited(
            format!(
                "error: {until} found no proven period of {rule_text} up to heap {reach}, the furthest the limits allow: the values up to heap {} {why} (or lower {} to accept an unproven period)",
                reach + 1,
                setting(door, Limit::LargestHeap)
            ),
            limit,
        ));
    }
    if request.require_proof && !proven {
        return Err(limited(
            format!(
                "error: {until} found no proven period of {rule_text} up to heap {reach}, the furthest {} allows; raise it with {} (or drop {until} to accept an unproven period)",
                given(
                    door,
                    &setting(door, Limit::LargestHeap),
                    &limits.largest_heap.to_string()
                ),
                door.setting(Limit::LargestHeap)
            ),
            Limit::LargestHeap,
        ));
    }
    Ok(Sequence {
        rule: rule_text,
        values: solver.into_values(),
        last_heap: request.last_heap,
        periodicity,
        out: request.out.clone(),
        finish: Finish::Complete,
    })
}

/// The values of a rule whose first values (`probe`'s) prove `periodicity`:
/// every value follows from it. A file's values are checked against it, and
/// kept when more than asked; the file is then written whole.
fn from_period(
    request: &Request,
    rule: &HeapRule,
    rule_text: String,
    budget: &RunLimits,
    periodicity: Periodicity,
    probe: &SequenceSolver,
    watcher: &mut dyn Watcher,
) -> Result<Sequence, Failure> {
    let door = budget.door;
    let _lock = request
        .out
        .as_deref()
        .map(|path| out::OutLock::take(path, door))
        .transpose()?;
    let held = match &request.out {
        Some(path) => {
            let held = out::read(path, request.format, &rule_text, door)?;
            check_rule_of_file(rule, &held, path)
                .map_err(|e| out::file_failure(&e, path, request.format, &rule_text, door))?;
            held
        }
        None => GrundyValues::new(),
    };
    let last_heap = request.last_heap.max(held.len().saturating_sub(1));
    let bytes = periodic_bytes(&periodicity, probe.values(), last_heap)
        .saturating_add(request.process_bytes);
    if bytes > budget.limits.bytes {
        return Err(limited(
            format!(
                "error: the values of {rule_text} up to heap {last_heap} {}",
                budget.over_memory(bytes, " (they follow from a proven period)")
            ),
            Limit::Memory,
        ));
    }
    let values = periodicity
        .values_up_to(probe.values(), last_heap)
        .ok_or_else(|| {
            Failure::limit(format!(
                "error: the values of {rule_text} up to heap {last_heap} do not fit in 32 bits; {}",
                words(door).nothing_raises
            ))
        })?;
    if let Some(path) = &request.out {
        if let Some((heap, (stored, computed))) = held
            .iter()
            .zip(values.iter())
            .enumerate()
            .find(|(_, (stored, computed))| stored != computed)
        {
            let wrong = ResumeError {
                heap,
                stored,
                computed: Some(computed),
            };
            return Err(out::file_failure(
                &FileError::WrongValue(wrong),
                path,
                request.format,
                &rule_text,
                door,
            ));
        }
        out::note_more_values(watcher, path, held.len(), request.last_heap);
        // Every value is known and right: the file is written whole (no resuming).
        save_to_file(rule, &values, path, request.format)
            .map_err(|e| out::file_failure(&e, path, request.format, &rule_text, door))?;
    }
    Ok(Sequence {
        rule: rule_text,
        values,
        last_heap: request.last_heap,
        periodicity: Some(periodicity),
        out: request.out.clone(),
        finish: Finish::Complete,
    })
}

#[cfg(test)]
mod tests;
