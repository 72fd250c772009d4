//! A misère sum of tame heaps answered by their genera (Conway, *On Numbers
//! and Games*, ch. 12; Winning Ways, ch. 13), the rules found wild remembered
//! in the computation's context of caches ([`crate::theory::caches`]).

use num_bigint::BigUint;
use num_traits::Zero;

use super::answer::{leaf_parts, misere_answer};
use super::quotient::{
    RULES_REMEMBERED, construction_limits, failed_by_callers_limit, unless_stopped,
};
use crate::quotient::{self, QuotientLimits};
use crate::rules::HeapRule;
use crate::sums::answer::{Answer, SolveOptions, WinningMove};
use crate::sums::position::Position;
use crate::theory::caches::{Caches, Shelf};
use crate::theory::game::Outcome;
use crate::theory::solver::{Budget, SearchError};

/// The largest heap of a rule other than Nim whose genus `solve` computes.
pub(in crate::sums) const GENUS_REACH: u64 = 64;

/// A misère sum of heaps, of several heap rules, whose every heap is tame:
/// every heap up to the largest of its rule has the genus of a nim position
/// (nim heaps always do), so by Conway's theorem on tame games
/// ([`quotient::genus::tame_sum_is_p`]) it plays as misère Nim on their
/// Grundy values. The options of a heap are sums of smaller heaps of its rule,
/// tame too, so each move is judged by the same rule. Nim heaps of any size
/// are answered without listing their moves.
pub(in crate::sums) fn solve_by_genus(
    position: &Position,
    options: &SolveOptions,
) -> Result<Option<Answer>, SearchError> {
    use num_traits::ToPrimitive;
    use quotient::genus::{Genus, tame_sum_is_p};
    let nim_rule = crate::rules::HeapRule::nim();
    // Each part: its place, its rule and size; the genera of each rule.
    let mut parts = Vec::new();
    let mut rules: Vec<(crate::rules::HeapRule, u64)> = Vec::new();
    for (g, group) in position.groups.iter().enumerate() {
        for (i, part) in group.parts.iter().enumerate() {
            let Some((rule, size)) = part.as_heap() else {
                return Ok(None);
            };
            if rule != nim_rule {
                let Some(small) = size.to_u64().filter(|&s| s <= GENUS_REACH) else {
                    return Ok(None);
                };
                match rules.iter_mut().find(|(r, _)| *r == rule) {
                    Some((_, largest)) => *largest = (*largest).max(small),
                    None => rules.push((rule.clone(), small)),
                }
            }
            parts.push((g, i, part, rule, size));
        }
    }
    if rules.is_empty() {
        // Misère Nim alone is the Anti-SG rule's.
        return Ok(None);
    }
    let budget = options.budget();
    let limits = construction_limits(budget);
    let mut genera_of = Vec::with_capacity(rules.len());
    for (rule, largest) in &rules {
        match tame_genera(rule, *largest, limits, budget)? {
            Some(found) => genera_of.push(found),
            None => return Ok(None),
        }
    }
    let genus_of = |rule: &crate::rules::HeapRule, size: u64| -> &Genus {
        let at = rules.iter().position(|(r, _)| r == rule).unwrap_or(0);
        &genera_of[at][size as usize]
    };
    // The Grundy value and smallness of each part.
    let mut values = Vec::with_capacity(parts.len());
    for (_, _, _, rule, size) in &parts {
        values.push(if *rule == nim_rule {
            (size.clone(), *size <= BigUint::from(1u8))
        } else {
            let genus = genus_of(rule, size.to_u64().unwrap_or(0));
            (BigUint::from(genus.normal), genus.is_small())
        });
    }
    let total = values.iter().fold(BigUint::zero(), |x, (v, _)| x ^ v);
    let small = values.iter().filter(|(_, s)| *s).count();
    let is_p = tame_sum_is_p(&total, small == values.len());
    let mut moves = Vec::new();
    let mut count = BigUint::zero();
    for (index, (g, i, part, rule, size)) in parts.iter().enumerate() {
        let (value, was_small) = &values[index];
        let others = &total ^ value;
        let others_small = small - usize::from(*was_small) == values.len() - 1;
        let wins = |after: &BigUint, after_small: bool| {
            tame_sum_is_p(&(&others ^ after), others_small && after_small)
        };
        if *rule == nim_rule {
            // A nim heap moves to any smaller one; only two targets can win.
            // Listed as the moves of Nim are, the largest heap left first.
            let mut targets = vec![others.clone(), &others ^ BigUint::from(1u8)];
            targets.sort_by(|a, b| b.cmp(a));
            targets.dedup();
            for target in targets {
                if target < *size && wins(&target, target <= BigUint::from(1u8)) {
                    count += 1u8;
                    if moves.len() < options.max_moves {
                        let Some(leaves) = leaf_parts(part, rule, vec![target]) else {
                            return Ok(None);
                        };
                        moves.push(WinningMove::in_component(part, *g, *i, leaves));
                    }
                }
            }
            continue;
        }
        let size = size.to_u64().unwrap_or(0);
        for m in rule.moves(size) {
            let mut after = BigUint::zero();
            let mut after_small = true;
            for &leaf in m.leaves.iter().filter(|&&leaf| leaf > 0) {
                let genus = genus_of(rule, leaf);
                after ^= BigUint::from(genus.normal);
                after_small &= genus.is_small();
            }
            if wins(&after, after_small) {
                count += 1u8;
                if moves.len() < options.max_moves {
                    let sizes = m.leaves.iter().map(|&leaf| BigUint::from(leaf)).collect();
                    let Some(leaves) = leaf_parts(part, rule, sizes) else {
                        return Ok(None);
                    };
                    moves.push(WinningMove::in_component(part, *g, *i, leaves));
                }
            }
        }
    }
    let outcome = if is_p {
        Outcome::PreviousPlayerWins
    } else {
        Outcome::NextPlayerWins
    };
    let truncated = count > BigUint::from(moves.len());
    let mut answer = misere_answer(
        position,
        outcome,
        moves,
        count,
        truncated,
        "misère genus (tame sum)",
    );
    let symbols: Vec<String> = rules
        .iter()
        .zip(&genera_of)
        .map(|((rule, largest), found)| {
            format!(
                "{rule} heaps 1..={largest}: {}",
                found[1..]
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(" ")
            )
        })
        .collect();
    answer.notes.push(format!(
        "every heap is tame (the genus of a nim position; nim heaps always are), so the sum plays as misère Nim on the Grundy values (Conway): {}",
        symbols.join("; ")
    ));
    Ok(Some(answer))
}

