//! Tests of the pattern finder on tables computed by the library's own games.

use super::*;
use crate::catalogue::build;
use crate::games::dynamic_subtraction::DynamicSubtraction;
use crate::games::wythoff::Wythoff;
use crate::lang::parse;
use crate::rules::HeapRule;
use crate::sequence::{find_periodicity, grundy_values};
use crate::sums::analysis::{SolveOptions, solve};
use num_bigint::BigUint;
use num_traits::ToPrimitive;
use proptest::prelude::*;

/// The nimber of a position of the catalogue, by `solve`.
fn nimber(expression: &str) -> u32 {
    let position = build(&parse(expression).unwrap()).unwrap();
    let answer = solve(&position, &SolveOptions::default()).unwrap();
    answer.nimber.unwrap().to_u32().unwrap()
}

/// `nimber(format(n))` for `n = 0..=last`.
fn table(last: u64, format: impl Fn(u64) -> String) -> Vec<u32> {
    (0..=last).map(|n| nimber(&format(n))).collect()
}

fn residues(found: &SequenceFindings) -> (u64, Vec<u64>, u64, Vec<u64>, Vec<u64>) {
    match &found.p_positions {
        SequencePPositions::Residues(c) => (
            c.modulus,
            c.residues.clone(),
            c.from,
            c.also.clone(),
            c.except.clone(),
        ),
        other => panic!("not residue classes: {other:?}"),
    }
}

fn period(found: &SequenceFindings) -> (u64, u64, u32) {
    let p = found.period.as_ref().expect("a period");
    (p.from, p.period, p.saltus)
}

#[test]
fn bash_has_period_m_plus_one_and_p_positions_zero_mod_m_plus_one() {
    for m in 1..=6u64 {
        let values = table(200, |n| format!("bash[{m}]({n})"));
        let found = find_in_sequence(0, &values);
        assert_eq!(period(&found), (0, m + 1, 0), "m = {m}");
        assert_eq!(residues(&found), (m + 1, vec![0], 0, vec![], vec![]));
        let text = found.to_string();
        assert!(
            text.contains(&format!(
                "P-positions for n <= 200 are exactly n = 0 (mod {}) (checked, not proven).",
                m + 1
            )),
            "{text}"
        );
        assert!(
            text.contains(&format!(
                "periodic with period {p} from n = 0 on: G(n + {p}) = G(n) (checked on 0 <= n \
                 <= 200, not proven).",
                p = m + 1
            )),
            "{text}"
        );
    }
}

#[test]
fn subtraction_games_have_their_periods_and_residue_classes() {
    // (set, period, P-position residues), the values from the catalogue's `sub`.
    let cases: [(&str, u64, &[u64]); 4] = [
        ("1, 3, 4", 7, &[0, 2]),
        ("2, 5, 6", 11, &[0, 1, 4, 8]),
        ("1, 2, 5", 3, &[0]),
        ("2, 3", 5, &[0, 1]),
    ];
    for (set, p, classes) in cases {
        let values = table(300, |n| format!("sub[{set}]({n})"));
        let found = find_in_sequence(0, &values);
        assert_eq!(period(&found), (0, p, 0), "{set}");
        let (modulus, got, from, also, except) = residues(&found);
        assert_eq!((modulus, got.as_slice(), from), (p, classes, 0), "{set}");
        assert!(also.is_empty() && except.is_empty());
        // Against the heap rule's own period finder.
        let rule = HeapRule::subtraction(set.split(", ").map(|s| s.parse().unwrap())).unwrap();
        let seq = find_periodicity(&rule, &grundy_values(&rule, 300)).unwrap();
        assert_eq!((seq.preperiod as u64, seq.period as u64), (0, p));
    }
    // Bash m = 9 to 209: the range ends with nine non-zero values after 200, a period
    // 1 of the P-positions' indicator with none in it; the classes are still mod 10.
    let found = find_in_sequence(0, &table(209, |n| format!("bash[9]({n})")));
    assert_eq!(residues(&found), (10, vec![0], 0, vec![], vec![]));
    let text = find_in_sequence(0, &table(100, |n| format!("sub[1, 3, 4]({n})"))).to_string();
    assert!(
        text.contains(
            "P-positions for n <= 100 are exactly n = 0, 2 (mod 7) (checked, not proven)."
        ),
        "{text}"
    );
}

