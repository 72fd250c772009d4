//! Heap games: a position is a collection of heaps of tokens, a move changes one
//! heap (and may leave it split into several). Each heap is an independent
//! component, so a term such as `nim(3, 5, 7)` is a sum of three components.

pub(crate) mod bash;
pub(crate) mod nim;
mod split_convolution;
mod split_count;
pub mod subtraction;
pub mod take_and_break;

pub(crate) use crate::rules::HeapRule;

use std::fmt;
use std::sync::Arc;

use num_bigint::BigUint;
use num_traits::{ToPrimitive, Zero};
use smallvec::SmallVec;

use crate::drawing::Drawing;
use crate::family::{EverySteps, Family, MovesTo, OptionsWithSteps, Part, parts};
use crate::lang::arguments::{GivenSize, no_params};
use crate::lang::{LangError, Term};
use crate::theory::solver::{Refusal, SearchError};

/// The heap rule of a game named without parameters (`kayles`): `rule`,
/// written `name`.
pub(crate) fn rule_without_parameters(
    term: &Term,
    name: &str,
    rule: HeapRule,
) -> Result<(HeapRule, String), LangError> {
    no_params(term)?;
    Ok((rule, name.to_owned()))
}

/// The subtraction rule of `amounts` (each at most
/// [`subtraction::MAX_AMOUNT`]), as the sequence engine reads it.
pub(crate) fn subtraction_rule(term: &Term, amounts: &[u64]) -> Result<HeapRule, LangError> {
    let set: Vec<u32> = amounts
        .iter()
        .filter_map(|&a| u32::try_from(a).ok())
        .collect();
    HeapRule::subtraction(set).map_err(|error| LangError::new(error.to_string(), term.name_span))
}

/// The heaps one move leaves (none, one, or more after a split).
pub type Leaves = SmallVec<[u64; 2]>;

/// What is asked of a heap rule's theory: the moves of a heap to a position of
/// nimber `target`, of which the first `max` are listed.
#[derive(Clone, Copy, Debug)]
pub struct Wanted<'a> {
    /// The nimber the moves must reach.
    pub target: &'a BigUint,
    /// The most moves listed (all are counted).
    pub max: usize,
}

/// The moves of a heap to a nimber: how many there are, and the first of
/// them, each as the heaps it leaves.
pub type HeapMovesTo = (BigUint, Vec<Vec<BigUint>>);

/// The rules of a heap game, for one heap.
pub trait HeapRules: fmt::Debug + PartialEq + Send + Sync + 'static {
    /// Appends the moves from a heap of `size`, each as the heaps it leaves. A
    /// rule must stop once it has appended more than `limit` (the caller then
    /// reports the limit): a heap may be far larger than its moves are many.
    fn heap_moves(&self, size: u64, limit: usize, moves: &mut Vec<Leaves>);

    /// The nimber of a heap of any size by theory, with the method's name.
    fn heap_nimber(&self, _size: &BigUint) -> Option<(BigUint, &'static str)> {
        None
    }

    /// The moves from a heap of `size` to a position of nimber `wanted.target`
    /// by theory: their number and the first `wanted.max`, each as the heaps it
    /// leaves.
    fn heap_moves_to_nimber(&self, _size: &BigUint, _wanted: Wanted<'_>) -> Option<HeapMovesTo> {
        None
    }

    /// The Every-SG steps of a heap of `size` and of its options by theory,
    /// options listed up to `max` a group, each as the heaps it leaves (see
    /// [`Family::every_steps_by_theory`]).
    fn heap_every_steps(&self, _size: &BigUint, _max: usize) -> Option<EverySteps<BigUint>> {
        None
    }

    /// Why the nimber of a heap of `size` is not known and a search cannot find it
    /// (its values cost more than a position may take to build); the search then
    /// stops with [`SearchError::TheoryLimit`] instead of trying.
    fn heap_nimber_refusal(&self, _size: &BigUint) -> Option<Refusal> {
        None
    }

    /// Why the moves of a heap of `size` to nimber `target` can be neither
    /// counted by theory nor enumerated (see
    /// [`Family::moves_to_nimber_refusal`]).
    fn heap_moves_to_nimber_refusal(&self, _size: &BigUint, _target: &BigUint) -> Option<Refusal> {
        None
    }

    /// Whether, by theory, every heap position of nimber 0 that has a move can
    /// move to nimber 1 (the condition of the Anti-SG rule,
    /// [`crate::sums::misere`]).
    fn satisfies_anti_sg_condition(&self) -> bool {
        false
    }

    /// The rule as data, for misère quotients ([`crate::quotient`]).
    fn heap_rule(&self) -> Option<HeapRule> {
        None
    }
}

