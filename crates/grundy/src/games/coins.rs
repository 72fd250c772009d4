//! Coin turning: `turtles`, `mock_turtles`, `twins`, `ruler` and `coins[RULE]`.
//!
//! # Rules (Winning Ways ch. 14)
//! A row of coins, `h` heads and `t` tails, coin 1 leftmost. A move turns over
//! a set of coins allowed by the rule, and the rightmost coin turned must go
//! from heads to tails (so the game ends). Whoever cannot move loses.
//!
//! | game | rule |
//! |---|---|
//! | `turtles` | turn one or two coins |
//! | `mock_turtles` | turn one, two or three coins |
//! | `twins` | turn exactly two coins |
//! | `ruler` | turn any number of consecutive coins |
//! | `coins[c1, c2, .., span=S, consecutive=1]` | turn `c` coins for a `c` listed (any number when none is), all within `S` consecutive places when `span` is given, consecutive when `consecutive=1` |
//!
//! # Theorem (Winning Ways ch. 14)
//! A row's nimber is the xor of the nimbers of its heads taken alone: turning a
//! tails coin up adds a head, and two heads on one coin cancel like equal
//! nim-heaps. The nimber `G(r)` of a lone head at `r` is the mex, over the
//! allowed sets `A` of other coins (all left of `r`), of the xor of `G` over
//! `A`. Closed forms, each checked against that recurrence and against the
//! generic search on every row up to 14 coins:
//! - turtles: `G(r) = r` (Nim);
//! - twins: `G(r) = r - 1`;
//! - mock turtles: `G(r)` is the `r`-th odious number (odd number of ones in
//!   binary: 1, 2, 4, 7, 8, 11, ...);
//! - ruler: `G(r)` is the largest power of two dividing `r`.
//!
//! Other rules compute `G` by the recurrence, each value a mex over the allowed
//! sets (in linear time when a move turns at most two coins, or consecutive
//! coins); the work is estimated first and refused past `--max-work`. A
//! winning move turns the head at `r` and a set `A` with
//! `xor G(A) = N xor G(r)`; they are counted by an index of values (or of
//! prefix xors, for consecutive coins).

use std::sync::Arc;

use num_bigint::BigUint;
use rustc_hash::FxHashMap;

use crate::drawing::Drawing;
use crate::family::{Family, MovesTo, part};
use crate::lang::{LangError, Term, ValueKind};
use crate::registry::{BuildContext, DrawingKind, EntryKind, GameEntry};
use crate::sums::position::Group;
use crate::theory::solver::{Limit, Refusal, SearchError};

/// Which sets of coins a move may turn (besides the rightmost, which goes
/// from heads to tails).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CoinRule {
    /// How many coins a move turns, sorted; `None` for any number.
    counts: Option<Vec<u32>>,
    /// The turned coins lie within this many consecutive places.
    span: Option<u32>,
    /// The turned coins are consecutive.
    consecutive: bool,
    /// The canonical head: `turtles`, `coins[1, 4; span=5]`.
    head: String,
}

impl CoinRule {
    fn named(name: &str) -> Option<Self> {
        let (counts, consecutive) = match name {
            "turtles" => (Some(vec![1, 2]), false),
            "mock_turtles" => (Some(vec![1, 2, 3]), false),
            "twins" => (Some(vec![2]), false),
            "ruler" => (None, true),
            _ => return None,
        };
        Some(Self {
            counts,
            span: None,
            consecutive,
            head: name.to_owned(),
        })
    }

    /// A rule from its parts; `None` when no move is possible at all.
    #[must_use]
    pub fn new(counts: Option<Vec<u32>>, span: Option<u32>, consecutive: bool) -> Self {
        let mut parts = Vec::new();
        if let Some(counts) = &counts {
            parts.push(
                counts
                    .iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join(", "),
            );
        }
        if let Some(span) = span {
            parts.push(format!("span={span}"));
        }
        if consecutive {
            parts.push("consecutive=1".to_owned());
        }
        let head = format!("coins[{}]", parts.join(", "));
        Self {
            counts,
            span,
            consecutive,
            head,
        }
    }

