//! Every "proven" period grundy prints, checked on every small rule, the
//! degenerate ones included: every octal code `0.d1`, `0.d1d2`, `0.d1d2d3`
//! (digits 0-7, the last non-zero) and every hexadecimal code of one or two
//! digits (one of them 8-f; the others are octal codes), every subtraction
//! set within {1..6} and every all-but game excluding a subset of {1..5}.
//!
//! - Normal play: whenever the values of heaps `0..=N` prove a period, the
//!   values it gives for heaps up to `max(4N, 200)` equal the engine's.
//! - Misère quotients: whenever the quotient of heaps `<= N` is proven for
//!   heaps of every size, the quotient of heaps `<= 4N` is the same monoid with
//!   the periodic extension of the heap map.
//! - Misère sums: every sum of up to 3 heaps of at most 8 tokens and of up to
//!   2 heaps of at most 12, answered by `solve` (which uses the quotients, the
//!   genus and the Anti-SG rule), has the outcome and the count of winning
//!   moves of a whole-sum misère search written here from the rules' moves.
//!
//! A sample (every 61st rule) runs by default; the whole sweep with
//! `--include-ignored`.

use std::collections::HashMap;

use grundy::catalogue::build;
use grundy::lang::parse;
use grundy::quotient::{MisereQuotient, QuotientLimits, compute};
use grundy::rules::HeapRule;
use grundy::sequence::{find_periodicity, grundy_values};
use grundy::sums::analysis::{SolveOptions, solve};
use num_bigint::BigUint;

/// Every small rule, with the text that names it in an expression.
fn every_small_rule() -> Vec<(String, HeapRule)> {
    const OCTAL: &[char] = &['0', '1', '2', '3', '4', '5', '6', '7'];
    const HEX: &[char] = &[
        '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'a', 'b', 'c', 'd', 'e', 'f',
    ];
    let mut codes: Vec<String> = Vec::new();
    let mut digits: Vec<String> = vec![String::new()];
    for length in 1..=3 {
        let mut longer = Vec::new();
        for prefix in &digits {
            for &d in HEX {
                let code = format!("{prefix}{d}");
                let octal = code.chars().all(|c| OCTAL.contains(&c));
                let wanted = if octal { length <= 3 } else { length <= 2 };
                if wanted && d != '0' {
                    codes.push(code.clone());
                }
                longer.push(code);
            }
        }
        digits = longer;
    }
    let mut rules: Vec<(String, HeapRule)> = codes
        .into_iter()
        .map(|digits| {
            let code = format!("0.{digits}");
            let rule = HeapRule::octal(&code).unwrap();
            (format!("octal[{code}]"), rule)
        })
        .collect();
    for mask in 1u32..64 {
        let set: Vec<u32> = (1..=6).filter(|s| mask & (1 << (s - 1)) != 0).collect();
        let text = set
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(", ");
        rules.push((format!("sub[{text}]"), HeapRule::subtraction(set).unwrap()));
    }
    for mask in 1u32..32 {
        let excluded: Vec<u32> = (1..=5).filter(|s| mask & (1 << (s - 1)) != 0).collect();
        let text = excluded
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(", ");
        rules.push((
            format!("all_but[{text}]"),
            HeapRule::all_but(excluded).unwrap(),
        ));
    }
    rules
}

/// The rules of the default run's sample.
fn sample() -> Vec<(String, HeapRule)> {
    every_small_rule().into_iter().step_by(61).collect()
}