#[test]
fn residue_classes_list_a_few_exceptions() {
    // P-positions 0 mod 5 from 10 on, plus 1, minus 5.
    let values: Vec<u32> = (0..100u32)
        .map(|n| match n {
            1 => 0,
            5 => 3,
            n => n % 5,
        })
        .collect();
    let found = find_in_sequence(0, &values);
    assert_eq!(residues(&found), (5, vec![0], 6, vec![1], vec![5]));
    assert!(
        found
            .to_string()
            .contains("are exactly n = 0 (mod 5), and also n = 1, except n = 5 (checked")
    );
    // Shifted start: n = 1000 + i.
    let shifted = find_in_sequence(1000, &values);
    assert_eq!(residues(&shifted).2, 1006);
    assert_eq!(period(&shifted), (1006, 5, 0));
}

#[test]
fn laskers_nim_is_arithmetic_periodic_with_only_zero_a_p_position() {
    let values = table(200, |n| format!("lasker({n})"));
    assert_eq!(values, grundy_values(&HeapRule::LaskersNim, 200).to_vec());
    let found = find_in_sequence(0, &values);
    assert_eq!(period(&found), (1, 4, 4));
    assert_eq!(found.p_positions, SequencePPositions::Seen(vec![0]));
    let text = found.to_string();
    assert!(text.contains(
        "arithmetic-periodic with period 4 and saltus 4 from n = 1 on: G(n + 4) = G(n) + 4"
    ));
    assert!(
        text.contains("P-positions for n <= 200: only n = 0"),
        "{text}"
    );
}

#[test]
fn nim_is_arithmetic_with_period_one() {
    let values = table(50, |n| format!("nim({n})"));
    let found = find_in_sequence(0, &values);
    assert_eq!(period(&found), (0, 1, 1));
}

#[test]
fn kayles_period_twelve_after_seventy_one_needs_three_periods() {
    let kayles = HeapRule::kayles();
    let values = grundy_values(&kayles, 300).to_vec();
    let found = find_in_sequence(0, &values[..71 + 36]);
    assert_eq!(period(&found), (71, 12, 0));
    // One value fewer: the period is not seen three times.
    let short = find_in_sequence(0, &values[..71 + 35]);
    assert_ne!(short.period.map(|p| p.period), Some(12));
    // With enough values, the same as the sequence module's.
    let seq = find_periodicity(&kayles, &grundy_values(&kayles, 300)).unwrap();
    let found = find_in_sequence(0, &values);
    assert_eq!(
        period(&found),
        (seq.preperiod as u64, seq.period as u64, seq.saltus)
    );
    // The catalogue agrees on the first values.
    assert_eq!(table(30, |n| format!("kayles({n})")), values[..=30]);
}

#[test]
fn dawsons_kayles_period_thirty_four_as_seq_reports() {
    let rule = HeapRule::dawsons_kayles();
    let values = grundy_values(&rule, 400);
    let seq = find_periodicity(&rule, &values).unwrap();
    assert_eq!((seq.period, seq.preperiod), (34, 53));
    let found = find_in_sequence(0, &values.to_vec());
    assert_eq!(period(&found), (53, 34, 0));
    // P-positions of Dawson's Kayles (heaps 0.07): residue classes mod 34 with
    // exceptions before 53.
    let (modulus, _, from, _, _) = residues(&found);
    assert_eq!(modulus, 34);
    assert!(from <= 53);
}

#[test]
fn fibonacci_nim_p_positions_follow_the_fibonacci_recurrence() {
    let last = 1000u64;
    let losing = DynamicSubtraction::fibonacci()
        .losing_heaps_up_to(&BigUint::from(last))
        .unwrap();
    let losing: Vec<u64> = losing.iter().map(|h| h.to_u64().unwrap()).collect();
    // By a Zeckendorf check: the losing heaps are 0 and the Fibonacci numbers.
    let mut fibonacci = vec![1u64, 2];
    while fibonacci[fibonacci.len() - 1] + fibonacci[fibonacci.len() - 2] <= last {
        fibonacci.push(fibonacci[fibonacci.len() - 1] + fibonacci[fibonacci.len() - 2]);
    }
    assert_eq!(losing[1..], fibonacci[..]);
    // Outcomes only: 0 for P, 1 for N.
    let values: Vec<u32> = (0..=last)
        .map(|n| u32::from(losing.binary_search(&n).is_err()))
        .collect();
    let found = find_in_sequence(0, &values);
    let SequencePPositions::Recurrence(r) = &found.p_positions else {
        panic!("{:?}", found.p_positions)
    };
    assert_eq!(
        (r.coefficients.as_slice(), r.constant, r.start),
        (&[1, 1][..], 0, 1)
    );
    assert_eq!(r.next, 1597);
    let text = found.to_string();
    assert!(
        text.contains("p(k) = p(k-1) + p(k-2) for every k >= 3 (checked on all 16 P-positions"),
        "{text}"
    );
    // Without the leading 0 (n from 1): from the first on.
    let found = find_in_sequence(1, &values[1..]);
    let SequencePPositions::Recurrence(r) = &found.p_positions else {
        panic!()
    };
    assert_eq!(r.start, 0);
}

