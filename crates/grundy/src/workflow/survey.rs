//! A survey: the Grundy sequences of many heap rules to one heap, one row per
//! rule (Python's `grundy.survey`), each rule's run of [`super::seq`]
//! computed on the threads of the rayon pool, all under the signal of the
//! caller ([`crate::theory::cancel::current`]): Ctrl-C or a deadline stops every rule
//! at once, and the rows finished before are kept.
//!
//! A rule that fails or reaches a limit is a row with its [`Failure`], never a
//! lost survey. Each row is told to the caller as it finishes ([`run`]'s
//! `told`), on the thread that computed it, so that a front end can show the
//! progress and keep the finished rows (Python's `resume=` file).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::seq::{self, Quiet, Sequence};
use super::watch::CutShort;
use super::{Door, Failure, Limits};
use crate::theory::cancel;

/// What a survey is asked.
#[derive(Clone, Debug)]
pub struct Request {
    /// The rules, each a row: any rule of [`seq`] (`kayles`, `sub[1, 3, 4]`),
    /// or an octal (or hexadecimal) code alone, `0.137` ([`rule_text`]).
    pub rules: Vec<String>,
    /// The values of heaps `0..=last_heap` of each rule are asked for.
    pub last_heap: usize,
    /// Whether each sequence grows until a theorem proves its period (up to
    /// [`Limits::largest_heap`]); a period left unproven is reported so, not
    /// a failure.
    pub prove: bool,
}

/// One rule's row.
#[derive(Debug)]
pub struct Row {
    /// The rule's index in [`Request::rules`].
    pub index: usize,
    /// The rule's values and period, or why it has none.
    pub sequence: Result<Sequence, Failure>,
    /// How long the rule took.
    pub time: Duration,
}

/// How a survey ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Survey {
    /// The rows finished (and told).
    pub rows: usize,
    /// Whether the signal the survey ran under stopped it before every row
    /// was finished.
    pub stopped: bool,
}

/// A survey stopped by its signal has finished some rows, not all.
impl CutShort for Survey {
    fn cut_short(&self) -> bool {
        self.stopped
    }
}

/// The rule of [`seq`] a survey's rule stands for: an octal (or
/// hexadecimal) code alone, `0.137`, is `octal[0.137]`; anything else is
/// itself.
#[must_use]
pub fn rule_text(rule: &str) -> String {
    let rule = rule.trim();
    let hex = |part: &str| !part.is_empty() && part.bytes().all(|b| b.is_ascii_hexdigit());
    let digits = |part: &str| part.bytes().all(|b| b.is_ascii_digit());
    let code = match rule.split_once('.') {
        Some((whole, fraction)) => {
            digits(whole) && (hex(fraction) || (fraction.is_empty() && !whole.is_empty()))
        }
        None => !rule.is_empty() && digits(rule),
    };
    if code {
        format!("octal[{rule}]")
    } else {
        rule.to_owned()
    }
}

/// Surveys the rules of `request`, each within `limits` (its time limit
/// for each rule alone; its threads: the rules computed at once, all the
/// pool's when `None`, one computing them here in turn), its failures said
/// in the words of `door`. Each finished row
/// is given to `told` as it finishes, on the thread that computed it. Runs
/// under the signal in force on this thread: when it is raised, the rules
/// running stop and no other starts.
pub fn run(request: &Request, limits: &Limits, door: Door, told: &(dyn Fn(Row) + Sync)) -> Survey {
    let signal = cancel::current().unwrap_or_default();
    let done = AtomicUsize::new(0);
    let one = |index: usize| {
        if signal.is_cancelled() {
            return;
        }
        // Each rule has the time limit to itself, under the survey's signal.
        let started = Instant::now();
        let own = match limits.time.and_then(|time| started.checked_add(time)) {
            Some(deadline) => signal.child_until(deadline),
            None => signal.child(),
        };
        let sequence = own
            .run(|| rule_row(request, &request.rules[index], limits, door))
            .or_else(|| {
                // Stopped by its own time limit, not by the survey's signal.
                (!signal.is_cancelled()).then(|| Err(Failure::out_of_time(limits.time, door)))
            });
        let Some(sequence) = sequence else { return };
        done.fetch_add(1, Ordering::Relaxed);
        told(Row {
            index,
            sequence,
            time: started.elapsed(),
        });
    };
    let rules = request.rules.len();
    match limits.threads {
        Some(1) => (0..rules).for_each(one),
        Some(threads) if threads != rayon::current_num_threads() => {
            match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
                Ok(pool) => pool.install(|| (0..rules).into_par_iter().for_each(one)),
                Err(_) => (0..rules).into_par_iter().for_each(one),
            }
        }
        _ => (0..rules).into_par_iter().for_each(one),
    }
    let rows = done.into_inner();
    Survey {
        rows,
        stopped: rows < rules,
    }
}

