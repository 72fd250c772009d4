//! Take-and-break games given by an octal or hexadecimal code (Winning Ways, chapter 4).
//!
//! A code `d0.d1d2...dk` lists, for every number `j` of tokens, which moves remove
//! exactly `j` tokens from one heap. Digit `dj` is a sum of bits:
//!
//! | bit | the move may leave |
//! |---|---|
//! | 1 | no heap at all (only when the heap had exactly `j` tokens) |
//! | 2 | one non-empty heap |
//! | 4 | two non-empty heaps |
//! | 8 | three non-empty heaps (hexadecimal digits `8`..`F`) |
//!
//! `d0` describes moves that remove nothing: only the splitting bits 4 and 8 make sense
//! there (removing nothing and leaving one heap would not change the position), so `d0`
//! is one of `0`, `4`, `8`, `C`. Examples: Kayles `0.77`, Dawson's Kayles `0.07`,
//! Officers `0.6`, `4.07` (Dawson's Kayles with free splitting).

use std::fmt;
use std::str::FromStr;

/// Why an octal or hexadecimal code was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CodeError {
    /// The text was empty.
    #[error("empty code: expected d0.d1d2... such as 0.77")]
    Empty,
    /// There was no `.` separating `d0` from the other digits.
    #[error("missing '.': a code is written d0.d1d2... such as 0.77")]
    MissingPoint,
    /// Nothing followed the point.
    #[error("no digit after '.': a code is written d0.d1d2... such as 0.77")]
    NoDigits,
    /// A character that is no hexadecimal digit.
    #[error("invalid character {character:?} at position {position}: digits are 0-9 and A-F")]
    InvalidCharacter {
        /// The offending character.
        character: char,
        /// Its position in the text, counting characters from 0.
        position: usize,
    },
    /// `d0` allows a move that removes nothing and leaves zero or one heap.
    #[error(
        "invalid digit {digit:?} before the point (position {position}): removing no token is a move \
         only when it splits the heap, so d0 must be 0, 4, 8 or C"
    )]
    InvalidZerothDigit {
        /// The offending digit.
        digit: char,
        /// Its position in the text.
        position: usize,
    },
    /// More than one digit stands before the point.
    #[error("more than one digit before the point (position {position}): d0 is a single digit")]
    LongZerothDigit {
        /// Position of the second digit.
        position: usize,
    },
    /// The code has more digits than the engine supports.
    #[error("code too long: {digits} digits after the point, at most {max} are supported")]
    TooLong {
        /// Digits after the point.
        digits: usize,
        /// The supported maximum.
        max: usize,
    },
}

/// A take-and-break game given by an octal or hexadecimal code, e.g. `0.77` (Kayles).
///
/// ```
/// use grundy::rules::octal::TakeAndBreak;
/// let kayles: TakeAndBreak = "0.77".parse().unwrap();
/// assert_eq!(kayles.to_string(), "0.77");
/// assert!(kayles.is_octal());
/// assert_eq!(kayles.max_removed(), 2);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TakeAndBreak {
    /// `digits[j]` is the digit for removing `j` tokens; trailing zeros are trimmed,
    /// so the last entry is non-zero unless the code is `0.0`.
    digits: Vec<u8>,
}

/// Bit of a digit: the move may leave no heap.
pub(crate) const LEAVE_NONE: u8 = 1;
/// Bit of a digit: the move may leave one heap.
pub(crate) const LEAVE_ONE: u8 = 2;
/// Bit of a digit: the move may leave two heaps.
pub(crate) const LEAVE_TWO: u8 = 4;
/// Bit of a digit: the move may leave three heaps.
pub(crate) const LEAVE_THREE: u8 = 8;

impl TakeAndBreak {
    /// The longest code accepted (digits after the point).
    pub const MAX_DIGITS: usize = 4096;

    /// Builds a code from its digits, `digits[0]` being `d0`. Validates like parsing does.
    pub fn from_digits(digits: &[u8]) -> Result<Self, CodeError> {
        let text = digits_to_text(digits);
        text.parse()
    }