#[test]
fn doubling_p_positions_are_a_recurrence_of_order_one() {
    // P-positions 1, 2, 4, ..., 512: p(k) = 2 p(k-1).
    let values: Vec<u32> = (1..=1000u32)
        .map(|n| u32::from(!n.is_power_of_two()))
        .collect();
    let found = find_in_sequence(1, &values);
    let SequencePPositions::Recurrence(r) = &found.p_positions else {
        panic!()
    };
    assert_eq!(
        (r.coefficients.as_slice(), r.constant, r.start),
        (&[2][..], 0, 0)
    );
    // Cut just before the next term would be due: 1024 lies past 1000, claimed; but
    // a range to 1100 lacks 1024, so nothing is claimed.
    let longer: Vec<u32> = (1..=1100u32)
        .map(|n| u32::from(!n.is_power_of_two() || n == 1024))
        .collect();
    let found = find_in_sequence(1, &longer);
    assert!(
        matches!(found.p_positions, SequencePPositions::Seen(_)),
        "{found:?}"
    );
}

#[test]
fn grundys_game_has_no_pattern_and_its_p_positions_are_listed_as_seen() {
    let values = grundy_values(&HeapRule::GrundysGame, 3000).to_vec();
    assert_eq!(
        values[..=12],
        table(12, |n| format!("grundy_game({n})"))[..]
    );
    // Up to 22: seven P-positions, listed, no pattern.
    let found = find_in_sequence(0, &values[..=22]);
    assert_eq!(found.period, None);
    assert_eq!(
        found.p_positions,
        SequencePPositions::Seen(vec![0, 1, 2, 4, 7, 10, 20])
    );
    let text = found.to_string();
    assert!(
        text.contains("Values for n <= 22: no pattern found"),
        "{text}"
    );
    assert!(text.contains("only n = 0, 1, 2, 4, 7, 10, 20 (no pattern found"));
    // Up to 3000: 42 P-positions (the last 1222), still no pattern.
    let found = find_in_sequence(0, &values);
    assert_eq!(found.period, None);
    let SequencePPositions::Seen(seen) = &found.p_positions else {
        panic!("{:?}", found.p_positions)
    };
    assert_eq!(
        (seen.len(), seen[..8].to_vec(), seen[41]),
        (42, vec![0, 1, 2, 4, 7, 10, 20, 23], 1222)
    );
    assert!(
        found
            .to_string()
            .contains("Values for n <= 3000: no pattern found")
    );
}

#[test]
fn empty_and_tiny_inputs() {
    let found = find_in_sequence(0, &[]);
    assert_eq!(found.last, None);
    assert_eq!(found.period, None);
    assert_eq!(found.to_string(), "No values: no pattern found.\n");
    for one in [0, 5] {
        let found = find_in_sequence(7, &[one]);
        assert_eq!(found.period, None);
        assert!(!found.to_string().is_empty());
    }
    // Six equal values are not a period: the rule asks seven.
    assert_eq!(find_in_sequence(0, &[3; 6]).period, None);
    assert_eq!(period(&find_in_sequence(0, &[3; 7])), (0, 1, 0));
    #[allow(clippy::reversed_empty_ranges)]
    let grid = find_in_grid(1..=0, 0..=5, |_, _| 0);
    assert_eq!(grid.to_string(), "No values: no pattern found.\n");
    let found = find_in_sequence(u64::MAX, &[0]);
    assert_eq!(found.last, Some(u64::MAX));
    assert!(
        !find_in_sequence(u64::MAX - 3, &[0; 10])
            .to_string()
            .is_empty()
    );
    // Far from 0: no pairs generated up to 10^15, and no overflow.
    let far = 1u64 << 50;
    let grid = find_in_grid(far..=far + 5, 0..=5, |x, y| u32::from(x % 7 != y));
    assert!(!grid.to_string().is_empty());
    let grid = find_in_grid(u64::MAX - 3..=u64::MAX, 0..=3, |x, y| ((x ^ y) & 7) as u32);
    assert!(!grid.to_string().is_empty());
    let grid = find_in_grid(3..=3, 4..=4, |_, _| 0);
    assert_eq!(grid.symmetric, None);
    assert!(!grid.to_string().is_empty());
}