/// The row of one rule: its sequence, or why it has none; `None` when the
/// signal stopped it.
fn rule_row(
    request: &Request,
    rule: &str,
    limits: &Limits,
    door: Door,
) -> Option<Result<Sequence, Failure>> {
    let asked = seq::Request {
        until_proven: request.prove,
        require_proof: false,
        ..seq::Request::new(rule_text(rule), request.last_heap)
    };
    let limits = Limits {
        threads: None,
        time: None,
        ..*limits
    };
    match seq::values(&asked, &limits, door, &mut Quiet) {
        Ok(sequence) if sequence.cut_short() => None,
        Err(_) if cancel::stop_requested() => None,
        found => Some(found),
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;
    use crate::theory::cancel::Cancel;
    use crate::theory::limits::Limit;

    fn survey(rules: &[&str], last_heap: usize, threads: Option<usize>) -> (Vec<Row>, Survey) {
        let request = Request {
            rules: rules.iter().map(|&r| r.to_owned()).collect(),
            last_heap,
            prove: true,
        };
        let limits = Limits {
            largest_heap: 1 << 14,
            threads,
            ..Limits::default()
        };
        let rows = Mutex::new(Vec::new());
        let ended = run(&request, &limits, Door::Python, &|row| {
            rows.lock().unwrap().push(row)
        });
        let mut rows = rows.into_inner().unwrap();
        rows.sort_by_key(|row| row.index);
        (rows, ended)
    }

    #[test]
    fn an_octal_code_alone_is_an_octal_rule() {
        assert_eq!(rule_text(" 0.137 "), "octal[0.137]");
        assert_eq!(rule_text("4.F"), "octal[4.F]");
        assert_eq!(rule_text("12."), "octal[12.]");
        assert_eq!(rule_text("12"), "octal[12]");
        assert_eq!(rule_text("kayles"), "kayles");
        assert_eq!(rule_text("."), ".");
        assert_eq!(rule_text("0.1x"), "0.1x");
    }

    #[test]
    fn each_rule_is_a_row_the_same_on_any_threads() {
        let rules = ["0.07", "kayles", "octal[0.9]", "not_a_game", "0.137"];
        let (alone, ended) = survey(&rules, 100, Some(1));
        assert_eq!(
            ended,
            Survey {
                rows: 5,
                stopped: false
            }
        );
        let period = |row: &Row| {
            let found = row.sequence.as_ref().ok()?;
            let p = found.periodicity.as_ref()?;
            Some((p.period, p.preperiod, p.proven()))
        };
        assert_eq!(period(&alone[0]), Some((34, 53, true)));
        assert_eq!(period(&alone[1]), Some((12, 71, true)));
        assert_eq!(period(&alone[4]), Some((34, 52, true)));
        let Err(Failure::Input { message, .. }) = &alone[3].sequence else {
            panic!("an unknown game is bad input");
        };
        assert!(message.contains("not_a_game"), "{message}");
        let (shared, _) = survey(&rules, 100, Some(2));
        let (pool, _) = survey(&rules, 100, None);
        for rows in [&shared, &pool] {
            let same: Vec<_> = rows.iter().map(period).collect();
            assert_eq!(same, alone.iter().map(period).collect::<Vec<_>>());
            assert_eq!(
                rows[0].sequence.as_ref().unwrap().values,
                alone[0].sequence.as_ref().unwrap().values
            );
        }
    }

    #[test]
    fn a_rule_out_of_time_is_a_row_with_its_limit() {
        let request = Request {
            rules: vec!["octal[0.6]".to_owned()],
            last_heap: 50_000_000,
            prove: false,
        };
        let limits = Limits {
            time: Some(Duration::from_millis(50)),
            bytes: 8 << 30,
            work: u64::MAX,
            ..Limits::default()
        };
        let rows = Mutex::new(Vec::new());
        let ended = run(&request, &limits, Door::Python, &|row| {
            rows.lock().unwrap().push(row)
        });
        assert_eq!(
            ended,
            Survey {
                rows: 1,
                stopped: false
            }
        );
        let rows = rows.into_inner().unwrap();
        let Err(Failure::Limit { message, raised_by }) = &rows[0].sequence else {
            panic!("no time limit");
        };
        assert_eq!(*raised_by, Some(Limit::Time));
        assert_eq!(
            message,
            "error: the computation did not finish within 0.05 s (the time limit); raise it with max_time=SECONDS"
        );
    }

    #[test]
    fn a_raised_signal_stops_the_survey() {
        let cancel = Cancel::new();
        cancel.cancel();
        let (rows, ended) = cancel.run(|| survey(&["0.07", "kayles"], 1000, Some(2)));
        assert!(rows.is_empty());
        assert_eq!(
            ended,
            Survey {
                rows: 0,
                stopped: true
            }
        );
    }
}