    /// Whether a move may turn `count` coins.
    fn allows(&self, count: u64) -> bool {
        count >= 1
            && self
                .counts
                .as_ref()
                .is_none_or(|counts| counts.iter().any(|&c| u64::from(c) == count))
    }

    /// The lowest coin a move whose rightmost coin is `r` may turn.
    fn lowest(&self, r: usize) -> usize {
        self.span
            .map_or(1, |span| (r + 1).saturating_sub(span as usize).max(1))
    }

    /// The closed form of `G(r)` for the rules that have one.
    fn closed_form(&self) -> Option<fn(u64) -> u64> {
        let unbounded = self.span.is_none();
        match (self.counts.as_deref(), self.consecutive, unbounded) {
            (Some([1, 2]), false, true) => Some(|r| r),
            (Some([2]), false, true) => Some(|r| r - 1),
            (Some([1, 2, 3]), false, true) => Some(|r| {
                let k = r - 1;
                2 * k + u64::from(k.count_ones() % 2 == 0)
            }),
            (None, true, true) => Some(|r| r & r.wrapping_neg()),
            _ => None,
        }
    }

    /// The sizes of the sets `A` of other coins: each allowed count less one,
    /// up to `most`.
    fn other_sizes(&self, most: usize) -> Vec<usize> {
        match &self.counts {
            Some(counts) => counts
                .iter()
                .map(|&c| c as usize - 1)
                .filter(|&s| s <= most)
                .collect(),
            None => (0..=most).collect(),
        }
    }

    /// How many sets `A` a move may turn from a window of `window` coins.
    fn sets_in(&self, window: usize) -> f64 {
        match &self.counts {
            _ if self.consecutive => (window + 1) as f64,
            Some(_) => self
                .other_sizes(window)
                .iter()
                .map(|&size| binomial(window, size))
                .sum(),
            None => 2f64.powi(i32::try_from(window).unwrap_or(i32::MAX)),
        }
    }

    /// The steps one value takes by the recurrence, from a window of `window`
    /// coins: the sets, or for any number of coins anywhere a basis of the
    /// window's values.
    fn value_work(&self, window: usize) -> f64 {
        if self.counts.is_none() && !self.consecutive {
            (window as f64 + 1.0) * 64.0
        } else {
            self.sets_in(window)
        }
    }

    /// `G(1..=n)` (index 0 unused), within `work` steps.
    fn values(&self, n: usize, work: u64) -> Result<Vec<u64>, Refusal> {
        let mut values = vec![0u64; n + 1];
        if let Some(form) = self.closed_form() {
            for (r, value) in values.iter_mut().enumerate().skip(1) {
                *value = form(r as u64);
            }
            return Ok(values);
        }
        let estimate = self.estimated_work(n);
        if estimate > work as f64 {
            return Err(Refusal::new(
                format!(
                    "the single-coin values of {} up to coin {n} need about {estimate:.1e} steps, \
                     more than the work limit of {work}",
                    self.head
                ),
                &[Limit::Work],
            ));
        }
        let mut seen: Vec<u64> = Vec::new();
        let mut prefix = vec![0u64; n + 1];
        for r in 1..=n {
            let low = self.lowest(r);
            seen.clear();
            if self.consecutive {
                for j in 1..=r - low + 1 {
                    if self.allows(j as u64) {
                        seen.push(prefix[r - 1] ^ prefix[r - j]);
                    }
                }
            } else if self.counts.is_none() {
                // Any number of coins: the xors of the window's subsets are
                // its linear span over GF(2), whose mex is the least power of
                // two outside it (were x = 2^t + y the least, with y < 2^t
                // nonzero, 2^t and y would both lie in the span, and so x).
                let basis = xor_basis(&values[low..r]);
                let t = (0..64)
                    .find(|&t| !in_span(&basis, 1u64 << t))
                    .ok_or_else(|| {
                        Refusal::new(
                            format!(
                                "the single-coin values of {} pass 2^64 by coin {r}: grundy computes them \
                                 below 2^64",
                                self.head
                            ),
                            &[],
                        )
                    })?;
                values[r] = 1 << t;
                prefix[r] = prefix[r - 1] ^ values[r];
                continue;
            } else {
                let window = &values[low..r];
                for size in self.other_sizes(window.len()) {
                    xors_of_subsets(window, size, &mut seen);
                }
            }
            values[r] = mex(&mut seen);
            prefix[r] = prefix[r - 1] ^ values[r];
        }
        Ok(values)
    }