/// Wythoff nimbers on `0..=last` squared: by the mex over the moves of the game's
/// rules (module `games::wythoff`: any number from one pile, or `x` and `y` from both
/// with `x + y >= 1` and `|x - y| <= d`), checked against the game's own search on
/// the square `0..=10` and on cells of the far row and column. (The search per cell
/// takes a minute for the whole table in a debug build.)
fn wythoff_table(game: Wythoff, last: u32) -> Vec<Vec<u32>> {
    let d = game.difference_bound() as usize;
    let n = last as usize + 1;
    let mut g = vec![vec![0u32; n]; n];
    for x in 0..n {
        for y in 0..n {
            let mut seen = vec![false; 2 * n + 2];
            let mut mark = |v: u32| seen[v as usize] = true;
            (0..x).for_each(|a| mark(g[a][y]));
            (0..y).for_each(|b| mark(g[x][b]));
            for tx in 0..=x {
                for ty in 0..=y {
                    if tx + ty >= 1 && tx.abs_diff(ty) <= d && (tx > 0 && ty > 0) {
                        mark(g[x - tx][y - ty]);
                    }
                }
            }
            g[x][y] = seen.iter().position(|s| !s).unwrap() as u32;
        }
    }
    let check = |x: u32, y: u32| {
        assert_eq!(
            g[x as usize][y as usize],
            game.nimber_by_search(x, y).unwrap(),
            "{} at ({x}, {y})",
            game.name()
        );
    };
    for x in 0..=last.min(10) {
        for y in 0..=last.min(10) {
            check(x, y);
        }
    }
    for other in [0, 1, last / 3, last / 2, last] {
        check(last, other);
        check(other, last);
    }
    g
}

#[test]
fn wythoff_p_positions_are_complementary_pairs_with_ratio_near_the_golden_ratio() {
    let nimbers = wythoff_table(Wythoff::CLASSIC, 40);
    // The search agrees with the catalogue on a few cells.
    assert_eq!(nimbers[3][5], nimber("wythoff(3, 5)"));
    assert_eq!(nimbers[7][2], nimber("wythoff(7, 2)"));
    let found = find_in_grid(0..=40, 0..=40, |x, y| nimbers[x as usize][y as usize]);
    assert_eq!(found.symmetric, Some(true));
    assert!(!found.nim_sum);
    let Some(GridPPositions::Pairs(pattern)) = &found.p_positions else {
        panic!("{:?}", found.p_positions)
    };
    assert_eq!(pattern.step, 1);
    assert_eq!(
        pattern.pairs[..6],
        [(0, 0), (1, 2), (3, 5), (4, 7), (6, 10), (8, 13)]
    );
    assert_eq!(pattern.last_seen, (15, 24));
    let golden = (1.0 + 5f64.sqrt()) / 2.0;
    assert!((pattern.ratio - golden).abs() < 0.05, "{}", pattern.ratio);
    let (low, high) = pattern.beatty_bounds;
    assert!(low <= golden && golden < high, "{low} {high}");
    let text = found.to_string();
    assert!(
        text.contains("b_k = a_k + k (checked on 16 pairs, not proven)"),
        "{text}"
    );
    assert!(
        text.contains("Estimate: a_k / k = 24/15 = 1.6000"),
        "{text}"
    );
    assert!(text.contains("The table is symmetric"));
}

#[test]
fn extended_wythoff_pairs_step_d_plus_one() {
    for d in 1..=3u64 {
        let game = Wythoff::extended(d);
        let nimbers = wythoff_table(game, 30);
        let found = find_in_grid(0..=30, 0..=30, |x, y| nimbers[x as usize][y as usize]);
        let Some(GridPPositions::Pairs(pattern)) = &found.p_positions else {
            panic!("d = {d}: {:?}", found.p_positions)
        };
        assert_eq!(pattern.step, d + 1);
        // The pairs are the game's own P-positions.
        for (k, &(a, b)) in pattern.pairs.iter().enumerate() {
            let (pa, pb) = game.p_position(&BigUint::from(k));
            assert_eq!(
                (BigUint::from(a), BigUint::from(b)),
                (pa, pb),
                "d = {d}, k = {k}"
            );
        }
    }
}

#[test]
fn wythoff_p_positions_on_a_rectangle_not_from_zero() {
    // Outcomes only, from the theorem: P-positions of Wythoff on 5..=60 x 0..=20.
    let game = Wythoff::CLASSIC;
    let value = |x: u64, y: u64| {
        u32::from(
            !game
                .is_p_position(&BigUint::from(x), &BigUint::from(y))
                .unwrap(),
        )
    };
    let found = find_in_grid(5..=60, 0..=20, value);
    let Some(GridPPositions::Pairs(pattern)) = &found.p_positions else {
        panic!("{:?}", found.p_positions)
    };
    assert_eq!(pattern.step, 1);
}

