//! How long computing a Grundy sequence will take, said before it starts.
//!
//! A run of many values (or of costly ones) measures its speed on a sample of
//! the next heaps and adds the work beyond linear that the [`CostModel`]
//! predicts, at about 10^8 steps a second; a run estimated to take more than a
//! few seconds says so (`grundy seq` on standard error, Python as a warning),
//! so that a long run is never silent.

use std::time::{Duration, Instant};

use crate::rules::HeapRule;
use crate::sequence::{CostModel, SequenceSolver};
use crate::theory::cancel::Cancel;
use crate::theory::limits::Door;
use crate::theory::limits::Limit;

/// Runs computing at least this many values say how long they will take (when
/// that is more than [`ANNOUNCED_SECONDS`]).
const ESTIMATED_FROM: usize = 1 << 20;
/// The speed of a rule before a long run is measured from this heap on: the
/// first heaps, while the engine chooses its masks, are slower than the rest.
const RATE_SAMPLE_FROM: usize = 1 << 14;
/// ... over heaps up to this one at most,
const RATE_SAMPLE_TO: usize = 1 << 18;
/// ... or for this long (a shorter sample is at the mercy of the machine's
/// other work).
const RATE_SAMPLE_TIME: Duration = Duration::from_millis(250);
/// ... or, for the heaps a run until proven may go on to (an "up to"
/// estimate, sampled on a copy whose values are dropped), for this long.
const REACH_SAMPLE_TIME: Duration = Duration::from_millis(50);
/// Runs estimated to last longer than this say so before they start.
const ANNOUNCED_SECONDS: f64 = 3.0;
/// Subtraction amounts per heap from which the time a heap takes grows with
/// them: runs of fewer than [`ESTIMATED_FROM`] values are estimated too, and
/// the speed measured is scaled by them.
const MANY_AMOUNTS: f64 = 64.0;
/// Steps of work beyond linear done in a second (the work limit's unit).
const STEPS_PER_SECOND: f64 = 1e8;

/// The time computing the values of heaps `held..=reach` is estimated to take.
#[derive(Clone, Debug, PartialEq)]
struct TimeEstimate {
    /// The whole estimate, in seconds.
    seconds: f64,
    /// The speed measured, in values a second, with the last heap of its
    /// sample, when the rule costs linear time.
    rate: Option<(f64, usize)>,
    /// Whether the speed was scaled by the subtraction amounts a heap looks at.
    scaled: bool,
    /// Steps of work beyond linear still to do.
    steps: u64,
    /// The first heap still to compute.
    held: usize,
    /// The last heap to compute.
    reach: usize,
}

impl TimeEstimate {
    /// The estimate for people: "about 3.3 h for the values of kayles of heaps
    /// 0..=1000000000 at ~8.4e4 values/s (...), on one core"; `work_limit`
    /// names the setting that bounds the work beyond linear (`--max-work
    /// STEPS`).
    #[must_use]
    fn describe(&self, rule: &str, work_limit: &str) -> String {
        let speed = self.rate.map_or_else(String::new, |(rate, sampled)| {
            let scaled = if self.scaled {
                ", scaled by the subtraction amounts each heap looks at"
            } else {
                ""
            };
            format!(
                " at ~{rate:.1e} values/s (the speed on heaps {RATE_SAMPLE_FROM}..{sampled}{scaled})"
            )
        });
        let work = if self.steps > 0 {
            format!(
                ", {:.1e} steps of work beyond linear at about 10^8 a second ({work_limit} bounds them)",
                self.steps as f64
            )
        } else {
            String::new()
        };
        format!(
            "about {} for the values of {rule} of heaps {}..={}{speed}, on one core{work}",
            human_duration(self.seconds),
            self.held,
            self.reach
        )
    }
}

/// How long computing the heaps `held..=reach` will take, when that is more
/// than [`ANNOUNCED_SECONDS`]: for rules costing linear time at the speed
/// measured on the next heaps of `probe` (which computes them: a caller that
/// goes on from the probe keeps them), and the work beyond linear at
/// [`STEPS_PER_SECOND`]. `None` for a short run, or one too small to estimate.
fn time_estimate(
    model: &CostModel,
    probe: &mut SequenceSolver,
    held: usize,
    reach: usize,
) -> Option<TimeEstimate> {
    sampled_estimate(model, probe, held, reach, RATE_SAMPLE_TIME)
}