    /// The steps [`values`](Self::values) takes by the recurrence.
    fn estimated_work(&self, n: usize) -> f64 {
        let mut total = 0f64;
        // Sampled: the work per coin only grows with r.
        let step = (n / 1000).max(1);
        let mut r = 1;
        while r <= n {
            total += self.value_work(r - self.lowest(r)) * step as f64;
            r += step;
        }
        total
    }
}

fn binomial(n: usize, k: usize) -> f64 {
    (0..k).fold(1f64, |acc, i| acc * (n - i) as f64 / (i + 1) as f64)
}

/// Pushes the xor of every `size`-subset of `window`.
fn xors_of_subsets(window: &[u64], size: usize, out: &mut Vec<u64>) {
    fn go(window: &[u64], from: usize, left: usize, acc: u64, out: &mut Vec<u64>) {
        if left == 0 {
            out.push(acc);
            return;
        }
        for i in from..=window.len() - left {
            go(window, i + 1, left - 1, acc ^ window[i], out);
        }
    }
    if size <= window.len() {
        go(window, 0, size, 0, out);
    }
}

/// A basis of the span of `values` over GF(2), one vector a leading bit.
fn xor_basis(values: &[u64]) -> [u64; 64] {
    let mut basis = [0u64; 64];
    for &value in values {
        let mut v = value;
        while v != 0 {
            let top = 63 - v.leading_zeros() as usize;
            if basis[top] == 0 {
                basis[top] = v;
                break;
            }
            v ^= basis[top];
        }
    }
    basis
}

fn in_span(basis: &[u64; 64], mut v: u64) -> bool {
    while v != 0 {
        let top = 63 - v.leading_zeros() as usize;
        if basis[top] == 0 {
            return false;
        }
        v ^= basis[top];
    }
    true
}

fn mex(values: &mut [u64]) -> u64 {
    values.sort_unstable();
    let mut mex = 0;
    for &v in values.iter() {
        if v == mex {
            mex += 1;
        } else if v > mex {
            break;
        }
    }
    mex
}

/// A coin-turning game with the single-coin values of its longest row.
#[derive(Debug)]
pub struct Coins {
    rule: CoinRule,
    values: Vec<u64>,
    /// The work allowed to count winning moves.
    work: u64,
}

impl PartialEq for Coins {
    fn eq(&self, other: &Self) -> bool {
        self.rule == other.rule
    }
}

/// A row of coins, `true` for heads; coin 1 first.
pub type Row = Arc<[bool]>;

impl Coins {
    fn nimber_of(&self, row: &[bool]) -> u64 {
        row.iter()
            .enumerate()
            .filter(|&(_, &head)| head)
            .fold(0, |x, (i, _)| x ^ self.values[i + 1])
    }

    fn turned(row: &Row, coins: &[usize]) -> Row {
        let mut after = row.to_vec();
        for &c in coins {
            after[c - 1] = !after[c - 1];
        }
        after.into()
    }