#[test]
fn two_pile_nim_is_the_nim_sum_with_p_positions_on_the_diagonal() {
    let nimbers: Vec<Vec<u32>> = (0..=20)
        .map(|x| {
            (0..=20)
                .map(|y| nimber(&format!("nim({x}, {y})")))
                .collect()
        })
        .collect();
    let found = find_in_grid(0..=20, 0..=20, |x, y| nimbers[x as usize][y as usize]);
    assert!(found.nim_sum);
    assert_eq!(found.symmetric, Some(true));
    assert_eq!(
        found.p_positions,
        Some(GridPPositions::Line(Line::Diagonal(0)))
    );
    let text = found.to_string();
    assert!(text.contains("G(x, y) = x xor y (the nim-sum) for every 0 <= x <= 20, 0 <= y <= 20"));
    assert!(text.contains("are exactly the cells with x = y (checked, not proven)."));
}

#[test]
fn bash_sums_have_periodic_rows_and_columns() {
    // bash[2](x) + bash[3](y): rows periodic in y with period 4, columns in x with 3.
    let found = find_in_grid(0..=30, 0..=30, |x, y| {
        nimber(&format!("bash[2]({x}) + bash[3]({y})"))
    });
    assert_eq!(found.rows.common_pure_period(), Some(4));
    assert_eq!(found.columns.common_pure_period(), Some(3));
    assert_eq!(found.symmetric, Some(false));
    let text = found.to_string();
    assert!(
        text.contains("Every row (fixed x) is periodic in y, all with period 4 from y = 0 on"),
        "{text}"
    );
    assert!(text.contains("Every column (fixed y) is periodic in x, all with period 3"));
    assert!(text.contains("The table is not symmetric."));
}

#[test]
fn a_table_with_nothing_says_no_pattern_found() {
    // A pseudo-random table with no zeros.
    let found = find_in_grid(0..=12, 0..=9, |x, y| {
        let mut h = (x << 32 | y).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^= h >> 29;
        h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
        1 + ((h >> 40) % 97) as u32
    });
    assert_eq!(found.p_positions, None);
    let text = found.to_string();
    assert!(
        text.contains("No pattern found for 0 <= x <= 12, 0 <= y <= 9."),
        "{text}"
    );
}

/// Whether `G(n + p) = G(n) + s` for every `n >= from` (indices).
fn holds(g: &[u32], from: usize, p: usize, s: u32) -> bool {
    (from..g.len().saturating_sub(p)).all(|n| g[n].checked_add(s) == Some(g[n + p]))
}

