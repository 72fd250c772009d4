//! How the playground says a failure: its message without `error: `, and
//! any long input it quotes cut to its two ends ([`excerpt`]).

use crate::workflow::Failure;

/// A failure's message without its `error: ` prefix.
pub fn message_of(failure: Failure) -> String {
    let text = failure.message();
    text.strip_prefix("error: ").unwrap_or(&text).to_owned()
}

/// A quoted text (between backticks) longer than this many characters is cut
/// in an error message: its start and end are shown.
const QUOTED_AT_MOST: usize = 80;
/// The most characters of an error message.
const MESSAGE_AT_MOST: usize = 2000;

/// `message` with every quoted text (between backticks) longer than 80
/// characters cut to its start and end (`nim(1,1,...,1)` of 60,000
/// characters is quoted as its first 50 and last 20, and its length), as is
/// every run of more than 200 characters without a space, and the whole cut
/// at 2,000 characters: an error quotes what it is about, not a 65 KB input
/// twice.
pub fn excerpt(message: &str) -> String {
    let pieces: Vec<&str> = message.split('`').collect();
    let mut out = String::with_capacity(message.len().min(MESSAGE_AT_MOST + 100));
    for (i, piece) in pieces.iter().enumerate() {
        // Odd pieces stand between backticks (the last one may lack its closing one).
        if i % 2 == 0 {
            push_cutting_long_words(&mut out, piece);
            continue;
        }
        let closed = i + 1 < pieces.len();
        let length = piece.chars().count();
        out.push('`');
        if length > QUOTED_AT_MOST {
            push_ends(&mut out, piece, length);
        } else {
            out.push_str(piece);
        }
        if closed {
            out.push('`');
        }
        if length > QUOTED_AT_MOST {
            out.push_str(&format!(" ({length} characters)"));
        }
    }
    let length = out.chars().count();
    if length > MESSAGE_AT_MOST {
        let mut cut: String = out.chars().take(MESSAGE_AT_MOST).collect();
        cut.push_str(&format!(
            "... ({} more characters)",
            length - MESSAGE_AT_MOST
        ));
        return cut;
    }
    out
}

/// Appends the first 50 and the last 20 characters of `text` (of `length`
/// characters), joined by `...`.
fn push_ends(out: &mut String, text: &str, length: usize) {
    out.extend(text.chars().take(50));
    out.push_str("...");
    out.extend(text.chars().skip(length - 20));
}

/// A run of characters without a space longer than this is cut in an error
/// message: longer than the parser's excerpt of a line (at most about 100
/// characters, with its caret below, which a cut would misalign).
const WORD_AT_MOST: usize = 200;

/// Appends `text` to `out`, each run of more than [`WORD_AT_MOST`]
/// characters without a space (an input quoted without backticks, as a
/// script's error does) cut as [`excerpt`] cuts a quoted text.
fn push_cutting_long_words(out: &mut String, text: &str) {
    let mut word = String::new();
    let flush = |out: &mut String, word: &mut String| {
        let length = word.chars().count();
        if length > WORD_AT_MOST {
            push_ends(out, word, length);
            out.push_str(&format!(" ({length} characters)"));
        } else {
            out.push_str(word);
        }
        word.clear();
    };
    for c in text.chars() {
        if c.is_whitespace() {
            flush(out, &mut word);
            out.push(c);
        } else {
            word.push(c);
        }
    }
    flush(out, &mut word);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_messages_quote_long_inputs_by_an_excerpt() {
        let long = "a".repeat(60_000);
        let message = excerpt(&format!("unknown game `{long}` here"));
        assert_eq!(
            message,
            format!(
                "unknown game `{}...{}` (60000 characters) here",
                "a".repeat(50),
                "a".repeat(20)
            )
        );
        // Short quotes, an unclosed quote and multibyte characters.
        assert_eq!(excerpt("found `x` at `y`"), "found `x` at `y`");
        let unclosed = excerpt(&format!("bad `{}", "é".repeat(100)));
        assert!(unclosed.starts_with("bad `é") && unclosed.ends_with(" (100 characters)"));
        let words = excerpt(&format!("Undefined variable: {}", "b".repeat(5000)));
        assert_eq!(
            words,
            format!(
                "Undefined variable: {}...{} (5000 characters)",
                "b".repeat(50),
                "b".repeat(20)
            )
        );
        let long_message = "word ".repeat(1000);
        assert!(excerpt(&long_message).ends_with("... (3000 more characters)"));
    }
}