/// `check` on every rule, the rules shared among the cores: the sum of what
/// it returns.
fn on_every_core(rules: &[(String, HeapRule)], check: fn(&[(String, HeapRule)]) -> usize) -> usize {
    let cores = std::thread::available_parallelism().map_or(2, usize::from);
    let share = rules.len().div_ceil(cores).max(1);
    std::thread::scope(|scope| {
        let workers: Vec<_> = rules
            .chunks(share)
            .map(|chunk| scope.spawn(move || check(chunk)))
            .collect();
        workers
            .into_iter()
            .map(|worker| {
                worker
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .sum()
    })
}

#[test]
fn the_sweep_covers_every_small_rule() {
    let rules = every_small_rule();
    // 511 octal codes, 8 + 184 hexadecimal ones, 63 subtraction sets, 31 all-but games.
    assert_eq!(rules.len(), 511 + 192 + 63 + 31);
    for must in [
        "octal[0.1]",
        "octal[0.01]",
        "octal[0.111]",
        "octal[0.04]",
        "octal[0.f]",
    ] {
        assert!(rules.iter().any(|(name, _)| name == must), "{must}");
    }
}

// ---------------------------------------------------------------- normal play

/// Whenever the values of heaps `0..=n` prove a period, for `n` up to
/// `largest`, its values equal the engine's to `max(4n, 200)`.
fn check_normal_play_periods(rules: &[(String, HeapRule)], largest: usize) -> usize {
    let mut proven = 0;
    for (name, rule) in rules {
        let truth = grundy_values(rule, 4 * largest.max(50));
        for n in 0..=largest {
            let values = grundy_values(rule, n);
            let Some(periodicity) = find_periodicity(rule, &values) else {
                continue;
            };
            if !periodicity.proven() {
                continue;
            }
            proven += 1;
            for heap in 0..=(4 * n).max(200) {
                let claimed = periodicity
                    .value_of_heap(&values, &BigUint::from(heap))
                    .unwrap();
                assert_eq!(
                    claimed,
                    BigUint::from(truth.get(heap).unwrap()),
                    "{name}: the period {periodicity:?} proven from heaps 0..={n} is wrong at heap {heap}"
                );
            }
        }
    }
    proven
}

#[test]
fn normal_play_periods_proven_hold_on_a_sample_of_small_rules() {
    assert!(check_normal_play_periods(&sample(), 40) > 0);
}

#[test]
#[ignore = "exhaustive: every small rule; run with --include-ignored"]
fn normal_play_periods_proven_hold_on_every_small_rule() {
    assert!(
        on_every_core(&every_small_rule(), |rules| check_normal_play_periods(
            rules, 48
        )) > 0
    );
}

#[test]
fn a_heap_cut_down_to_nothing_proves_no_period() {
    // 0.04 (take 2, leave two heaps): G = 0, 0, 0, 0, 1. Winning Ways'
    // window n0 <= n < 2 n0 + p + k with n0 = 0, p = 1, k = 2 holds on the
    // first four values, but a heap of 4 - 2 split in two cannot lose a
    // period of one token and stay a split: no period is proven from them.
    let rule = HeapRule::octal("0.04").unwrap();
    let values = grundy_values(&rule, 3);
    assert!(find_periodicity(&rule, &values).is_none_or(|found| !found.proven()));
    assert_eq!(grundy_values(&rule, 4).get(4), Some(1));
}

// ------------------------------------------------------------ misère quotients

/// The bounds of the quotients built here: those `solve` uses.
const LIMITS: QuotientLimits = QuotientLimits {
    max_bytes: 1 << 28,
    max_order: 4096,
    max_work: 10_000_000,
};

/// Whether `big` (heaps `<= 4n`) is `small` (heaps `<= n`, proven for every
/// heap) with its heap map extended by the period: one bijection between the
/// elements carries every heap's class, the P-portion and the products.
fn same_quotient(small: &MisereQuotient, big: &MisereQuotient) -> Result<(), String> {
    if small.order() != big.order() {
        return Err(format!("order {} against {}", small.order(), big.order()));
    }
    let mut to_big: HashMap<u32, u32> = HashMap::new();
    let mut to_small: HashMap<u32, u32> = HashMap::new();
    for (heap, &class) in big.heap_map().iter().enumerate() {
        let extended = small
            .small_heap_class(heap as u64)
            .ok_or("no class extended")?;
        if *to_big.entry(extended).or_insert(class) != class
            || *to_small.entry(class).or_insert(extended) != extended
        {
            return Err(format!(
                "heap {heap}: its class is not the periodic extension's"
            ));
        }
    }
    // The heaps' classes generate both monoids: products carry the map on.
    let table_small = small.table();
    let table_big = big.table();
    let mut frontier: Vec<u32> = to_big.keys().copied().collect();
    while let Some(a) = frontier.pop() {
        let generators: Vec<u32> = small.heap_map().to_vec();
        for g in generators {
            let product = table_small[a as usize][g as usize];
            let image = table_big[to_big[&a] as usize][to_big[&g] as usize];
            match to_big.get(&product) {
                Some(&known) if known != image => {
                    return Err(format!("the products of {a} and {g} differ"));
                }
                Some(_) => {}
                None => {
                    to_big.insert(product, image);
                    frontier.push(product);
                }
            }
        }
    }
    for (&a, &b) in &to_big {
        if small.is_p(a) != big.is_p(b) {
            return Err(format!("element {a}: the P-portions differ"));
        }
    }
    Ok(())
}

/// Whenever the quotient of heaps `<= n` is proven, for `n` up to `largest`,
/// the quotient of heaps `<= 4 largest` agrees with it; so does the quotient
/// `solve` builds (heap by heap until proven).
fn check_quotient_periods(rules: &[(String, HeapRule)], largest: u64) -> usize {
    let mut proven = 0;
    for (name, rule) in rules {
        let mut claims = Vec::new();
        // Each `quotient -n N` is built from scratch: a tenth of the work
        // `solve` allows keeps the sweep to minutes (the quotients left out
        // are those past it, which `solve`'s own construction below covers).
        let each = QuotientLimits {
            max_work: LIMITS.max_work / 10,
            ..LIMITS
        };
        for n in 1..=largest {
            let Ok(small) = compute(rule, n, false, each) else {
                break;
            };
            if small.periodicity().is_some() {
                claims.push(small);
            }
        }
        if let Ok(until) = compute(rule, 64, true, LIMITS)
            && until.periodicity().is_some()
        {
            claims.push(until);
        }
        let Some(furthest) = claims.iter().map(MisereQuotient::heaps).max() else {
            continue;
        };
        let reach = 4 * furthest;
        // A quotient proven periodic is no harder to build further: ten times
        // the work `solve` allows is room to spare.
        let room = QuotientLimits {
            max_work: 10 * LIMITS.max_work,
            ..LIMITS
        };
        let big = compute(rule, reach, false, room).unwrap_or_else(|error| {
            panic!("{name}: proven from heaps <= {furthest}, yet heaps <= {reach} fail: {error}")
        });
        for claim in &claims {
            proven += 1;
            if let Err(why) = same_quotient(claim, &big) {
                panic!(
                    "{name}: the quotient proven from heaps <= {} ({:?}) is not that of heaps <= {reach}: {why}",
                    claim.heaps(),
                    claim.periodicity()
                );
            }
        }
    }
    proven
}

#[test]
fn misere_quotients_proven_hold_on_a_sample_of_small_rules() {
    assert!(check_quotient_periods(&sample(), 8) > 0);
}

#[test]
#[ignore = "exhaustive: every small rule; run with --include-ignored"]
fn misere_quotients_proven_hold_on_every_small_rule() {
    assert!(
        on_every_core(&every_small_rule(), |rules| check_quotient_periods(
            rules, 16
        )) > 0
    );
}

#[test]
fn the_quotient_of_0_1_is_not_proven_from_heap_1() {
    // The one move empties a heap of 1: heap 2 is the identity, not heap 1's class.
    let rule = HeapRule::octal("0.1").unwrap();
    for heaps in 1..=3 {
        let quotient = compute(&rule, heaps, false, LIMITS).unwrap();
        assert!(quotient.periodicity().is_none(), "heaps <= {heaps}");
    }
    // Period 1 from heap 2 (n0 = 2, p = 1, k = 1, J = 0): the theorem asks for
    // max(J, 1) (n0 + p) + k + p - 1 = 4 heaps.
    let four = compute(&rule, 4, false, LIMITS).unwrap();
    let period = four.periodicity().unwrap();
    assert_eq!((period.preperiod, period.period, period.needed), (2, 1, 4));
    assert_eq!(four.small_heap_class(9), four.small_heap_class(0));
}

// ---------------------------------------------------------------- misère sums

/// The misère outcome of a multiset of heaps by searching the whole sum.
struct WholeMisereSum<'a> {
    rule: &'a HeapRule,
    /// Whether each sorted multiset (no empty heaps) is a P-position.
    memo: HashMap<Vec<u64>, bool>,
}

impl WholeMisereSum<'_> {
    /// The positions one move from `heaps`, one per move.
    fn options(&self, heaps: &[u64]) -> Vec<Vec<u64>> {
        let mut options = Vec::new();
        for (i, &heap) in heaps.iter().enumerate() {
            for m in self.rule.moves(heap) {
                let mut next = heaps.to_vec();
                next.remove(i);
                next.extend(m.leaves.iter().copied());
                options.push(next);
            }
        }
        options
    }

    /// Under misère play, a position without moves is a win for the player to
    /// move; otherwise it is a P-position when every option is an N-position.
    fn is_p(&mut self, heaps: &[u64]) -> bool {
        let mut key: Vec<u64> = heaps.iter().copied().filter(|&h| h > 0).collect();
        key.sort_unstable();
        if let Some(&known) = self.memo.get(&key) {
            return known;
        }
        let options = self.options(&key);
        let p = !options.is_empty() && options.iter().all(|option| !self.is_p(option));
        self.memo.insert(key, p);
        p
    }

    /// The moves of `heaps` (as written, one per heap and move) to P-positions.
    fn winning_moves(&mut self, heaps: &[u64]) -> usize {
        let options = self.options(heaps);
        options.iter().filter(|option| self.is_p(option)).count()
    }
}

