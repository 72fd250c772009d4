//! The two-heap splits of many heaps counted at once, for a game whose values
//! follow no known period (Grundy's game): a sum of a million heaps asks, for
//! each heap, how many of its splits reach one nimber, and a pass over each
//! heap's splits costs the square of the largest heap in all.
//!
//! # The theory used
//!
//! Let every value be below `W = 2^k`, and write `s·v` for the parity of the bits
//! that `s` and `v` share. The characters `v ↦ (-1)^(s·v)` of the group `(Z/2)^k`
//! are orthogonal: `Σ_s (-1)^(s·v)` over `s < W` is `W` for `v = 0` and 0
//! otherwise (the Walsh-Hadamard transform). Since
//! `(-1)^(s·G(a)) (-1)^(s·G(b)) (-1)^(s·t) = (-1)^(s·(G(a) ⊕ G(b) ⊕ t))`, the ordered
//! pairs `(a, b)` with `a, b >= 1`, `a + b = m` and `G(a) ⊕ G(b) = t` number
//!
//! `C(m, t) = (1/W) Σ_s (-1)^(s·t) H_s(m)`, where `H_s = B_s * B_s` and
//! `B_s(a) = (-1)^(s·G(a))` for `a >= 1` (0 at `a = 0`).
//!
//! Each `H_s` is an ordinary convolution over the heaps, computed for every `m`
//! at once by a real fast Fourier transform (`realfft`) in `O(N log N)`: the
//! whole count costs `O(W N log N)` for any targets, one per question, instead
//! of `O(N^2)`. The transforms run in f64 on ±1 inputs: each `H_s(m)` is a whole
//! number below `N`, read by rounding (a value further than 1/4 from a whole
//! number refuses the count), and each count's sum must be a multiple of `W`
//! (checked). The `W` transforms are shared out among the threads of the
//! current rayon pool, each under the caller's cancellation signal.

use rayon::prelude::*;
use realfft::RealFftPlanner;
use realfft::num_complex::Complex;

use crate::sequence::GrundyValues;
use crate::theory::cancel;
use crate::theory::limits::SearchError;

/// One question: how many ordered pairs of parts `(a, b)`, each at least 1, with
/// `a + b = sum`, have values xoring to `target`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PairQuestion {
    pub(crate) sum: usize,
    pub(crate) target: u32,
}

/// The largest value bound `W` taken: `W` transforms are made, so values of
/// 2^12 and more would cost more than the passes they replace.
const LARGEST_VALUE_BOUND: u32 = 1 << 12;

/// 1.5·2^52: a float of magnitude below 2^51 plus this, minus this, is the float
/// rounded to a whole number.
const ROUNDING: f64 = 6_755_399_441_055_744.0;

/// The transform length for sums up to `largest_sum`: a linear convolution of
/// parts below `largest_sum` needs at least `2·largest_sum - 1` points.
fn transform_length(largest_sum: usize) -> usize {
    (2 * largest_sum.max(1)).next_power_of_two()
}

/// The bytes a count over sums up to `largest_sum` for `questions` questions
/// takes on `threads` threads: each holds a transform's input, spectrum and
/// scratch, and a total per question.
pub(crate) fn bytes_needed(largest_sum: usize, questions: usize, threads: usize) -> u64 {
    let length = transform_length(largest_sum) as u64;
    let per_thread = 8 * length + 16 * (length / 2 + 1) * 2 + 8 * questions as u64;
    per_thread * threads as u64 + 8 * questions as u64
}

/// The transforms a count over values `values` needs: `W`, the power of two
/// above every value of the heaps below `largest_sum` (`None` when it exceeds
/// [`LARGEST_VALUE_BOUND`]).
pub(crate) fn value_bound(values: &GrundyValues, largest_sum: usize) -> Option<u32> {
    let largest = values.iter().take(largest_sum).max().unwrap_or(0);
    let bound = (largest + 1).next_power_of_two();
    (bound <= LARGEST_VALUE_BOUND).then_some(bound)
}

/// The answer to every question (see the module documentation), or `Ok(None)`
/// when the values do not reach the sums asked about, are too large (see
/// [`LARGEST_VALUE_BOUND`]), or the transforms' rounding is in doubt.
///
/// # Errors
/// [`SearchError::Cancelled`] when the caller's signal is raised.
pub(crate) fn ordered_pair_counts(
    values: &GrundyValues,
    questions: &[PairQuestion],
) -> Result<Option<Vec<u64>>, SearchError> {
    let largest_sum = questions.iter().map(|q| q.sum).max().unwrap_or(0);
    if largest_sum > values.len() {
        return Ok(None);
    }
    let Some(bound) = value_bound(values, largest_sum) else {
        return Ok(None);
    };
    // The parts' values, a >= 1 (a part is at most the sum less one).
    let parts: Vec<u32> = values.iter().take(largest_sum).collect();
    let length = transform_length(largest_sum);
    let threads = rayon::current_num_threads().clamp(1, bound as usize);
    let signal = cancel::current();
    let totals = (0..threads)
        .into_par_iter()
        .map(|first| {
            let work = || characters_summed(&parts, questions, length, bound, first, threads);
            cancel::run_under(signal.as_ref(), work)
        })
        .collect::<Result<Vec<_>, _>>()?;
    let Some(totals) = totals.into_iter().collect::<Option<Vec<_>>>() else {
        return Ok(None);
    };
    let mut counts = Vec::with_capacity(questions.len());
    for (index, question) in questions.iter().enumerate() {
        if question.target >= bound {
            // No value, nor xor of two, reaches it.
            counts.push(0);
            continue;
        }
        let sum: i64 = totals.iter().map(|total| total[index]).sum();
        if sum < 0 || sum % i64::from(bound) != 0 {
            return Ok(None);
        }
        counts.push((sum / i64::from(bound)) as u64);
    }
    Ok(Some(counts))
}