/// The options of a heap that leave one heap each, grouped by their steps:
/// `leaves` the heaps left (any order), `steps` their Every-SG steps; each
/// group lists its first `max` heaps, smallest first.
pub(crate) fn single_heap_options(
    leaves: impl IntoIterator<Item = BigUint>,
    steps: impl Fn(&BigUint) -> BigUint,
    max: usize,
) -> EverySteps<BigUint> {
    let mut valued: Vec<(BigUint, BigUint)> = leaves
        .into_iter()
        .map(|leaf| (steps(&leaf), leaf))
        .collect();
    valued.sort_unstable();
    let mut groups: Vec<OptionsWithSteps<BigUint>> = Vec::new();
    for (steps, leaf) in valued {
        match groups.last_mut() {
            Some(group) if group.steps == steps => {
                group.count += 1u32;
                if group.first.len() < max {
                    group.first.push(vec![leaf]);
                }
            }
            _ => groups.push(OptionsWithSteps {
                steps,
                count: 1u32.into(),
                first: if max > 0 {
                    vec![vec![leaf]]
                } else {
                    Vec::new()
                },
            }),
        }
    }
    EverySteps::from_options(groups)
}

/// The size of one heap: a position of every heap game.
///
/// It keeps the decimal digits the input gave (`GivenSize`, from the language), so that a
/// position of a million big heaps prints by copying text; equality and
/// hashing look at the size only.
#[derive(Clone, Debug)]
pub struct HeapSize {
    /// The number of tokens.
    pub value: BigUint,
    text: Option<Box<str>>,
}

impl HeapSize {
    /// A heap of `value` tokens.
    #[must_use]
    pub const fn new(value: BigUint) -> Self {
        Self { value, text: None }
    }
}

impl From<BigUint> for HeapSize {
    fn from(value: BigUint) -> Self {
        Self::new(value)
    }
}

impl From<u64> for HeapSize {
    fn from(value: u64) -> Self {
        Self::new(value.into())
    }
}

impl From<GivenSize> for HeapSize {
    fn from(given: GivenSize) -> Self {
        Self {
            value: given.value,
            text: given.text,
        }
    }
}

impl PartialEq for HeapSize {
    fn eq(&self, other: &Self) -> bool {
        self.value == other.value
    }
}

impl Eq for HeapSize {}

impl std::hash::Hash for HeapSize {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.value.hash(state);
    }
}

/// The components of the heaps `sizes` under `rules`.
pub fn heap_parts<R: HeapRules>(
    rules: &Arc<R>,
    sizes: impl IntoIterator<Item = impl Into<HeapSize>>,
) -> Vec<Part> {
    parts(rules, sizes.into_iter().map(Into::into))
}

/// Every heap rule is a game family whose positions are single heaps; a sum of
/// heaps is a sum of components.
impl<R: HeapRules> Family for R {
    type Position = HeapSize;

    fn drawing(&self, heap: &HeapSize) -> Option<Drawing> {
        Some(Drawing::Heaps(vec![heap.value.clone()]))
    }

    fn write_position(&self, heap: &HeapSize, out: &mut String) {
        use std::fmt::Write as _;
        match (&heap.text, heap.value.to_u64()) {
            (Some(text), _) => out.push_str(text),
            (None, Some(small)) => {
                let _ = write!(out, "{small}");
            }
            (None, None) => {
                let _ = write!(out, "{}", heap.value);
            }
        }
    }

    fn nimber_by_theory(&self, heap: &HeapSize) -> Option<(BigUint, &'static str)> {
        self.heap_nimber(&heap.value)
    }

    fn moves(&self, heap: &HeapSize, limit: usize) -> Result<Vec<Vec<HeapSize>>, SearchError> {
        if let Some(refusal) = self.heap_nimber_refusal(&heap.value) {
            return Err(SearchError::TheoryLimit { refusal });
        }
        // The rule's moves are enumerated, not the heap's sizes: a heap of a
        // million tokens under `bash[2]` has two moves.
        let size = heap
            .value
            .to_u64()
            .ok_or(SearchError::StateLimit { limit })?;
        let mut moves = Vec::new();
        self.heap_moves(size, limit, &mut moves);
        if moves.len() > limit {
            return Err(SearchError::StateLimit { limit });
        }
        Ok(moves
            .into_iter()
            .map(|leaves| leaves.into_iter().map(HeapSize::from).collect())
            .collect())
    }

    fn moves_to_nimber_by_theory(
        &self,
        heap: &HeapSize,
        target: &BigUint,
        max: usize,
    ) -> Option<MovesTo<HeapSize>> {
        let (count, listed) = self.heap_moves_to_nimber(&heap.value, Wanted { target, max })?;
        Some(MovesTo {
            count,
            listed: listed
                .into_iter()
                .map(|leaves| leaves.into_iter().map(HeapSize::new).collect())
                .collect(),
        })
    }

