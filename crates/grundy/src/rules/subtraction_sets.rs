//! Subtraction games: a move removes a number of tokens from one heap, taken from a
//! finite set `S` (finite subtraction games), or any positive number except those in
//! a finite set `E` (all-but subtraction games; `E` empty is Nim).
//!
//! Theory. A finite subtraction game is eventually periodic: the value of heap `n`
//! depends only on the `max(S)` values before it, so once a window of `max(S)`
//! consecutive values repeats, the sequence repeats for ever (pigeonhole; Winning Ways,
//! chapter 4). All-but subtraction games are conjectured, and in many cases proven, to
//! be arithmetic-periodic (A. A. Siegel, *Finite excluded subtraction sets and infinite
//! geography*, 2005); `grundy` reports their regularity as observed, proven only for
//! Nim itself (`E` empty, `G(n) = n`).

use std::fmt;

/// Why a subtraction set was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SubtractionError {
    /// A finite subtraction set must allow at least one move.
    #[error("empty subtraction set: give at least one positive number")]
    Empty,
    /// Removing zero tokens is not a move.
    #[error("0 is not a valid number of tokens to remove: numbers must be positive")]
    Zero,
}

/// A finite subtraction set `S`: a move removes `s` tokens for some `s` in `S`.
///
/// ```
/// use grundy::rules::subtraction_sets::SubtractionSet;
/// let set = SubtractionSet::new([4, 1, 3, 3]).unwrap();
/// assert_eq!(set.elements(), &[1, 3, 4]);
/// assert_eq!(set.to_string(), "1,3,4");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SubtractionSet {
    elements: Vec<u32>,
}

impl SubtractionSet {
    /// Builds the set; order and repetitions do not matter.
    pub fn new(elements: impl IntoIterator<Item = u32>) -> Result<Self, SubtractionError> {
        let mut elements: Vec<u32> = elements.into_iter().collect();
        elements.sort_unstable();
        elements.dedup();
        match elements.first() {
            None => Err(SubtractionError::Empty),
            Some(0) => Err(SubtractionError::Zero),
            Some(_) => Ok(Self { elements }),
        }
    }

    /// The elements in increasing order.
    pub fn elements(&self) -> &[u32] {
        &self.elements
    }

    /// The largest element.
    pub fn max(&self) -> u32 {
        self.elements.last().copied().unwrap_or(0)
    }

    /// True when removing `tokens` is allowed.
    pub fn contains(&self, tokens: u64) -> bool {
        u32::try_from(tokens).is_ok_and(|t| self.elements.binary_search(&t).is_ok())
    }
}

impl fmt::Display for SubtractionSet {
    /// The elements, comma separated, in increasing order.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_list(f, &self.elements)
    }
}

/// An all-but subtraction game: a move removes any positive number of tokens except
/// those in a finite excluded set `E`.
///
/// ```
/// use grundy::rules::subtraction_sets::AllButSubtraction;
/// let game = AllButSubtraction::new([2, 5]).unwrap();
/// assert!(game.allows(3) && !game.allows(2));
/// assert!(AllButSubtraction::new([]).unwrap().is_nim());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AllButSubtraction {
    excluded: Vec<u32>,
}

impl AllButSubtraction {
    /// Builds the game from the excluded numbers (possibly none: that is Nim).
    pub fn new(excluded: impl IntoIterator<Item = u32>) -> Result<Self, SubtractionError> {
        let mut excluded: Vec<u32> = excluded.into_iter().collect();
        excluded.sort_unstable();
        excluded.dedup();
        if excluded.first() == Some(&0) {
            return Err(SubtractionError::Zero);
        }
        Ok(Self { excluded })
    }

    /// The excluded numbers in increasing order.
    pub fn excluded(&self) -> &[u32] {
        &self.excluded
    }

    /// True when removing `tokens` (at least 1) is allowed.
    pub fn allows(&self, tokens: u64) -> bool {
        tokens >= 1
            && u32::try_from(tokens).map_or(true, |t| self.excluded.binary_search(&t).is_err())
    }

    /// True when nothing is excluded: the game is Nim.
    pub fn is_nim(&self) -> bool {
        self.excluded.is_empty()
    }
}

impl fmt::Display for AllButSubtraction {
    /// The excluded numbers, comma separated, in increasing order.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_list(f, &self.excluded)
    }
}

fn write_list(f: &mut fmt::Formatter<'_>, elements: &[u32]) -> fmt::Result {
    for (i, e) in elements.iter().enumerate() {
        if i > 0 {
            f.write_str(",")?;
        }
        write!(f, "{e}")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subtraction_set_is_validated_and_normalised() {
        assert_eq!(SubtractionSet::new([]), Err(SubtractionError::Empty));
        assert_eq!(SubtractionSet::new([0, 2]), Err(SubtractionError::Zero));
        let set = SubtractionSet::new([7, 1, 2, 3, 3]).unwrap();
        assert_eq!(set.elements(), &[1, 2, 3, 7]);
        assert_eq!(set.max(), 7);
        assert!(set.contains(7) && !set.contains(4) && !set.contains(u64::MAX));
        assert_eq!(set.to_string(), "1,2,3,7");
    }

    #[test]
    fn all_but_is_validated() {
        assert_eq!(AllButSubtraction::new([0]), Err(SubtractionError::Zero));
        let game = AllButSubtraction::new([3, 1]).unwrap();
        assert_eq!(game.excluded(), &[1, 3]);
        assert!(!game.allows(0) && !game.allows(1) && game.allows(2) && !game.allows(3));
        assert!(game.allows(u64::MAX));
        assert_eq!(game.to_string(), "1,3");
    }
}
