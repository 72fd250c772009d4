//! Finite automata over heaps, the verification of a candidate quotient, and
//! the search for the least word on which a candidate fails.
//!
//! A position of a heap game is a multiset of heaps: a word over the alphabet of
//! heap sizes, read in any order. A [`Dfa`] reads such words; it is
//! *commutative* when the order never matters (checked by
//! [`Dfa::is_commutative`]). Its accepting states are the states it claims to be
//! misère P-positions.
//!
//! **The check** (our formulation of the verification of Plambeck and Siegel,
//! "Misère quotients for impartial games", JCTA 2008, section 6). A word `x` is
//! a misère P-position iff it has a move and every move leads to an
//! N-position. Reading `x` heap by heap, the automaton can carry, beside its
//! state `m(x)`, the set `T(x)` of the states of `x`'s options:
//!
//! `T(x + h) = { δ(t, h) : t ∈ T(x) } ∪ { δ*(m(x), o) : o an option of heap h }`
//!
//! (a move in `x` keeps `h`; a move in `h` keeps `x`). These *pairs* `(m, T)`
//! form an automaton of their own, [`Pairs`], reading the same words. If for
//! every reachable pair `m` is accepting exactly when `T` is not empty and holds
//! no accepting state, and the automaton is commutative, then it predicts the
//! outcome of every word: by induction on the game, the options of `x` are
//! predicted right, so `T(x)` holds their true classes, and the check makes
//! `m(x)` right too (a word without moves has `T` empty and is an N-position,
//! misère). The check is finite although the words are not.
//!
//! **The least failure.** When the check fails, [`least_failure`] finds the
//! least failing word in the order where every option of a word comes before
//! it; the candidate is right on all its options, so its true outcome is the
//! one the pairs predict. The construction mends the candidate there.
//!
//! **The quotient.** A candidate right on every word is, once minimal
//! ([`Pairs::minimized`]: Moore's partition refinement), the misère quotient:
//! for a commutative set of words, the classes of the minimal automaton are
//! the classes of `x ≡ y ⟺ o(x + z) = o(y + z) for all z`, and reading a word
//! is multiplying by it.

use rustc_hash::FxHashMap;

use crate::theory::cancel::checkpoint;
use crate::theory::limits::SearchError;

/// A deterministic automaton over the letters `0..letters` (letter `l` is the
/// heap of `l + 1` tokens), starting in state 0.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Dfa {
    /// The number of states.
    pub states: usize,
    /// The number of letters.
    pub letters: usize,
    /// `delta[state * letters + letter]`.
    pub delta: Vec<u32>,
    /// Whether each state is claimed to be a misère P-position.
    pub accept: Vec<bool>,
}

impl Dfa {
    pub fn step(&self, state: u32, letter: u32) -> u32 {
        self.delta[state as usize * self.letters + letter as usize]
    }

    /// The state reached from `state` by reading `word`.
    pub fn read(&self, state: u32, word: &[u32]) -> u32 {
        word.iter().fold(state, |s, &l| self.step(s, l))
    }

    /// Whether reading two letters in either order always leads to the same
    /// state (so the state of a multiset of heaps is well defined).
    pub fn is_commutative(&self) -> bool {
        (0..self.states as u32).all(|q| {
            (0..self.letters as u32).all(|a| {
                let qa = self.step(q, a);
                (a + 1..self.letters as u32)
                    .all(|b| self.step(qa, b) == self.step(self.step(q, b), a))
            })
        })
    }
}