    fn moves_to_nimber_refusal(&self, heap: &HeapSize, target: &BigUint) -> Option<Refusal> {
        self.heap_moves_to_nimber_refusal(&heap.value, target)
    }

    fn every_steps_by_theory(&self, heap: &HeapSize, max: usize) -> Option<EverySteps<HeapSize>> {
        Some(self.heap_every_steps(&heap.value, max)?.map(HeapSize::new))
    }

    fn satisfies_anti_sg_condition(&self) -> bool {
        HeapRules::satisfies_anti_sg_condition(self)
    }

    fn as_heap(&self, heap: &HeapSize) -> Option<(HeapRule, BigUint)> {
        Some((self.heap_rule()?, heap.value.clone()))
    }

    fn heap_position(&self, size: BigUint) -> Option<HeapSize> {
        Some(HeapSize::new(size))
    }

    fn describe_move(&self, heap: &HeapSize, to: &[HeapSize]) -> String {
        let left: BigUint = to.iter().map(|leaf| &leaf.value).sum();
        let removed = &heap.value - left.min(heap.value.clone());
        let leaves: Vec<String> = to.iter().map(|leaf| leaf.value.to_string()).collect();
        describe_heap_move(&heap.value, &removed, &leaves)
    }
}

/// "take 2 from the heap of 7", "remove 2 from the heap of 10, leaving 3 and 5".
fn describe_heap_move(size: &BigUint, removed: &BigUint, leaves: &[String]) -> String {
    let leaves: Vec<&String> = leaves.iter().filter(|s| s.as_str() != "0").collect();
    match leaves.as_slice() {
        [] | [_] if !removed.is_zero() => format!("take {removed} from the heap of {size}"),
        [] => format!("empty the heap of {size}"),
        [only] => format!("change the heap of {size} into {only}"),
        many => {
            let (last, first) = many.split_last().unwrap_or((&many[0], &[]));
            let list = format!(
                "{} and {last}",
                first
                    .iter()
                    .map(|s| s.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            if removed.is_zero() {
                format!("split the heap of {size} into {list}")
            } else {
                format!("remove {removed} from the heap of {size}, leaving {list}")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_heap_larger_than_the_limit_lists_its_rules_moves() {
        let bash = bash::Bash::new(2u32.into());
        let heap = HeapSize::from(1_000_000u64);
        // Two moves, however large the heap.
        let moves = Family::moves(&bash, &heap, 10).unwrap();
        assert_eq!(moves, [vec![999_999u64.into()], vec![999_998u64.into()]]);
        // Nim's heap has as many moves as tokens: refused past the limit,
        // without enumerating them.
        assert!(matches!(
            Family::moves(&nim::Nim, &heap, 10),
            Err(SearchError::StateLimit { limit: 10 })
        ));
        let first = Family::first_moves(&nim::Nim, &heap, 5).unwrap();
        assert!(!first.complete);
        assert_eq!(first.moves.len(), 5);
        // Past u64: a sample of moves to nimbers 0, 1, 2, ... by theory.
        let huge = HeapSize::new(BigUint::from(10u32).pow(40));
        let first = Family::first_moves(&nim::Nim, &huge, 3).unwrap();
        let left: Vec<BigUint> = first.moves.iter().map(|m| m[0].value.clone()).collect();
        assert_eq!(left, [0u32.into(), 1u32.into(), 2u32.into()]);
        let first = Family::first_moves(&bash, &huge, 300).unwrap();
        // 10^40 = 1 (mod 3): to nimbers 0 (take 1) and 2 (take 2).
        assert_eq!(first.moves.len(), 2);
        let first = Family::first_moves(&bash, &heap, 300).unwrap();
        assert!(first.complete);
        assert_eq!(first.moves.len(), 2);
    }

    #[test]
    fn heap_moves_are_described_in_words() {
        let n = |v: u32| BigUint::from(v);
        let s = |v: &[&str]| v.iter().map(|x| (*x).to_owned()).collect::<Vec<_>>();
        assert_eq!(
            describe_heap_move(&n(7), &n(2), &s(&["5"])),
            "take 2 from the heap of 7"
        );
        assert_eq!(
            describe_heap_move(&n(7), &n(7), &s(&["0"])),
            "take 7 from the heap of 7"
        );
        assert_eq!(
            describe_heap_move(&n(10), &n(2), &s(&["3", "5"])),
            "remove 2 from the heap of 10, leaving 3 and 5"
        );
        assert_eq!(
            describe_heap_move(&n(10), &n(0), &s(&["3", "7"])),
            "split the heap of 10 into 3 and 7"
        );
    }
}