/// `Σ_s (-1)^(s·t) H_s(m)` for every question `(m, t)`, over the characters
/// `s = first, first + step, ...` below `bound`; `Ok(None)` when a transform's
/// value is not near a whole number.
fn characters_summed(
    parts: &[u32],
    questions: &[PairQuestion],
    length: usize,
    bound: u32,
    first: usize,
    step: usize,
) -> Result<Option<Vec<i64>>, SearchError> {
    let mut planner = RealFftPlanner::<f64>::new();
    let forward = planner.plan_fft_forward(length);
    let inverse = planner.plan_fft_inverse(length);
    let mut signal = forward.make_input_vec();
    let mut spectrum = forward.make_output_vec();
    let mut scratch =
        vec![Complex::default(); forward.get_scratch_len().max(inverse.get_scratch_len())];
    let mut totals = vec![0i64; questions.len()];
    let scale = 1.0 / length as f64;
    for character in (first..bound as usize).step_by(step) {
        cancel::checkpoint()?;
        let character = character as u32;
        if character == 0 {
            // B_0 is 1 on every part: H_0(m) = m - 1 pairs.
            for (total, question) in totals.iter_mut().zip(questions) {
                *total += question.sum.saturating_sub(1) as i64;
            }
            continue;
        }
        signal.fill(0.0);
        for (point, &value) in signal.iter_mut().zip(parts).skip(1) {
            *point = if (character & value).count_ones().is_multiple_of(2) {
                1.0
            } else {
                -1.0
            };
        }
        if forward
            .process_with_scratch(&mut signal, &mut spectrum, &mut scratch)
            .is_err()
        {
            return Ok(None);
        }
        for point in &mut spectrum {
            *point = *point * *point;
        }
        // The first and last points of a real signal's spectrum are real.
        if let Some(first) = spectrum.first_mut() {
            first.im = 0.0;
        }
        if let Some(last) = spectrum.last_mut() {
            last.im = 0.0;
        }
        if inverse
            .process_with_scratch(&mut spectrum, &mut signal, &mut scratch)
            .is_err()
        {
            return Ok(None);
        }
        let mut doubt = false;
        for (total, question) in totals.iter_mut().zip(questions) {
            let pairs = signal[question.sum] * scale;
            // Rounded to the nearest whole number by adding and taking away 1.5·2^52
            // (exact for |pairs| below 2^51), which vectorises where `round` does not.
            let whole = (pairs + ROUNDING) - ROUNDING;
            doubt |= (pairs - whole).abs() > 0.25;
            let sign = 1 - 2 * i64::from((character & question.target).count_ones() % 2);
            *total += sign * whole as i64;
        }
        if doubt {
            return Ok(None);
        }
    }
    Ok(Some(totals))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn values_of(list: &[u32]) -> GrundyValues {
        let mut values = GrundyValues::new();
        for &value in list {
            values.push(value);
        }
        values
    }

    /// The ordered pairs, by a pass over them.
    fn by_pass(values: &[u32], question: PairQuestion) -> u64 {
        (1..question.sum)
            .filter(|&a| values[a] ^ values[question.sum - a] == question.target)
            .count() as u64
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// The transforms count what a pass over the pairs counts, for random values
        /// and questions (targets beyond every value included).
        #[test]
        fn counts_agree_with_a_pass_over_the_pairs(
            list in proptest::collection::vec(0u32..40, 1..300),
            asked in proptest::collection::vec((0usize..400, 0u32..70), 1..50),
        ) {
            let values = values_of(&list);
            let questions: Vec<PairQuestion> = asked
                .iter()
                .map(|&(sum, target)| PairQuestion { sum: sum % (list.len() + 1), target })
                .collect();
            let counts = ordered_pair_counts(&values, &questions).unwrap().unwrap();
            for (question, count) in questions.iter().zip(counts) {
                prop_assert_eq!(count, by_pass(&list, *question), "{:?}", question);
            }
        }
    }

    #[test]
    fn grundys_game_counts_agree_on_every_heap_and_target() {
        let values =
            crate::sequence::grundy_values(&crate::games::heap::HeapRule::GrundysGame, 3000);
        let list = values.to_vec();
        let questions: Vec<PairQuestion> = (0..list.len())
            .flat_map(|sum| (0..8).map(move |target| PairQuestion { sum, target }))
            .collect();
        let counts = ordered_pair_counts(&values, &questions).unwrap().unwrap();
        for (question, count) in questions.iter().zip(counts) {
            assert_eq!(count, by_pass(&list, *question), "{question:?}");
        }
    }

    #[test]
    fn sums_beyond_the_values_and_huge_values_are_refused() {
        let values = values_of(&[0, 1, 2]);
        let beyond = [PairQuestion { sum: 4, target: 0 }];
        assert_eq!(ordered_pair_counts(&values, &beyond).unwrap(), None);
        let huge = values_of(&[0, 1, LARGEST_VALUE_BOUND]);
        let within = [PairQuestion { sum: 3, target: 0 }];
        assert_eq!(ordered_pair_counts(&huge, &within).unwrap(), None);
    }

    #[test]
    fn a_raised_signal_stops_the_count() {
        let values = values_of(&(0..1000).map(|n| n % 7).collect::<Vec<_>>());
        let questions = [PairQuestion {
            sum: 999,
            target: 3,
        }];
        let signal = cancel::Cancel::new();
        signal.cancel();
        let counted = signal.run(|| ordered_pair_counts(&values, &questions));
        assert!(matches!(counted, Err(SearchError::Cancelled)));
    }
}