impl Dfa {
    /// Relabels every state by the outcome of the least word reaching it
    /// (words compared as multisets, largest heap first: every option of a
    /// word is smaller than it), computed from the labels of the states its
    /// options reach, which come before it. A candidate so labelled is right
    /// on the least word of each state, and its least failure of the check,
    /// if any, is a word the candidate puts with a smaller word of the other
    /// outcome (Plambeck-Siegel's candidates are labelled the same way).
    pub fn relabel(&mut self, options: &Options, budget: &Budget) -> Result<(), SearchError> {
        use std::cmp::Reverse;
        use std::collections::BinaryHeap;
        // Least words by a best-first search: a word is its letters in
        // decreasing order; extending by a letter keeps the order of words.
        let mut least: Vec<Option<Vec<u32>>> = vec![None; self.states];
        let mut order = Vec::with_capacity(self.states);
        let mut queue = BinaryHeap::new();
        queue.push(Reverse((Vec::<u32>::new(), 0u32)));
        while let Some(Reverse((word, state))) = queue.pop() {
            budget.charge(1 + word.len() as u64 / 8)?;
            if least[state as usize].is_some() {
                continue;
            }
            checkpoint()?;
            for l in 0..self.letters as u32 {
                let to = self.step(state, l);
                if least[to as usize].is_none() {
                    let mut next = word.clone();
                    let at = next.partition_point(|&x| x >= l);
                    next.insert(at, l);
                    queue.push(Reverse((next, to)));
                }
            }
            least[state as usize] = Some(word);
            order.push(state);
        }
        let mut label = vec![false; self.states];
        for &state in &order {
            let word = least[state as usize].clone().unwrap_or_default();
            let mut has_move = false;
            let mut all_n = true;
            for (i, &h) in word.iter().enumerate() {
                if i > 0 && word[i - 1] == h {
                    continue;
                }
                let mut rest = word.clone();
                rest.remove(i);
                let base = self.read(0, &rest);
                budget.charge(options[h as usize].len() as u64 + 1)?;
                for option in &options[h as usize] {
                    has_move = true;
                    if label[self.read(base, option) as usize] {
                        all_n = false;
                    }
                }
            }
            label[state as usize] = has_move && all_n;
        }
        self.accept = label;
        Ok(())
    }
}

impl Dfa {
    /// The minimal automaton accepting what this one accepts from its
    /// reachable states (Moore's partition refinement), states numbered in
    /// breadth-first order from the start. For a commutative automaton whose
    /// states are elements of a monoid, it is the monoid's quotient by the
    /// congruence "no product tells them apart" (a bipartite monoid reduced).
    pub fn minimized(&self) -> Result<Self, SearchError> {
        let mut number = vec![u32::MAX; self.states];
        let mut order = vec![0u32];
        number[0] = 0;
        let mut at = 0;
        while at < order.len() {
            let q = order[at];
            at += 1;
            for l in 0..self.letters as u32 {
                let to = self.step(q, l) as usize;
                if number[to] == u32::MAX {
                    number[to] = order.len() as u32;
                    order.push(to as u32);
                }
            }
        }
        let n = order.len();
        let mut class: Vec<u32> = order
            .iter()
            .map(|&q| u32::from(self.accept[q as usize]))
            .collect();
        let mut classes = 0;
        loop {
            checkpoint()?;
            let mut ids: FxHashMap<Vec<u32>, u32> = FxHashMap::default();
            let mut next = Vec::with_capacity(n);
            for (i, &q) in order.iter().enumerate() {
                if i % 4096 == 0 {
                    checkpoint()?;
                }
                let mut signature = Vec::with_capacity(self.letters + 1);
                signature.push(class[number[q as usize] as usize]);
                signature.extend(
                    (0..self.letters as u32)
                        .map(|l| class[number[self.step(q, l) as usize] as usize]),
                );
                let fresh = ids.len() as u32;
                next.push(*ids.entry(signature).or_insert(fresh));
            }
            class = next;
            if ids.len() == classes {
                break;
            }
            classes = ids.len();
        }
        // Classes numbered in the order of their first state (the start is 0).
        let mut renumber = vec![u32::MAX; classes];
        let mut first = Vec::with_capacity(classes);
        for (i, &c) in class.iter().enumerate() {
            if renumber[c as usize] == u32::MAX {
                renumber[c as usize] = first.len() as u32;
                first.push(order[i]);
            }
        }
        let mut delta = Vec::with_capacity(classes * self.letters);
        let mut accept = Vec::with_capacity(classes);
        for &q in &first {
            accept.push(self.accept[q as usize]);
            for l in 0..self.letters as u32 {
                let to = number[self.step(q, l) as usize] as usize;
                delta.push(renumber[class[to] as usize]);
            }
        }
        Ok(Self {
            states: classes,
            letters: self.letters,
            delta,
            accept,
        })
    }
}

/// The options of each letter's heap, each a word (the heaps it leaves, as
/// letters; the empty word when the heap is removed whole). Duplicates are
/// removed: the check needs the set of their states.
pub(crate) type Options = [Vec<Vec<u32>>];

/// Letters whose pair transitions are the same (same column of the automaton,
/// same option states from every state) share a type: the pair automaton is
/// built over types, which makes periodic heap rules cheap.
struct LetterTypes {
    /// The type of each letter.
    of_letter: Vec<u32>,
    /// A letter of each type.
    representative: Vec<u32>,
    /// For each type and state, the sorted states of the options of the
    /// type's heap read from that state.
    option_states: Vec<Vec<Vec<u32>>>,
}

