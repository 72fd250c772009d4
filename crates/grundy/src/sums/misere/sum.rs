//! A misère sum answered: by the Anti-SG rule when every component knows its
//! nimber and meets the rule's condition, else by the misère quotient of its
//! heap rule, else by the genera of its heaps, else by a search of the whole
//! sum (see [`super`] for the theorems and their sources).

use num_bigint::BigUint;
use num_traits::Zero;

use super::answer::misere_answer;
use super::genus::solve_by_genus;
use super::quotient::solve_by_quotient;
use super::search::misere_by_search;
use crate::sums::answer::{Answer, SolveOptions, WinningMove};
use crate::sums::position::Position;
use crate::theory::solver::SearchError;

pub(in crate::sums) fn solve_misere(
    position: &Position,
    options: &SolveOptions,
) -> Result<Answer, SearchError> {
    if let Some(answer) = solve_anti_sg(position, options) {
        return Ok(answer);
    }
    if let Some(answer) = solve_by_quotient(position, options)? {
        return Ok(answer);
    }
    if let Some(answer) = solve_by_genus(position, options)? {
        return Ok(answer);
    }
    misere_by_search(position, options)
}

/// A misère sum whose components all know their nimbers by theory and satisfy
/// the Anti-SG condition: the Anti-SG rule (Bouton's rule for misère Nim,
/// generalized; see [`crate::sums::misere`]) answers it. A move of a component
/// of nimber `n` to nimber `t` wins iff the sum after it is a loss by the rule;
/// only `t` in `{n xor X, 0, 1}` can be, so those are counted by theory.
pub(in crate::sums) fn solve_anti_sg(
    position: &Position,
    options: &SolveOptions,
) -> Option<Answer> {
    let mut nimbers = Vec::new();
    for group in &position.groups {
        for part in &group.parts {
            if !part.satisfies_anti_sg_condition() {
                return None;
            }
            nimbers.push(part.nimber_by_theory()?.0);
        }
    }
    let one = BigUint::from(1u8);
    let total = nimbers.iter().fold(BigUint::zero(), |x, n| x ^ n);
    let big = nimbers.iter().filter(|n| **n > one).count();
    let outcome = crate::sums::misere::anti_sg_outcome(&nimbers);
    let mut moves = Vec::new();
    let mut count = BigUint::zero();
    let mut index = 0;
    for (g, group) in position.groups.iter().enumerate() {
        for (i, part) in group.parts.iter().enumerate() {
            let nimber = &nimbers[index];
            index += 1;
            let mut targets = vec![nimber ^ &total, BigUint::zero(), one.clone()];
            targets.sort();
            targets.dedup();
            for target in targets.into_iter().filter(|t| t != nimber) {
                let total_after = &total ^ nimber ^ &target;
                let big_after = big - usize::from(*nimber > one) + usize::from(target > one);
                let loses_after = if total_after.is_zero() {
                    big_after > 0
                } else {
                    big_after == 0
                };
                if !loses_after {
                    continue;
                }
                let room = options.max_moves.saturating_sub(moves.len());
                let found = part.moves_to_nimber_by_theory(&target, room)?;
                count += found.count;
                for leaves in found.listed.into_iter().take(room) {
                    moves.push(WinningMove::in_component(part, g, i, leaves));
                }
            }
        }
    }
    let truncated = count > BigUint::from(moves.len());
    Some(misere_answer(
        position,
        outcome,
        moves,
        count,
        truncated,
        "anti-sg rule",
    ))
}