    /// Every move from `row`: the coins turned, rightmost last.
    fn each_move(&self, row: &[bool], mut visit: impl FnMut(&[usize]) -> bool) {
        for r in (1..=row.len()).filter(|&r| row[r - 1]) {
            let low = self.rule.lowest(r);
            if self.rule.consecutive {
                for j in 1..=r - low + 1 {
                    if self.rule.allows(j as u64) {
                        let coins: Vec<usize> = (r + 1 - j..=r).collect();
                        if !visit(&coins) {
                            return;
                        }
                    }
                }
                continue;
            }
            let others: Vec<usize> = (low..r).collect();
            for size in self.rule.other_sizes(others.len()) {
                let mut chosen = Vec::with_capacity(size + 1);
                if !subsets(&others, size, 0, &mut chosen, &mut |set| {
                    let mut coins = set.to_vec();
                    coins.push(r);
                    visit(&coins)
                }) {
                    return;
                }
            }
        }
    }
}

/// Calls `visit` on every `size`-subset of `items` (in order); stops when it
/// returns false, and then returns false.
fn subsets(
    items: &[usize],
    size: usize,
    from: usize,
    chosen: &mut Vec<usize>,
    visit: &mut dyn FnMut(&[usize]) -> bool,
) -> bool {
    if chosen.len() == size {
        return visit(chosen);
    }
    for i in from..items.len() {
        if items.len() - i < size - chosen.len() {
            break;
        }
        chosen.push(items[i]);
        let go_on = subsets(items, size, i + 1, chosen, visit);
        chosen.pop();
        if !go_on {
            return false;
        }
    }
    true
}

impl Family for Coins {
    type Position = Row;

    fn drawing(&self, row: &Row) -> Option<Drawing> {
        Some(Drawing::Coins(row.to_vec()))
    }

    fn write_position(&self, row: &Row, out: &mut String) {
        out.push('"');
        out.extend(row.iter().map(|&head| if head { 'h' } else { 't' }));
        out.push('"');
    }

    fn moves(&self, row: &Row, limit: usize) -> Result<Vec<Vec<Row>>, SearchError> {
        let mut moves = Vec::new();
        let mut over = false;
        self.each_move(row, |coins| {
            if moves.len() == limit {
                over = true;
                return false;
            }
            moves.push(vec![Self::turned(row, coins)]);
            true
        });
        if over {
            return Err(SearchError::StateLimit { limit });
        }
        Ok(moves)
    }

    fn describe_move(&self, from: &Row, to: &[Row]) -> String {
        let Some(to) = to.first() else {
            return "a move".to_owned();
        };
        let turned: Vec<usize> = from
            .iter()
            .zip(to.iter())
            .enumerate()
            .filter(|(_, (a, b))| a != b)
            .map(|(i, _)| i + 1)
            .collect();
        match turned.as_slice() {
            [one] => format!("turn coin {one}"),
            [first, .., last] if turned.len() > 2 && last - first + 1 == turned.len() => {
                format!("turn coins {first} to {last}")
            }
            _ => {
                let list: Vec<String> = turned.iter().map(usize::to_string).collect();
                format!("turn coins {}", list.join(", "))
            }
        }
    }

    fn nimber_by_theory(&self, row: &Row) -> Option<(BigUint, &'static str)> {
        Some((
            self.nimber_of(row).into(),
            "xor of single-coin values (coin turning theorem)",
        ))
    }

    fn moves_to_nimber_by_theory(
        &self,
        row: &Row,
        target: &BigUint,
        max: usize,
    ) -> Option<MovesTo<Row>> {
        let target = u64::try_from(target).ok()?;
        let total = self.nimber_of(row);
        let at_most_two = (self.rule.counts.as_ref()).is_some_and(|c| c.iter().all(|&c| c <= 2));
        if self.rule.consecutive || at_most_two {
            return Some(self.moves_by_index(row, total ^ target, max));
        }
        // Enumerate, within the work allowed: refused at once when the
        // number of moves alone is past it.
        let estimate: f64 = (1..=row.len())
            .filter(|&r| row[r - 1])
            .map(|r| self.rule.sets_in(r - self.rule.lowest(r)))
            .sum();
        if estimate > self.work as f64 {
            return None;
        }
        let mut moves = MovesTo::default();
        let mut steps = 0u64;
        let mut over = false;
        self.each_move(row, |coins| {
            steps += 1;
            if steps > self.work {
                over = true;
                return false;
            }
            let change = coins.iter().fold(0, |x, &c| x ^ self.values[c]);
            if change == total ^ target {
                moves.count += 1u32;
                if moves.listed.len() < max {
                    moves.listed.push(vec![Self::turned(row, coins)]);
                }
            }
            true
        });
        (!over).then_some(moves)
    }