/// [`time_estimate`] with a sample of the speed lasting at most `sample_time`.
fn sampled_estimate(
    model: &CostModel,
    probe: &mut SequenceSolver,
    held: usize,
    reach: usize,
    sample_time: Duration,
) -> Option<TimeEstimate> {
    let values = (reach + 1).saturating_sub(held);
    let linear = model.what_grows().is_none();
    let amounts = amounts_per_heap(probe.rule(), held, reach);
    if values < ESTIMATED_FROM && linear && amounts.is_none_or(|amounts| amounts < MANY_AMOUNTS) {
        return None;
    }
    // The sample stops with the work it is for: an estimate cut short is not
    // made (a front end asking again after a quick attempt gets one).
    let signal = crate::theory::cancel::current();
    let stopped = || signal.as_ref().is_some_and(Cancel::is_cancelled);
    let rate = linear.then(|| {
        probe.extend_to(RATE_SAMPLE_FROM.min(reach));
        let first = probe.values().len();
        let started = Instant::now();
        let last = RATE_SAMPLE_TO.min(reach);
        while probe.values().len() <= last && started.elapsed() < sample_time && !stopped() {
            probe.extend_to((probe.values().len() + (1 << 12)).min(last));
        }
        let sampled = probe.values().len() - first;
        (
            sampled.max(1) as f64,
            started.elapsed().as_secs_f64().max(1e-6),
        )
    });
    if stopped() {
        return None;
    }
    let sampled = probe.values().len();
    let mut rate = rate.map(|(values, seconds)| values / seconds);
    // A heap of a subtraction game costs as many steps as the amounts up to
    // it: with many amounts, the heaps sampled are cheaper than the later
    // ones, by this ratio.
    let sampled_amounts = amounts_per_heap(probe.rule(), RATE_SAMPLE_FROM.min(reach), sampled - 1);
    let mut scaled = false;
    if let (Some(rate), Some(amounts), Some(sampled_amounts)) =
        (rate.as_mut(), amounts, sampled_amounts)
        && sampled_amounts >= MANY_AMOUNTS
        && amounts > sampled_amounts
    {
        *rate *= sampled_amounts / amounts;
        scaled = true;
    }
    // Steps add up heap by heap: those of the heaps held are done.
    let steps = model.cost(reach).steps.saturating_sub(match held {
        0 => 0,
        _ => model.cost(held - 1).steps,
    });
    let seconds = rate.map_or(0.0, |rate| values as f64 / rate) + steps as f64 / STEPS_PER_SECOND;
    if seconds < ANNOUNCED_SECONDS {
        return None;
    }
    Some(TimeEstimate {
        seconds,
        rate: rate.map(|rate| (rate, sampled)),
        scaled,
        steps,
        held,
        reach,
    })
}

/// What a run computing heaps `held..=last` of `rule` will cost, said before
/// it starts when it is more than a few seconds (`ANNOUNCED_SECONDS`, 3); `until_proven_to`
/// is the heap a run that goes on until a period is proven may reach, so
/// that the whole range it may compute is announced, not only the heaps
/// asked; the settings that bound it are named as `door` names them
/// (`--max-work STEPS`, `max_work=STEPS`). `None` when the run is short
/// whatever it computes.
pub fn announcement(
    rule: &str,
    model: &CostModel,
    probe: &mut SequenceSolver,
    held: usize,
    last: usize,
    until_proven_to: Option<usize>,
    door: Door,
) -> Option<String> {
    let work = door.setting(Limit::Work);
    let asked = time_estimate(model, probe, held, last);
    // The values past `last` are computed only as far as no period is proven:
    // the sample of their speed is taken on a copy, so that a run whose proof
    // comes early computes no more than it needs.
    let whole = until_proven_to
        .filter(|&reach| reach > last)
        .and_then(|reach| {
            let mut copy = probe.clone();
            sampled_estimate(
                model,
                &mut copy,
                held.max(last + 1),
                reach,
                REACH_SAMPLE_TIME,
            )
        });
    match (asked, whole) {
        (None, None) => None,
        (Some(asked), None) => Some(asked.describe(rule, work)),
        (asked, Some(whole)) => {
            let first = asked.map_or_else(
                || {
                    format!("under {ANNOUNCED_SECONDS:.0} s for the values of {rule} of heaps {held}..={last}")
                },
                |asked| asked.describe(rule, work),
            );
            Some(format!(
                "{first}; then, until a period is proven, up to {} more for heaps {}..={} ({} bounds them)",
                human_duration(whole.seconds),
                whole.held,
                whole.reach,
                door.setting(Limit::LargestHeap)
            ))
        }
    }
}

