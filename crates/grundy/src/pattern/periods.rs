//! The least period of a sequence by the claim rule, every period measured at once.
//!
//! `G(n + p) = G(n) + s` holds for every `n` from `n0` to the end (`s` read from the
//! last values) exactly when the differences `G(n + 1) - G(n)` agree with those `p`
//! later for every `n` from `n0` on. Reading the differences backwards from the end,
//! their Z-function (`z[p]`: how many differences, from the last one back, agree with
//! those `p` before them) is then, for every period `p` at once, how far back from the
//! end the relation holds, so `n0 = last - p - z[p]`. The Z-function takes linear
//! time; following each period back from the end, as the definition reads, takes time
//! quadratic in the values whenever many periods hold far back (`G(n) = n` but for
//! `G(0)`: the indicator of the P-positions of Nim).

use super::claimed;

/// The values of a sequence with, for each period, how far back from the end the
/// relation of that period holds.
pub(super) struct PeriodSearch<'a> {
    values: &'a [u32],
    /// `agreement[p]`: how many more values than the last `p + 1` the relation
    /// `G(n + p) = G(n) + s` holds on, going back from the end.
    agreement: Vec<usize>,
}

impl<'a> PeriodSearch<'a> {
    /// Measures every period of `values` (linear time).
    pub(super) fn new(values: &'a [u32]) -> Self {
        let backward_differences: Vec<i64> = values
            .windows(2)
            .rev()
            .map(|pair| i64::from(pair[1]) - i64::from(pair[0]))
            .collect();
        PeriodSearch {
            values,
            agreement: z_function(&backward_differences),
        }
    }

    /// The least period by the claim rule, pure (`arithmetic` false) or with a positive
    /// saltus, and its least start: `(from, period, saltus)` in indices.
    pub(super) fn least(&self, arithmetic: bool) -> Option<(usize, usize, u32)> {
        self.least_where(arithmetic, |_, _| true)
    }

    /// [`least`](Self::least) among the relations `(from, period)` that `accept`
    /// takes.
    pub(super) fn least_where(
        &self,
        arithmetic: bool,
        accept: impl Fn(usize, usize) -> bool,
    ) -> Option<(usize, usize, u32)> {
        let g = self.values;
        let len = g.len();
        let last = len.checked_sub(1)?;
        for period in 1..=len / 3 {
            let Some(saltus) = g[last].checked_sub(g[last - period]) else {
                continue;
            };
            if (saltus != 0) != arithmetic {
                continue;
            }
            // The relation holds for every index from `from` on, so the periodic part
            // is `from..len`: `len - from` values, the first `period` of them its base.
            let from = last - period - self.agreement[period];
            if claimed(len, from, period) && accept(from, period) {
                return Some((from, period, saltus));
            }
        }
        None
    }
}

/// The Z-function of `s`: `z[i]` is the length of the longest common prefix of `s`
/// and `s[i..]` (`z[0] = s.len()`), in linear time.
fn z_function<T: PartialEq>(s: &[T]) -> Vec<usize> {
    let n = s.len();
    let mut z = vec![0; n];
    if let Some(first) = z.first_mut() {
        *first = n;
    }
    // `s[left..right]` is the rightmost match of a prefix found so far.
    let (mut left, mut right) = (0, 0);
    for i in 1..n {
        let mut length = if i < right {
            z[i - left].min(right - i)
        } else {
            0
        };
        while i + length < n && s[length] == s[i + length] {
            length += 1;
        }
        z[i] = length;
        if i + length > right {
            (left, right) = (i, i + length);
        }
    }
    z
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The Z-function by its definition.
    fn z_by_definition(s: &[u8]) -> Vec<usize> {
        (0..s.len())
            .map(|i| s[i..].iter().zip(s).take_while(|(a, b)| a == b).count())
            .collect()
    }

    #[test]
    fn z_function_of_small_words() {
        assert_eq!(z_function::<u8>(&[]), Vec::<usize>::new());
        assert_eq!(z_function(b"a"), [1]);
        assert_eq!(z_function(b"aaaa"), [4, 3, 2, 1]);
        assert_eq!(z_function(b"abacaba"), [7, 0, 1, 0, 3, 0, 1]);
    }

    proptest! {
        #[test]
        fn z_function_is_its_definition(s in proptest::collection::vec(0u8..3, 0..200)) {
            prop_assert_eq!(z_function(&s), z_by_definition(&s));
        }
    }
}