/// For each rule, the first heap found wild (its genus not a nim position's):
/// sums reaching it are not tried again (at most
/// [`RULES_REMEMBERED`] entries, in the
/// computation's context of caches).
pub(in crate::sums) struct NotTame;

impl Shelf for NotTame {
    type Key = (HeapRule, u64);
    type Value = ();
    const ENTRIES: usize = RULES_REMEMBERED;
}

/// The genus constructions that failed within their work or order bound, by
/// rule and heaps asked: a fact of the rule, the same on every machine and
/// for every caller, so it is not tried again. A construction stopped by the
/// caller's deadline, or by a memory limit below the construction's own, is
/// not remembered, so that an answer depends on its own position only, not
/// on the positions solved before it. At most
/// [`RULES_REMEMBERED`] entries, in the
/// computation's context of caches.
pub(in crate::sums) struct GenusFailed;

impl Shelf for GenusFailed {
    type Key = (HeapRule, u64);
    type Value = ();
    const ENTRIES: usize = RULES_REMEMBERED;
}

/// The genera of heaps `0..=largest` of `rule` when all are tame, found by
/// computing them to 4, 8, 16, ... heaps so that the first heap that is not
/// tame ends the work early; what is remembered counts against `budget`'s
/// bytes ([`Caches::limit_under`]).
pub(in crate::sums) fn tame_genera(
    rule: &HeapRule,
    largest: u64,
    limits: QuotientLimits,
    budget: Budget,
) -> Result<Option<Vec<quotient::genus::Genus>>, SearchError> {
    use quotient::genus::genera;
    let caches = Caches::current();
    let bytes = budget.bytes;
    let rule_bytes = rule.held_bytes() as u64;
    let remember_failed = |heap: u64| {
        caches.keep::<GenusFailed>(bytes, (rule.clone(), heap), (), rule_bytes);
    };
    let remember_wild = |heap: u64| {
        caches.keep::<NotTame>(bytes, (rule.clone(), heap), (), rule_bytes);
    };
    if caches
        .find::<NotTame>(bytes, |(r, wild), ()| r == rule && *wild <= largest)
        .is_some()
    {
        return Ok(None);
    }
    let mut reach = largest.min(4);
    loop {
        if caches
            .find::<GenusFailed>(bytes, |(r, failed), ()| r == rule && *failed == reach)
            .is_some()
        {
            return Ok(None);
        }
        let found = match unless_stopped(|| genera(rule, reach, limits))? {
            Ok(found) => found,
            Err(error) => {
                if !failed_by_callers_limit(&error.error, limits) {
                    remember_failed(reach);
                }
                return Ok(None);
            }
        };
        if let Some(heap) = found.iter().position(|g| !g.is_nim_like()) {
            remember_wild(heap as u64);
            return Ok(None);
        }
        if reach == largest {
            return Ok(Some(found));
        }
        reach = (reach * 2).min(largest);
    }
}