proptest! {
    #[test]
    fn claims_are_true_on_the_data_and_least(
        first in 0u64..50,
        base in proptest::collection::vec(0u32..4, 0..120),
        tail_period in 1usize..8,
        tail in 0usize..60,
        saltus in 0u32..3,
    ) {
        // Arbitrary values, then often a periodic tail, so that claims happen.
        let mut g = base.clone();
        let start = g.len();
        for i in 0..tail {
            let v = if i < tail_period { (i as u32 * 5) % 4 } else { g[start + i - tail_period] + saltus };
            g.push(v);
        }
        let found = find_in_sequence(first, &g);
        let len = g.len();
        if let Some(p) = &found.period {
            let (from, period) = ((p.from - first) as usize, p.period as usize);
            prop_assert!(holds(&g, from, period, p.saltus));
            prop_assert!(len - from >= 3 * period && len - from >= 7 && len - from >= len.div_ceil(4));
            prop_assert!(from == 0 || !holds(&g, from - 1, period, p.saltus));
            // No smaller period of the same kind (pure, or any) is claimable.
            for q in 1..period {
                for n0 in 0..len {
                    if len - n0 >= 3 * q && len - n0 >= 7 && len - n0 >= len.div_ceil(4) {
                        let s = g[n0 + q].wrapping_sub(g[n0]);
                        let kind = (s == 0) == (p.saltus == 0) || p.saltus != 0;
                        prop_assert!(!(kind && holds(&g, n0, q, s)), "period {q} saltus {s} from {n0}");
                    }
                }
            }
        } else {
            for q in 1..=len / 3 {
                for n0 in 0..len {
                    if len - n0 >= 3 * q && len - n0 >= 7 && len - n0 >= len.div_ceil(4) {
                        let s = g[n0 + q].wrapping_sub(g[n0]);
                        prop_assert!(!holds(&g, n0, q, s), "missed period {q} saltus {s} from {n0}");
                    }
                }
            }
        }
        let zeros: Vec<u64> = (0..len).filter(|&i| g[i] == 0).map(|i| first + i as u64).collect();
        match &found.p_positions {
            SequencePPositions::Residues(c) => {
                for (i, &v) in g.iter().enumerate() {
                    let n = first + i as u64;
                    let in_class = c.residues.contains(&(n % c.modulus));
                    let expected = if n >= c.from {
                        in_class
                    } else {
                        (in_class && !c.except.contains(&n)) || c.also.contains(&n)
                    };
                    prop_assert_eq!(v == 0, expected, "n = {}", n);
                }
            }
            SequencePPositions::Recurrence(r) => {
                prop_assert_eq!(&r.positions, &zeros);
                let d = r.coefficients.len();
                let p: Vec<i128> = zeros.iter().map(|&x| x as i128).collect();
                for k in r.start + d..=p.len() {
                    let value = (0..d).map(|i| r.coefficients[i] as i128 * p[k - 1 - i]).sum::<i128>() + r.constant as i128;
                    if k < p.len() { prop_assert_eq!(value, p[k]); } else { prop_assert_eq!(value, r.next); }
                }
                prop_assert!(r.next > (first + len as u64) as i128 - 1);
            }
            SequencePPositions::Seen(list) => prop_assert_eq!(list, &zeros),
            SequencePPositions::Many { count, first } => {
                prop_assert_eq!(*count, zeros.len());
                prop_assert_eq!(&first[..], &zeros[..first.len()]);
            }
        }
        prop_assert!(!found.to_string().is_empty());
    }

    #[test]
    fn grids_never_panic_and_claims_hold(
        x0 in 0u64..5, xn in 0u64..12, y0 in 0u64..5, yn in 0u64..12,
        cells in proptest::collection::vec(0u32..3, 144),
    ) {
        let value = |x: u64, y: u64| cells[((x % 12) * 12 + y % 12) as usize];
        let (xs, ys) = (x0..=x0 + xn, y0..=y0 + yn);
        let found = find_in_grid(xs.clone(), ys.clone(), value);
        if found.nim_sum {
            for x in xs.clone() { for y in ys.clone() { prop_assert_eq!(u64::from(value(x, y)), x ^ y); } }
        }
        if found.symmetric == Some(true) {
            let (a, b) = (x0.max(y0), (x0 + xn).min(y0 + yn));
            for x in a..=b { for y in a..=b { prop_assert_eq!(value(x, y), value(y, x)); } }
        }
        prop_assert!(!found.to_string().is_empty());
    }
}

/// Random values, or values with a planted pattern, from `seed`: `kind` 0 is noise
/// over a small alphabet, 1 a (pure or arithmetic) period after a random preperiod,
/// 2 P-positions in residue classes after random ones, 3 P-positions following a
/// recurrence, 4 `G(n) = n` but for a few first values. `tamper` changes one value.
fn planted_sequence(seed: u64, kind: u8, tamper: bool) -> Vec<u32> {
    let mut random = crate::random::Xorshift::new(seed);
    let mut below = |n: u64| random.below(n) as u32;
    let mut g: Vec<u32> = match kind {
        0 => {
            let alphabet = 1 + u64::from(below(4));
            (0..below(200)).map(|_| below(alphabet)).collect()
        }
        1 => {
            let mut g: Vec<u32> = (0..below(40)).map(|_| below(4)).collect();
            let (period, saltus) = (1 + below(12) as usize, below(3) * below(2));
            let start = g.len();
            for i in 0..period * (1 + below(8) as usize) + below(period as u64) as usize {
                g.push(if i < period {
                    below(4)
                } else {
                    g[start + i - period] + saltus
                });
            }
            g
        }
        2 => {
            let modulus = 1 + below(10);
            let classes: Vec<bool> = (0..modulus).map(|_| below(3) == 0).collect();
            let from = below(30);
            (0..below(200))
                .map(|n| {
                    let p_position = if n < from {
                        below(4) == 0
                    } else {
                        classes[(n % modulus) as usize]
                    };
                    if p_position { 0 } else { 1 + below(3) }
                })
                .collect()
        }
        3 => {
            // Increasing: p(k) = 2 p(k-1) + ... or p(k-1) + p(k-2) + ...
            let c1 = 1 + i128::from(below(2));
            let c2 = if c1 == 1 { 1 } else { i128::from(below(2)) };
            let constant = i128::from(below(3));
            let mut p: Vec<i128> = (0..below(3)).map(|_| i128::from(below(3))).collect();
            p.sort_unstable();
            p.dedup();
            let (mut a, mut b) = (i128::from(3 + below(3)), i128::from(6 + below(4)));
            while b < 3000 {
                p.push(a);
                (a, b) = (b, c1 * b + c2 * a + constant);
            }
            p.push(a);
            let last = (a + i128::from(below(a as u64 / 2 + 1))) as usize;
            let mut g = vec![1u32; last + 1];
            for &n in p.iter().filter(|&&n| n as usize <= last) {
                g[n as usize] = 0;
            }
            g
        }
        _ => {
            let mut g: Vec<u32> = (0..100 + below(200)).collect();
            for value in g.iter_mut().take(below(4) as usize) {
                *value = below(3);
            }
            g
        }
    };
    if tamper && !g.is_empty() {
        let at = below(g.len() as u64) as usize;
        g[at] = below(4);
    }
    g
}