fn letter_types(dfa: &Dfa, options: &Options) -> Result<LetterTypes, SearchError> {
    let mut by_key: FxHashMap<(Vec<u32>, Vec<Vec<u32>>), u32> = FxHashMap::default();
    let mut of_letter = Vec::with_capacity(dfa.letters);
    let mut representative = Vec::new();
    let mut option_states = Vec::new();
    for letter in 0..dfa.letters as u32 {
        checkpoint()?;
        let column: Vec<u32> = (0..dfa.states as u32)
            .map(|q| dfa.step(q, letter))
            .collect();
        let states: Vec<Vec<u32>> = (0..dfa.states as u32)
            .map(|q| {
                let mut reached: Vec<u32> = options[letter as usize]
                    .iter()
                    .map(|word| dfa.read(q, word))
                    .collect();
                reached.sort_unstable();
                reached.dedup();
                reached
            })
            .collect();
        let next = representative.len() as u32;
        let id = *by_key.entry((column, states.clone())).or_insert_with(|| {
            representative.push(letter);
            option_states.push(states);
            next
        });
        of_letter.push(id);
    }
    Ok(LetterTypes {
        of_letter,
        representative,
        option_states,
    })
}

/// The pair automaton of a candidate (see the module documentation), over
/// letter types.
pub(crate) struct Pairs {
    /// Pairs reached, in the order found (pair 0 is the empty word's).
    pub count: usize,
    types: usize,
    of_letter: Vec<u32>,
    /// `delta[pair * types + type]`.
    delta: Vec<u32>,
    /// The outcome each pair predicts: P iff its set is not empty and holds no
    /// accepting state.
    predicts_p: Vec<bool>,
    /// The first pair where the candidate and the prediction disagree.
    pub first_failure: Option<u32>,
}

/// What the pair automata of one construction may spend: bytes each, and
/// pair transitions in all (a bound on time that gives the same result on
/// every machine).
#[derive(Debug)]
pub(crate) struct Budget {
    pub max_bytes: u64,
    pub work_left: std::cell::Cell<u64>,
    pub max_work: u64,
}

impl Budget {
    /// Spends `units` of work: a pair transition, or a candidate's transition.
    ///
    /// # Errors
    /// [`SearchError::StateLimit`] naming the whole budget when it runs out.
    pub fn charge(&self, units: u64) -> Result<(), SearchError> {
        let left = self.work_left.get();
        if left < units {
            return Err(SearchError::StateLimit {
                limit: usize::try_from(self.max_work).unwrap_or(usize::MAX),
            });
        }
        self.work_left.set(left - units);
        Ok(())
    }
}

/// How a pair automaton's construction ends early.
pub(crate) enum Stop {
    /// At the first failure of the check (for candidates tried cheaply).
    AtFirstFailure,
    /// Never: the whole automaton is built (to minimize it).
    Never,
}

/// Builds the pair automaton of `dfa`, holding at most `max_bytes` bytes.
///
/// # Errors
/// [`SearchError::MemoryLimit`] past `max_bytes`; [`SearchError::Cancelled`].
pub(crate) fn pairs(
    dfa: &Dfa,
    options: &Options,
    stop: &Stop,
    budget: &Budget,
) -> Result<Pairs, SearchError> {
    let max_bytes = budget.max_bytes;
    let types = letter_types(dfa, options)?;
    let type_count = types.representative.len();
    let words = dfa.states.div_ceil(64);
    let mut index: FxHashMap<(u32, Box<[u64]>), u32> = FxHashMap::default();
    let mut list: Vec<(u32, Box<[u64]>)> = Vec::new();
    let start = (0u32, vec![0u64; words].into_boxed_slice());
    index.insert(start.clone(), 0);
    list.push(start);
    let mut delta: Vec<u32> = Vec::new();
    let mut predicts_p = Vec::new();
    let mut first_failure = None;
    let per_pair = (words * 8 * 2 + 48 + type_count * 4) as u64;
    let mut next = 0usize;
    let mut members = Vec::new();
    while next < list.len() {
        checkpoint()?;
        if (list.len() as u64).saturating_mul(per_pair) > max_bytes {
            return Err(SearchError::MemoryLimit { limit: max_bytes });
        }
        budget.charge(type_count as u64)?;
        let (m, set) = list[next].clone();
        members_of(&set, &mut members);
        let predicted = !members.is_empty() && members.iter().all(|&t| !dfa.accept[t as usize]);
        predicts_p.push(predicted);
        if predicted != dfa.accept[m as usize] {
            first_failure.get_or_insert(next as u32);
            if matches!(stop, Stop::AtFirstFailure) {
                break;
            }
        }
        for t in 0..type_count {
            let key = pair_step(dfa, &types, m, &members, t);
            let id = match index.get(&key) {
                Some(&id) => id,
                None => {
                    let id = list.len() as u32;
                    index.insert(key.clone(), id);
                    list.push(key);
                    id
                }
            };
            delta.push(id);
        }
        next += 1;
    }
    Ok(Pairs {
        count: predicts_p.len(),
        types: type_count,
        of_letter: types.of_letter,
        delta,
        predicts_p,
        first_failure,
    })
}