    /// The digit for removing `tokens` tokens (0 past the end of the code).
    pub fn digit(&self, tokens: usize) -> u8 {
        self.digits.get(tokens).copied().unwrap_or(0)
    }

    /// All digits, `d0` first, with trailing zeros trimmed.
    pub fn digits(&self) -> &[u8] {
        &self.digits
    }

    /// The largest number of tokens a move removes (`k` for the code `d0.d1...dk`).
    pub fn max_removed(&self) -> usize {
        self.digits.len().saturating_sub(1)
    }

    /// True when no digit allows leaving three heaps (all digits are 0..=7).
    pub fn is_octal(&self) -> bool {
        self.digits.iter().all(|d| d & LEAVE_THREE == 0)
    }

    /// Whether a move may remove `removed` tokens and leave `heaps` non-empty heaps
    /// (1 to 3; removing nothing must split the heap).
    pub(crate) fn allows_leaving(&self, removed: usize, heaps: usize) -> bool {
        let bit = match heaps {
            1 => LEAVE_ONE,
            2 => LEAVE_TWO,
            3 => LEAVE_THREE,
            _ => return false,
        };
        self.digit(removed) & bit != 0 && !(removed == 0 && heaps == 1)
    }

    /// The largest number of heaps one move can leave (0 to 3).
    pub fn max_heaps_left(&self) -> usize {
        let all = self.digits.iter().fold(0u8, |acc, d| acc | d);
        if all & LEAVE_THREE != 0 {
            3
        } else if all & LEAVE_TWO != 0 {
            2
        } else if all & LEAVE_ONE != 0 {
            1
        } else {
            0
        }
    }
}

fn digits_to_text(digits: &[u8]) -> String {
    let hex = |d: u8| char::from_digit(u32::from(d), 16).map_or('?', |c| c.to_ascii_uppercase());
    let mut text = String::new();
    text.push(digits.first().map_or('0', |&d| hex(d)));
    text.push('.');
    if digits.len() <= 1 {
        text.push('0');
    }
    for &d in digits.iter().skip(1) {
        text.push(hex(d));
    }
    text
}

impl FromStr for TakeAndBreak {
    type Err = CodeError;

    /// Parses `d0.d1...dk`; `.d1...dk` is read as `0.d1...dk`. Digits `a`-`f` may be
    /// lower case. Trailing zeros are dropped (`0.770` is `0.77`).
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        if text.is_empty() {
            return Err(CodeError::Empty);
        }
        let chars: Vec<char> = text.chars().collect();
        let point = chars.iter().position(|&c| c == '.').ok_or_else(|| {
            // Report a bad character before the missing point: it is the more useful error.
            match chars.iter().position(|c| !c.is_ascii_hexdigit()) {
                Some(position) => CodeError::InvalidCharacter {
                    character: chars[position],
                    position,
                },
                None => CodeError::MissingPoint,
            }
        })?;
        if point > 1 {
            if let Some(position) = chars[..point].iter().position(|c| !c.is_ascii_hexdigit()) {
                return Err(CodeError::InvalidCharacter {
                    character: chars[position],
                    position,
                });
            }
            return Err(CodeError::LongZerothDigit { position: 1 });
        }
        let mut digits = Vec::with_capacity(chars.len());
        if point == 1 {
            let c = chars[0];
            let d = c.to_digit(16).ok_or(CodeError::InvalidCharacter {
                character: c,
                position: 0,
            })?;
            if d & u32::from(LEAVE_NONE | LEAVE_ONE) != 0 {
                return Err(CodeError::InvalidZerothDigit {
                    digit: c,
                    position: 0,
                });
            }
            digits.push(d as u8);
        } else {
            digits.push(0);
        }
        if point + 1 == chars.len() {
            return Err(CodeError::NoDigits);
        }
        for (position, &c) in chars.iter().enumerate().skip(point + 1) {
            let d = c.to_digit(16).ok_or(CodeError::InvalidCharacter {
                character: c,
                position,
            })?;
            digits.push(d as u8);
        }
        if digits.len() - 1 > Self::MAX_DIGITS {
            return Err(CodeError::TooLong {
                digits: digits.len() - 1,
                max: Self::MAX_DIGITS,
            });
        }
        while digits.len() > 1 && digits.last() == Some(&0) {
            digits.pop();
        }
        Ok(Self { digits })
    }
}