    fn moves_to_nimber_refusal(&self, row: &Row, _target: &BigUint) -> Option<Refusal> {
        Some(Refusal::new(
            format!(
                "counting the moves of a row of {} coins under {} takes more than {} steps",
                row.len(),
                self.rule.head,
                self.work
            ),
            &[Limit::Work],
        ))
    }
}

impl Coins {
    /// The moves changing the nimber by `change`, by an index of values
    /// (moves of one or two coins) or of prefix xors (consecutive coins):
    /// linear in the row.
    fn moves_by_index(&self, row: &Row, change: u64, max: usize) -> MovesTo<Row> {
        let n = row.len();
        let mut moves = MovesTo::default();
        let mut count = 0u64;
        // Positions (0 for the empty prefix) by value: G for single coins,
        // the prefix xor for consecutive blocks; each list increasing.
        let mut prefix = vec![0u64; n + 1];
        for r in 1..=n {
            prefix[r] = prefix[r - 1] ^ self.values[r];
        }
        let mut index: FxHashMap<u64, Vec<usize>> = FxHashMap::default();
        let keys = if self.rule.consecutive {
            &prefix[..]
        } else {
            &self.values[..]
        };
        let first = usize::from(!self.rule.consecutive);
        for (at, &key) in keys.iter().enumerate().skip(first) {
            index.entry(key).or_default().push(at);
        }
        for r in (1..=n).filter(|&r| row[r - 1]) {
            let low = self.rule.lowest(r);
            let wanted = change ^ self.values[r];
            if self.rule.consecutive {
                // Turn r - j + 1..=r: prefix[r - 1] ^ prefix[r - j] = wanted.
                let Some(places) = index.get(&(prefix[r - 1] ^ wanted)) else {
                    continue;
                };
                let from = places.partition_point(|&m| m < low - 1);
                let to = places.partition_point(|&m| m < r);
                for &m in &places[from..to] {
                    let j = r - m;
                    if self.rule.allows(j as u64) {
                        count += 1;
                        if moves.listed.len() < max {
                            let coins: Vec<usize> = (m + 1..=r).collect();
                            moves.listed.push(vec![Self::turned(row, &coins)]);
                        }
                    }
                }
                continue;
            }
            if wanted == 0 && self.rule.allows(1) {
                count += 1;
                if moves.listed.len() < max {
                    moves.listed.push(vec![Self::turned(row, &[r])]);
                }
            }
            if self.rule.allows(2)
                && let Some(places) = index.get(&wanted)
            {
                let from = places.partition_point(|&a| a < low);
                let to = places.partition_point(|&a| a < r);
                count += (to - from) as u64;
                for &a in places[from..to]
                    .iter()
                    .take(max - moves.listed.len().min(max))
                {
                    moves.listed.push(vec![Self::turned(row, &[a, r])]);
                }
            }
        }
        moves.count = count.into();
        moves
    }
}