/// A table with a planted pattern from `seed`, as `(xs, ys, cells by row)`: `kind` 0
/// is noise, 1 the complementary pairs of a random step as P-positions, 2 a symmetric
/// table, 3 the nim-sum, 4 P-positions on a line, 5 periodic rows and columns.
/// `tamper` changes one cell.
fn planted_grid(
    seed: u64,
    kind: u8,
    tamper: bool,
) -> (RangeInclusive<u64>, RangeInclusive<u64>, Vec<Vec<u32>>) {
    let mut random = crate::random::Xorshift::new(seed);
    let mut below = |n: u64| random.below(n);
    let (x0, y0) = if below(2) == 0 {
        (0, 0)
    } else {
        (below(4), below(4))
    };
    let (xs, ys) = (x0..=x0 + below(40), y0..=y0 + below(40));
    let max = (*xs.end()).max(*ys.end());
    let pairs = complementary_pairs(1 + below(4), max);
    let line = below(3);
    let (qx, qy, saltus) = (1 + below(5), 1 + below(5), below(2));
    let noise: Vec<u64> = (0..64).map(|_| below(3)).collect();
    let mut cells: Vec<Vec<u32>> = xs
        .clone()
        .map(|x| {
            ys.clone()
                .map(|y| {
                    let hashed = |a: u64, b: u64| noise[((a * 7 + b * 13) % 64) as usize];
                    let value = match kind {
                        0 => hashed(x * 3, y),
                        1 => {
                            u64::from(!pairs.contains(&(x.min(y), x.max(y))))
                                * (1 + hashed(x, y) % 2)
                        }
                        2 => hashed(x.min(y), x.max(y)),
                        3 => x ^ y,
                        4 => {
                            let on_line = [x == y, x == x0 + 1, y == y0 + 2][line as usize];
                            u64::from(!on_line) * (1 + hashed(x, y))
                        }
                        _ => hashed(x % qx, y % qy) + saltus * (y / qy + x / qx),
                    };
                    value as u32
                })
                .collect()
        })
        .collect();
    if tamper {
        let (i, j) = (
            below(count(&xs) as u64) as usize,
            below(count(&ys) as u64) as usize,
        );
        cells[i][j] = below(3) as u32;
    }
    (xs, ys, cells)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn sequence_findings_are_the_plain_searches(
        seed: u64,
        kind in 0u8..5,
        tamper: bool,
        first in prop_oneof![0u64..50, Just(u64::MAX - 100)],
    ) {
        let values = planted_sequence(seed, kind, tamper);
        let found = find_in_sequence(first, &values);
        let expected = oracle::find_in_sequence(first, &values);
        prop_assert_eq!(found.to_string(), expected.to_string());
        prop_assert_eq!(found, expected);
    }

    #[test]
    fn grid_findings_are_the_plain_searches(seed: u64, kind in 0u8..6, tamper: bool) {
        let (xs, ys, cells) = planted_grid(seed, kind, tamper);
        let (x0, y0) = (*xs.start(), *ys.start());
        let value = |x: u64, y: u64| cells[(x - x0) as usize][(y - y0) as usize];
        let found = find_in_grid(xs.clone(), ys.clone(), value);
        let expected = oracle::find_in_grid(xs, ys, value);
        prop_assert_eq!(found.to_string(), expected.to_string());
        prop_assert_eq!(found, expected);
    }
}