/// Every sum of 1 to `parts` heaps of at most `largest` tokens (heaps of 0
/// included), as non-decreasing lists.
fn sums(largest: u64, parts: usize) -> Vec<Vec<u64>> {
    let mut all = Vec::new();
    let mut frontier: Vec<Vec<u64>> = vec![vec![]];
    for _ in 0..parts {
        let mut next = Vec::new();
        for s in &frontier {
            for h in s.last().copied().unwrap_or(0)..=largest {
                let mut t = s.clone();
                t.push(h);
                next.push(t);
            }
        }
        all.extend(next.iter().cloned());
        frontier = next;
    }
    all
}

/// `solve` against the whole-sum search on every small misère sum of each rule.
fn check_misere_sums(rules: &[(String, HeapRule)]) -> usize {
    let mut checked = 0;
    let options = SolveOptions::default();
    let mut all = sums(8, 3);
    all.extend(sums(12, 2).into_iter().filter(|s| s.iter().any(|&h| h > 8)));
    for (name, rule) in rules {
        let mut search = WholeMisereSum {
            rule,
            memo: HashMap::new(),
        };
        for heaps in &all {
            let list = heaps
                .iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(", ");
            let text = format!("misere({name}({list}))");
            let position = build(&parse(&text).unwrap()).unwrap();
            let answer = solve(&position, &options).unwrap_or_else(|e| panic!("{text}: {e}"));
            let p = search.is_p(heaps);
            assert_eq!(
                answer.outcome.first_player_wins(),
                !p,
                "{text}: solve says {:?} by {}, the whole-sum search says {}",
                answer.outcome,
                answer.method,
                if p { "P" } else { "N" }
            );
            assert_eq!(
                answer.winning_move_count,
                BigUint::from(search.winning_moves(heaps)),
                "{text}: the count of winning moves (by {})",
                answer.method
            );
            checked += 1;
        }
    }
    checked
}

#[test]
fn misere_sums_of_a_sample_of_small_rules_equal_the_whole_sum_search() {
    assert!(check_misere_sums(&sample()) > 0);
}

#[test]
#[ignore = "exhaustive: every small rule; run with --include-ignored"]
fn misere_sums_of_every_small_rule_equal_the_whole_sum_search() {
    assert!(on_every_core(&every_small_rule(), check_misere_sums) > 0);
}

#[test]
fn the_reported_false_proofs_are_answered_right() {
    // With no move at all, the player to move wins under misère play.
    for text in [
        "misere(octal[0.1](4, 9, 6))",
        "misere(octal[0.1](0, 7))",
        "misere(octal[0.01](11))",
        "misere(octal[0.11](4, 1, 2))",
        "misere(octal[0.1](2))",
    ] {
        let answer = solve(
            &build(&parse(text).unwrap()).unwrap(),
            &SolveOptions::default(),
        )
        .unwrap();
        assert!(answer.outcome.first_player_wins(), "{text}");
    }
}