/// Reads a rule's parameters: counts, `span=S`, `consecutive=1`.
fn rule_of(term: &Term) -> Result<CoinRule, LangError> {
    if let Some(rule) = CoinRule::named(&term.name) {
        crate::lang::arguments::no_params(term)?;
        return Ok(rule);
    }
    let mut counts = Vec::new();
    let mut span = None;
    let mut consecutive = false;
    let small = |value: &num_bigint::BigInt, span| {
        u32::try_from(value)
            .ok()
            .filter(|&v| v >= 1)
            .ok_or_else(|| LangError::new(format!("`{value}` must be from 1 to 2^32 - 1"), span))
    };
    for param in &term.params {
        let at = param.value.span;
        match (
            param.key.as_ref().map(|(k, _)| k.as_str()),
            &param.value.kind,
        ) {
            (None, ValueKind::Integer(c)) => counts.push(small(c, at)?),
            (None, ValueKind::Range(low, high, step)) => {
                let (low, high) = (small(low, at)?, small(high, at)?);
                let step = u32::try_from(step).unwrap_or(u32::MAX).max(1);
                if low > high {
                    return Err(LangError::new(
                        format!("the range {low}..{high} is empty: its start is above its end"),
                        at,
                    ));
                }
                if high - low > 1000 {
                    return Err(LangError::new("at most 1000 counts a rule", at));
                }
                counts.extend((low..=high).step_by(step as usize));
            }
            (Some("span"), ValueKind::Integer(s)) => span = Some(small(s, at)?),
            (Some("consecutive"), ValueKind::Integer(c)) if *c == 0.into() || *c == 1.into() => {
                consecutive = *c == 1.into();
            }
            _ => {
                return Err(LangError::new(
                    "a coin rule is counts (`1, 2` or `1..3`), `span=S` and `consecutive=1`",
                    at,
                )
                .with_help("for example `coins[1, 3, span=4]` or `coins[consecutive=1]`"));
            }
        }
    }
    counts.sort_unstable();
    counts.dedup();
    Ok(CoinRule::new(
        (!counts.is_empty()).then_some(counts),
        span,
        consecutive,
    ))
}

fn build(term: &Term, context: &BuildContext<'_>) -> Result<Group, LangError> {
    let rule = rule_of(term)?;
    let mut rows = Vec::with_capacity(term.args.len());
    for arg in &term.args {
        let ValueKind::Text(text) = &arg.kind else {
            return Err(LangError::new(
                format!(
                    "`{}` takes rows of coins such as \"hthht\", found `{arg}`",
                    term.name
                ),
                arg.span,
            ));
        };
        let row: Result<Vec<bool>, LangError> = text
            .chars()
            .enumerate()
            .map(|(i, c)| match c {
                'h' | 'H' => Ok(true),
                't' | 'T' => Ok(false),
                other => Err(LangError::new(
                    format!(
                        "coin {} is `{other}`: a row holds h (heads) and t (tails)",
                        i + 1
                    ),
                    arg.span,
                )),
            })
            .collect();
        rows.push(Row::from(row?));
    }
    let longest = rows.iter().map(|row| row.len()).max().unwrap_or(0);
    if (longest as u64).saturating_mul(16) > context.limits.bytes {
        return Err(
            LangError::new("the row needs more memory than the limit", term.span)
                .as_limit(Limit::Memory),
        );
    }
    let values = rule
        .values(longest, context.limits.work)
        .map_err(|refusal| {
            let error = LangError::new(refusal.reason, term.span);
            // Values past 2^64 are refused by no flag: not a budget.
            if refusal.raised_by.is_empty() {
                error
            } else {
                error.as_limit(Limit::Work)
            }
        })?;
    let head = rule.head.clone();
    let game = Arc::new(Coins {
        rule,
        values,
        work: context.limits.work,
    });
    Ok(Group::new(
        head,
        rows.into_iter().map(|row| part(&game, row)).collect(),
    ))
}

macro_rules! coin_entry {
    ($name:literal, $summary:literal, $rule:literal, $example:literal) => {
        GameEntry {
            name: $name,
            summary: $summary,
            rules: concat!(
                $name,
                "(\"ROW\", ...): ",
                $rule,
                " ",
                "See `grundy games coins`."
            ),
            syntax: concat!($name, "(\"hthht\", ...)"),
            examples: &[$example],
            kind: EntryKind::Game(build),
            heap_rule: None,
            drawing: DrawingKind::Coins,
            every_start: None,
        }
    };
}