#[test]
fn the_planted_tables_do_plant_their_patterns() {
    // The generators above must reach the findings they are meant to test.
    let mut seen = [false; 6];
    for seed in 0..300 {
        for kind in 0..5 {
            let found = find_in_sequence(0, &planted_sequence(seed, kind, false));
            seen[0] |= found
                .period
                .as_ref()
                .is_some_and(|p| p.saltus == 0 && p.period > 1);
            seen[1] |= found.period.as_ref().is_some_and(|p| p.saltus > 0);
            seen[2] |=
                matches!(&found.p_positions, SequencePPositions::Residues(c) if c.modulus > 1);
            seen[3] |= matches!(found.p_positions, SequencePPositions::Recurrence(_));
        }
        let (xs, ys, cells) = planted_grid(seed, 1, false);
        let (x0, y0) = (*xs.start(), *ys.start());
        let found = find_in_grid(xs, ys, |x, y| cells[(x - x0) as usize][(y - y0) as usize]);
        seen[4] |= matches!(found.p_positions, Some(GridPPositions::Pairs(_)));
        let (xs, ys, cells) = planted_grid(seed, 4, false);
        let (x0, y0) = (*xs.start(), *ys.start());
        let found = find_in_grid(xs, ys, |x, y| cells[(x - x0) as usize][(y - y0) as usize]);
        seen[5] |= matches!(found.p_positions, Some(GridPPositions::Line(_)));
    }
    assert_eq!(seen, [true; 6]);
}

#[test]
fn the_games_tables_give_the_plain_searches_findings() {
    let kayles = grundy_values(&HeapRule::kayles(), 2000).to_vec();
    let dawson = grundy_values(&HeapRule::dawsons_kayles(), 2000).to_vec();
    let grundys_game = grundy_values(&HeapRule::GrundysGame, 2000).to_vec();
    let nim: Vec<u32> = (0..2000).collect();
    let nim_p_positions: Vec<u32> = (0..2000).map(|n| u32::from(n != 0)).collect();
    for values in [kayles, dawson, grundys_game, nim, nim_p_positions] {
        for first in [0, 1, 1000] {
            assert_eq!(
                find_in_sequence(first, &values),
                oracle::find_in_sequence(first, &values)
            );
        }
    }
    let wythoff = wythoff_table(Wythoff::CLASSIC, 60);
    for (xs, ys) in [(0..=60, 0..=60), (3..=60, 0..=40), (0..=10, 5..=60)] {
        let value = |x: u64, y: u64| wythoff[x as usize][y as usize];
        let outcome = |x: u64, y: u64| u32::from(value(x, y) != 0);
        assert_eq!(
            find_in_grid(xs.clone(), ys.clone(), value),
            oracle::find_in_grid(xs.clone(), ys.clone(), value)
        );
        assert_eq!(
            find_in_grid(xs.clone(), ys.clone(), outcome),
            oracle::find_in_grid(xs, ys, outcome)
        );
    }
}

/// The P-positions of Wythoff's game on `0..=last` squared, as outcomes (0 for P).
fn wythoff_outcomes(last: u64) -> Vec<Vec<u32>> {
    let mut outcomes = vec![vec![1u32; last as usize + 1]; last as usize + 1];
    for (a, b) in complementary_pairs(1, last) {
        if b <= last {
            outcomes[a as usize][b as usize] = 0;
            outcomes[b as usize][a as usize] = 0;
        }
    }
    outcomes
}

#[test]
fn a_million_values_are_searched_in_near_linear_time() {
    // Plain searches take time quadratic in the values on these (Nim's P-positions:
    // every period holds back to n = 1): minutes for a million of them, where a
    // near-linear search takes a fraction of a second.
    let started = std::time::Instant::now();
    let nim: Vec<u32> = (0..1_000_000).collect();
    let found = find_in_sequence(0, &nim);
    assert_eq!(period(&found), (0, 1, 1));
    assert_eq!(found.p_positions, SequencePPositions::Seen(vec![0]));
    // Kayles' values, periodic with period 12 from 71 on (Guy and Smith), extended
    // from the first 2000 (the sequence engine takes far longer than the finder).
    let mut kayles = grundy_values(&HeapRule::kayles(), 1999).to_vec();
    while kayles.len() < 1_000_000 {
        kayles.push(kayles[kayles.len() - 12]);
    }
    let found = find_in_sequence(0, &kayles);
    assert_eq!(period(&found), (71, 12, 0));
    let outcomes = wythoff_outcomes(999);
    let found = find_in_grid(0..=999, 0..=999, |x, y| outcomes[x as usize][y as usize]);
    assert!(matches!(found.p_positions, Some(GridPPositions::Pairs(_))));
    assert_eq!(found.symmetric, Some(true));
    let seconds = started.elapsed().as_secs_f64();
    assert!(seconds < 30.0, "{seconds} s");
}