/// The elements of a set of states, as a bit set.
fn members_of(set: &[u64], members: &mut Vec<u32>) {
    members.clear();
    for (w, &bits) in set.iter().enumerate() {
        let mut bits = bits;
        while bits != 0 {
            members.push((w * 64) as u32 + bits.trailing_zeros());
            bits &= bits - 1;
        }
    }
}

/// The pair reached from `(m, members)` by a letter of type `t`.
fn pair_step(
    dfa: &Dfa,
    types: &LetterTypes,
    m: u32,
    members: &[u32],
    t: usize,
) -> (u32, Box<[u64]>) {
    let letter = types.representative[t];
    let mut set = vec![0u64; dfa.states.div_ceil(64)].into_boxed_slice();
    for &member in members {
        let s = dfa.step(member, letter) as usize;
        set[s / 64] |= 1 << (s % 64);
    }
    for &s in &types.option_states[t][m as usize] {
        let s = s as usize;
        set[s / 64] |= 1 << (s % 64);
    }
    (dfa.step(m, letter), set)
}

/// The least word (heaps compared largest first, as in [`Dfa::relabel`]) on
/// which `dfa` fails the check, or `None` when it passes. Every option of a
/// word is smaller than it, so the candidate is right on the options of its
/// least failure: the least failure's true outcome is the one its options
/// predict, the opposite of the candidate's.
///
/// # Errors
/// [`SearchError::MemoryLimit`], the budget's work, [`SearchError::Cancelled`].
pub(crate) fn least_failure(
    dfa: &Dfa,
    options: &Options,
    budget: &Budget,
) -> Result<Option<Vec<u32>>, SearchError> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let types = letter_types(dfa, options)?;
    let type_count = types.representative.len();
    let words = dfa.states.div_ceil(64);
    let per_pair = (words * 8 * 2 + 64) as u64;
    let mut seen: rustc_hash::FxHashSet<(u32, Box<[u64]>)> = rustc_hash::FxHashSet::default();
    let mut queue = BinaryHeap::new();
    queue.push(Reverse((
        Vec::<u32>::new(),
        0u32,
        vec![0u64; words].into_boxed_slice(),
    )));
    let mut members = Vec::new();
    while let Some(Reverse((word, m, set))) = queue.pop() {
        // A pop costs about a unit per 64 states and per 8 heaps compared.
        budget.charge(1 + set.len() as u64 + word.len() as u64 / 8)?;
        if !seen.insert((m, set.clone())) {
            continue;
        }
        checkpoint()?;
        if (seen.len() as u64 + queue.len() as u64).saturating_mul(per_pair) > budget.max_bytes {
            return Err(SearchError::MemoryLimit {
                limit: budget.max_bytes,
            });
        }
        budget.charge(type_count as u64)?;
        members_of(&set, &mut members);
        let predicted = !members.is_empty() && members.iter().all(|&t| !dfa.accept[t as usize]);
        if predicted != dfa.accept[m as usize] {
            return Ok(Some(word));
        }
        for t in 0..type_count {
            let letter = types.representative[t];
            let (m2, set2) = pair_step(dfa, &types, m, &members, t);
            if !seen.contains(&(m2, set2.clone())) {
                let mut next = word.clone();
                let at = next.partition_point(|&x| x >= letter);
                next.insert(at, letter);
                queue.push(Reverse((next, m2, set2)));
            }
        }
    }
    Ok(None)
}