/// The catalogue entries.
pub(crate) const TURTLES_ENTRY: GameEntry = coin_entry!(
    "turtles",
    "coin turning: turn one or two coins",
    "turn one or two coins (Turning Turtles): a head at coin r is worth r, so this is Nim.",
    "turtles(\"thhth\")"
);
/// Mock Turtles.
pub(crate) const MOCK_TURTLES_ENTRY: GameEntry = coin_entry!(
    "mock_turtles",
    "coin turning: turn one, two or three coins",
    "turn one, two or three coins (Mock Turtles): a head at coin r is worth the r-th odious \
     number (1, 2, 4, 7, 8, 11, ...: an odd number of ones in binary).",
    "mock_turtles(\"hthhth\")"
);
/// Twins.
pub(crate) const TWINS_ENTRY: GameEntry = coin_entry!(
    "twins",
    "coin turning: turn exactly two coins",
    "turn exactly two coins: a head at coin r is worth r - 1.",
    "twins(\"thht\")"
);
/// Ruler.
pub(crate) const RULER_ENTRY: GameEntry = coin_entry!(
    "ruler",
    "coin turning: turn any number of consecutive coins",
    "turn any number of consecutive coins (Ruler): a head at coin r is worth the largest power \
     of two dividing r.",
    "ruler(\"hhthhh\")"
);