impl fmt::Display for TakeAndBreak {
    /// The canonical code: `d0` always written, upper-case hexadecimal digits, no
    /// trailing zeros (`0.0` for the game without moves).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&digits_to_text(&self.digits))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_displays_canonically() {
        for (text, canonical) in [
            ("0.77", "0.77"),
            ("0.07", "0.07"),
            ("0.137", "0.137"),
            ("0.6", "0.6"),
            ("0.16", "0.16"),
            ("4.07", "4.07"),
            ("0.3F", "0.3F"),
            ("0.3f", "0.3F"),
            (".77", "0.77"),
            ("0.770", "0.77"),
            ("0.0", "0.0"),
            ("C.1", "C.1"),
        ] {
            let code: TakeAndBreak = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(code.to_string(), canonical, "{text}");
            assert_eq!(code.to_string().parse::<TakeAndBreak>().unwrap(), code);
        }
    }

    #[test]
    fn digits_and_properties() {
        let code: TakeAndBreak = "4.07".parse().unwrap();
        assert_eq!(code.digits(), &[4, 0, 7]);
        assert_eq!(code.max_removed(), 2);
        assert_eq!(code.digit(5), 0);
        assert!(code.is_octal());
        assert_eq!(code.max_heaps_left(), 2);
        let hex: TakeAndBreak = "0.3F".parse().unwrap();
        assert!(!hex.is_octal());
        assert_eq!(hex.max_heaps_left(), 3);
        assert_eq!(
            TakeAndBreak::from_digits(&[0, 7, 7]).unwrap().to_string(),
            "0.77"
        );
    }

    #[test]
    fn rejects_invalid_codes_with_position() {
        assert_eq!("".parse::<TakeAndBreak>(), Err(CodeError::Empty));
        assert_eq!("077".parse::<TakeAndBreak>(), Err(CodeError::MissingPoint));
        assert_eq!("0.".parse::<TakeAndBreak>(), Err(CodeError::NoDigits));
        assert_eq!(
            "0.7G".parse::<TakeAndBreak>(),
            Err(CodeError::InvalidCharacter {
                character: 'G',
                position: 3
            })
        );
        assert_eq!(
            "0.7.7".parse::<TakeAndBreak>(),
            Err(CodeError::InvalidCharacter {
                character: '.',
                position: 3
            })
        );
        assert_eq!(
            "3.07".parse::<TakeAndBreak>(),
            Err(CodeError::InvalidZerothDigit {
                digit: '3',
                position: 0
            })
        );
        assert_eq!(
            "1.07".parse::<TakeAndBreak>(),
            Err(CodeError::InvalidZerothDigit {
                digit: '1',
                position: 0
            })
        );
        assert_eq!(
            "04.07".parse::<TakeAndBreak>(),
            Err(CodeError::LongZerothDigit { position: 1 })
        );
        assert_eq!(
            "x.07".parse::<TakeAndBreak>(),
            Err(CodeError::InvalidCharacter {
                character: 'x',
                position: 0
            })
        );
        assert_eq!(
            "0,7".parse::<TakeAndBreak>(),
            Err(CodeError::InvalidCharacter {
                character: ',',
                position: 1
            })
        );
        let long = format!("0.{}", "7".repeat(TakeAndBreak::MAX_DIGITS + 1));
        assert!(matches!(
            long.parse::<TakeAndBreak>(),
            Err(CodeError::TooLong { .. })
        ));
        let message = "0.7G".parse::<TakeAndBreak>().unwrap_err().to_string();
        assert!(
            message.contains("'G'") && message.contains("position 3"),
            "{message}"
        );
    }
}