impl Pairs {
    /// The minimal automaton computing what the pairs predict (Moore's
    /// partition refinement, [`Dfa::minimized`] over the letter types), over
    /// the heap letters again. Only for a pair automaton built whole
    /// ([`Stop::Never`]).
    pub fn minimized(self) -> Result<Dfa, SearchError> {
        let by_type = Dfa {
            states: self.count,
            letters: self.types,
            delta: self.delta,
            accept: self.predicts_p,
        }
        .minimized()?;
        let letters = self.of_letter.len();
        let mut delta = Vec::with_capacity(by_type.states * letters);
        for q in 0..by_type.states as u32 {
            delta.extend(self.of_letter.iter().map(|&t| by_type.step(q, t)));
        }
        Ok(Dfa {
            states: by_type.states,
            letters,
            delta,
            accept: by_type.accept,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unlimited(max_bytes: u64) -> Budget {
        Budget {
            max_bytes,
            work_left: std::cell::Cell::new(u64::MAX),
            max_work: u64::MAX,
        }
    }

    /// Misère Nim on heaps 1 and 2: a one-state candidate fails the check;
    /// the quotient's own automaton (six elements: `1, a, b, ab, b^2, ab^2`
    /// with `a^2 = 1`, `b^3 = b`, P-portion `{a, b^2}`) passes it and is
    /// already minimal.
    #[test]
    fn the_check_tells_a_wrong_candidate_from_the_quotient() {
        // Options: heap 1 -> {}, heap 2 -> {}, {1}.
        let options: Vec<Vec<Vec<u32>>> = vec![vec![vec![]], vec![vec![], vec![0]]];
        let wrong = Dfa {
            states: 1,
            letters: 2,
            delta: vec![0, 0],
            accept: vec![false],
        };
        assert!(
            pairs(&wrong, &options, &Stop::Never, &unlimited(u64::MAX))
                .unwrap()
                .first_failure
                .is_some()
        );
        // State = (ones mod 2) + 2 * (twos: 0, 1, 2, then 1, 2, ...).
        let state = |ones: u32, twos: u32| ones + 2 * twos;
        let mut delta = Vec::new();
        let mut accept = Vec::new();
        for twos in 0..3 {
            for ones in 0..2 {
                delta.push(state(1 - ones, twos));
                delta.push(state(ones, if twos == 2 { 1 } else { twos + 1 }));
                accept.push((ones == 1 && twos == 0) || (ones == 0 && twos == 2));
            }
        }
        let mut quotient = Dfa {
            states: 6,
            letters: 2,
            delta,
            accept,
        };
        assert!(quotient.is_commutative());
        let checked = pairs(&quotient, &options, &Stop::Never, &unlimited(u64::MAX)).unwrap();
        assert!(checked.first_failure.is_none());
        assert_eq!(checked.minimized().unwrap().states, 6);
        // Labels from least words are the same labels.
        let before = quotient.accept.clone();
        quotient.relabel(&options, &unlimited(u64::MAX)).unwrap();
        assert_eq!(quotient.accept, before);
        // The wrong candidate's least failure is the heap of 1 (a misère
        // P-position it calls N); the quotient has none.
        let budget = unlimited(u64::MAX);
        assert_eq!(
            least_failure(&wrong, &options, &budget).unwrap(),
            Some(vec![0])
        );
        assert_eq!(least_failure(&quotient, &options, &budget).unwrap(), None);
        // The quotient beside a bit that no outcome reads (flipped by heap
        // 1): twelve states, minimized back to six.
        let doubled = Dfa {
            states: 12,
            letters: 2,
            delta: (0..12u32)
                .flat_map(|q| {
                    let (inner, bit) = (q % 6, q / 6);
                    let one = quotient.step(inner, 0) + 6 * (1 - bit);
                    let two = quotient.step(inner, 1) + 6 * bit;
                    [one, two]
                })
                .collect(),
            accept: (0..12).map(|q| quotient.accept[q % 6]).collect(),
        };
        let minimal = doubled.minimized().unwrap();
        assert_eq!(minimal.states, 6);
        assert_eq!(minimal.accept, quotient.accept);
    }

    #[test]
    fn a_memory_limit_stops_the_pairs() {
        let options: Vec<Vec<Vec<u32>>> = vec![vec![vec![]], vec![vec![], vec![0]]];
        let dfa = Dfa {
            states: 1,
            letters: 2,
            delta: vec![0, 0],
            accept: vec![false],
        };
        assert!(matches!(
            pairs(&dfa, &options, &Stop::Never, &unlimited(10)),
            Err(SearchError::MemoryLimit { limit: 10 })
        ));
    }
}