/// The general rule.
pub(crate) const COINS_ENTRY: GameEntry = GameEntry {
    name: "coins",
    summary: "coin turning with a rule: how many coins, within what span, consecutive or not",
    rules: "coins[c1, c2, ..., span=S, consecutive=1](\"ROW\", ...): a move turns c coins for one \
            of the counts listed (any number when none is; ranges like 1..3 allowed), all within \
            S consecutive places when span is given, and consecutive when consecutive=1. turtles \
            = coins[1, 2], mock_turtles = coins[1..3], twins = coins[2], ruler = \
            coins[consecutive=1]. A row is a string of h (heads) and t (tails), coin 1 leftmost; \
            several rows are a sum. The rightmost coin turned must go from heads to tails. Theory \
            (Winning Ways ch. 14): the nimber is the xor of the values \
            G(r) of the heads alone, where G(r) is the mex over the allowed sets of other coins \
            of the xor of their values; turtles, twins, mock_turtles and ruler have closed forms \
            (r, r - 1, odious numbers, the largest power of two dividing r), other rules are \
            computed by that recurrence within --max-work. A winning move names the coins to \
            turn.",
    syntax: "coins[COUNTS, span=S, consecutive=1](\"hthht\", ...)",
    examples: &[
        "coins[1, 2, 3, span=3](\"hhthth\")",
        "coins[span=3, consecutive=1](\"hhhhh\")",
        "coins[2, 4](\"thhthh\") + nim(2)",
    ],
    kind: EntryKind::Game(build),
    heap_rule: None,
    drawing: DrawingKind::Coins,
    every_start: None,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::Rules;
    use crate::theory::solver::Solver;

    fn game(rule: CoinRule, n: usize) -> Coins {
        let values = rule.values(n, u64::MAX).unwrap();
        Coins {
            rule,
            values,
            work: u64::MAX,
        }
    }

    fn rules() -> Vec<CoinRule> {
        let mut rules: Vec<CoinRule> = ["turtles", "mock_turtles", "twins", "ruler"]
            .iter()
            .map(|name| CoinRule::named(name).unwrap())
            .collect();
        rules.extend([
            CoinRule::new(Some(vec![1, 2, 3]), Some(3), false),
            CoinRule::new(Some(vec![2, 4]), None, false),
            CoinRule::new(None, Some(3), true),
            CoinRule::new(Some(vec![1, 3]), Some(4), true),
            CoinRule::new(None, Some(4), false),
            CoinRule::new(None, None, false),
            CoinRule::new(Some(vec![3]), None, false),
        ]);
        rules
    }

    #[test]
    fn closed_forms_agree_with_the_recurrence() {
        for name in ["turtles", "mock_turtles", "twins", "ruler"] {
            let named = CoinRule::named(name).unwrap();
            let mut plain = named.clone();
            plain.head = "plain".to_owned();
            // The same rule without its closed form: a span too wide to bind.
            plain.span = Some(10_000);
            let closed = named.values(120, u64::MAX).unwrap();
            let recurrence = plain.values(120, u64::MAX).unwrap();
            assert_eq!(closed, recurrence, "{name}");
        }
    }

    #[test]
    fn every_row_up_to_14_coins_matches_search() {
        for rule in rules() {
            let n = if rule.counts.is_none() && !rule.consecutive {
                10
            } else {
                14
            };
            let coins = game(rule.clone(), n);
            let search = Rules::new(game(rule.clone(), n));
            let mut solver = Solver::new(&search);
            for bits in 0u32..1 << n {
                // Every row of n coins, and shorter ones by their prefixes.
                let row: Row = (0..n)
                    .map(|i| bits >> i & 1 == 1)
                    .collect::<Vec<_>>()
                    .into();
                let nimber = solver.nimber(&vec![row.clone()]).unwrap();
                assert_eq!(
                    coins.nimber_by_theory(&row).unwrap().0,
                    BigUint::from(nimber),
                    "{} {row:?}",
                    rule.head
                );
                if bits % 37 == 0 {
                    for target in 0..4u32 {
                        let found = coins
                            .moves_to_nimber_by_theory(&row, &target.into(), usize::MAX)
                            .unwrap();
                        let mut expected: Vec<Row> = coins
                            .moves(&row, usize::MAX)
                            .unwrap()
                            .into_iter()
                            .filter(|leaves| solver.nimber(leaves).unwrap() == target)
                            .map(|mut leaves| leaves.remove(0))
                            .collect();
                        let mut listed: Vec<Row> =
                            found.listed.into_iter().map(|mut l| l.remove(0)).collect();
                        expected.sort();
                        listed.sort();
                        assert_eq!(listed, expected, "{} {row:?} -> {target}", rule.head);
                        assert_eq!(found.count, BigUint::from(expected.len()));
                    }
                }
            }
        }
    }

    #[test]
    fn a_row_of_a_million_coins_answers_by_the_index() {
        let n = 1_000_000;
        let coins = game(CoinRule::named("mock_turtles").unwrap(), n);
        let row: Row = (0..n).map(|i| i % 3 == 0).collect::<Vec<_>>().into();
        let nimber = coins.nimber_of(&row);
        assert!(nimber > 0);
        let ruler = game(CoinRule::named("ruler").unwrap(), n);
        let moves = ruler
            .moves_to_nimber_by_theory(&row, &0u32.into(), 5)
            .unwrap();
        assert!(moves.count > BigUint::default());
        assert!(moves.listed.len() <= 5);
    }

    /// `coins[5..1](...)`: an empty range of counts used to subtract below
    /// zero (a panic in debug builds, "at most 1000 counts" in release).
    #[test]
    fn an_empty_range_of_counts_is_an_error() {
        for (source, at) in [("coins[5..1, 2](\"hh\")", 6), ("coins[3, 9..2]", 9)] {
            let source = if source.ends_with(')') {
                source.to_owned()
            } else {
                format!("{source}(\"ht\")")
            };
            let sum = crate::lang::parse(&source).unwrap();
            let error = crate::catalogue::build(&sum).unwrap_err();
            assert!(
                error
                    .message
                    .contains("is empty: its start is above its end"),
                "{source}: {}",
                error.message
            );
            assert_eq!(error.span.start, at, "{source}");
        }
    }
}