/// The amounts of a subtraction game a heap in `from..=to` looks at, on
/// average (those up to the heap); `None` for other rules.
fn amounts_per_heap(rule: &HeapRule, from: usize, to: usize) -> Option<f64> {
    let HeapRule::Subtraction(set) = rule else {
        return None;
    };
    let looked_at: f64 = set
        .elements()
        .iter()
        .map(|&amount| (to + 1).saturating_sub((amount as usize).max(from)) as f64)
        .sum();
    Some(looked_at / (to.saturating_sub(from) + 1) as f64)
}

/// A duration for people: `40 s`, `15 min`, `2.5 h`.
#[must_use]
fn human_duration(seconds: f64) -> String {
    if seconds < 90.0 {
        format!("{seconds:.0} s")
    } else if seconds < 90.0 * 60.0 {
        format!("{:.0} min", seconds / 60.0)
    } else {
        format!("{:.1} h", seconds / 3600.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sequence::Method;

    fn announce(rule: &str, last: usize, until_proven_to: Option<usize>) -> Option<String> {
        let (rule, text) = crate::catalogue::parse_rule(rule).unwrap();
        let mut probe = SequenceSolver::new(rule.clone(), Method::SparseSpace);
        probe.extend_to(last.min(1023));
        let model = CostModel::new(&rule, Method::SparseSpace, probe.values());
        announcement(
            &text,
            &model,
            &mut probe,
            0,
            last,
            until_proven_to,
            Door::CommandLine,
        )
    }

    #[test]
    fn durations_read_in_seconds_minutes_or_hours() {
        assert_eq!(human_duration(40.4), "40 s");
        assert_eq!(human_duration(15.0 * 60.0), "15 min");
        assert_eq!(human_duration(2.5 * 3600.0), "2.5 h");
    }

    #[test]
    fn a_short_run_says_nothing() {
        assert_eq!(announce("kayles", 1000, None), None);
        assert_eq!(announce("octal[0.6]", 1000, None), None);
    }

    #[test]
    fn a_run_costing_more_than_linear_is_announced_with_its_steps() {
        // Octal 0.9 leaves three heaps: the work grows with the square of the
        // heap, hours for 10^5 heaps at 10^8 steps a second.
        let said = announce("octal[0.9]", 100_000, None).unwrap();
        assert!(
            said.contains(" h for the values of octal[0.9] of heaps 0..=100000"),
            "{said}"
        );
        assert!(said.contains("steps of work beyond linear"), "{said}");
        assert!(said.contains("(--max-work STEPS bounds them)"), "{said}");
    }

    #[test]
    fn a_linear_run_is_announced_at_the_speed_measured() {
        // 10^9 values at well under 10^8 a second: minutes at least.
        let said = announce("grundy_game", 1_000_000_000, None).unwrap();
        assert!(
            said.contains(" for the values of grundy_game of heaps 0..=1000000000 at ~"),
            "{said}"
        );
        assert!(
            said.contains("values/s (the speed on heaps 16384.."),
            "{said}"
        );
    }

    #[test]
    fn a_run_until_proven_announces_the_whole_range_it_may_compute() {
        // Officers (0.6) has no period known: to 10^5 is quick, but the run
        // may go on to the largest heap allowed.
        let said = announce("octal[0.6]", 100_000, Some(1_000_000_000)).unwrap();
        assert!(said.starts_with("under 3 s for the values of octal[0.6] of heaps 0..=100000; then, until a period is proven, up to "), "{said}");
        assert!(
            said.ends_with("for heaps 100001..=1000000000 (--max-heap N bounds them)"),
            "{said}"
        );
        // Proven or not, the heaps asked alone are not announced.
        assert_eq!(announce("octal[0.6]", 100_000, Some(100_000)), None);
    }
}
