//! The position language of the command-line contract (`docs/CONTRACT.md`).
//!
//! ```text
//! sum    := term ( '+' term )*
//! term   := NAME [ '[' param ( ',' param )* ']' ] '(' [ arg ( ',' arg )* ] ')'
//! param  := KEY '=' value | value
//! arg    := value | sum
//! value  := INTEGER | INTEGER '..' INTEGER | CODE | '"' text '"' | '@' PATH | '[' value, ... ']'
//! ```
//!
//! Parsing gives a syntax tree ([`Sum`]) whose every node remembers where it
//! stands in the source ([`Span`]), so that errors found later, by a game that
//! rejects a parameter, still point at the right column. Printing a tree gives
//! text that parses back to the same tree.
//!
//! ```
//! use grundy::lang::parse;
//!
//! let sum = parse("nim(3,5 ,7)+bash[m=3](10)").unwrap();
//! assert_eq!(sum.to_string(), "nim(3, 5, 7) + bash[m=3](10)");
//! assert_eq!(parse(&sum.to_string()).unwrap(), sum);
//!
//! let error = parse("nim(3,,5)").unwrap_err();
//! assert_eq!(error.span.start, 6); // the second comma
//! ```

pub(crate) mod arguments;
mod lexer;
mod parser;
mod syntax;
mod template;

pub use arguments::take_standard_input;
pub use parser::{DEFAULT_MAX_DIGITS, parse, parse_with_limits};
pub use syntax::{Param, Span, Sum, Term, Value, ValueKind};
pub use template::Template;

use crate::theory::limits::Limit;

/// A mistake in a position, with the place it was found.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct LangError {
    /// What is wrong, in words.
    pub message: String,
    /// Where in the source text.
    pub span: Span,
    /// A hint on how to fix it, if there is one.
    pub help: Option<String>,
    /// The size limit the input broke, when it broke one rather than a rule of
    /// the language (the command line exits 3 instead of 2 then, naming the flag
    /// that raises it).
    pub limit: Option<Limit>,
    /// Whether the work was stopped (its deadline passed, or its caller
    /// cancelled it) while the position was being built: no mistake in the
    /// input, and no answer either. Front ends treat it as
    /// [`SearchError::Cancelled`](crate::theory::limits::SearchError::Cancelled),
    /// never by reading the message.
    pub cancelled: bool,
}

impl LangError {
    /// An error at `span`.
    pub fn new(message: impl Into<String>, span: Span) -> Self {
        Self {
            message: message.into(),
            span,
            help: None,
            limit: None,
            cancelled: false,
        }
    }

    /// The error of a position whose building was stopped at `span` (see
    /// [`LangError::cancelled`]), with the message of
    /// [`SearchError::Cancelled`](crate::theory::limits::SearchError::Cancelled).
    #[must_use]
    pub fn stopped(span: Span) -> Self {
        Self {
            cancelled: true,
            ..Self::new(
                crate::theory::limits::SearchError::Cancelled.to_string(),
                span,
            )
        }
    }

    /// The same error with a hint.
    #[must_use]
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// The same error, marked as having broken `limit`.
    #[must_use]
    pub const fn as_limit(mut self, limit: Limit) -> Self {
        self.limit = Some(limit);
        self
    }

    /// Renders the error for a person: the message, the source line with a caret
    /// under the offending text, and the hint. `source` is the parsed text.
    #[must_use]
    pub fn render(&self, source: &str) -> String {
        let (line_number, column, line) = locate(source, self.span.start);
        let width = source[self.span.start.min(source.len())..self.span.end.min(source.len())]
            .chars()
            .count()
            .max(1);
        let mut out = String::new();
        let multiline = source.contains('\n');
        if multiline {
            out.push_str(&format!(
                "error: {} (line {line_number}, column {column})\n",
                self.message
            ));
        } else {
            out.push_str(&format!("error: {} (column {column})\n", self.message));
        }
        // Long lines (a million heaps, an integer of 10^5 digits) are cut around the
        // error: some context before it, the start of the text marked, a little after.
        let chars: Vec<char> = line.chars().collect();
        let at = (column - 1).min(chars.len());
        let marked = width.min(MARKED_AT_MOST);
        let from = at.saturating_sub(CONTEXT_BEFORE);
        let after = if width > MARKED_AT_MOST {
            0
        } else {
            CONTEXT_AFTER
        };
        let to = (at + marked + after).min(chars.len());
        let shown: String = chars[from..to].iter().collect();
        let prefix = if from > 0 { "..." } else { "" };
        let suffix = if to < chars.len() { "..." } else { "" };
        out.push_str(&format!("  {prefix}{shown}{suffix}\n"));
        let pad = prefix.len() + (at - from);
        let carets = marked.min(to.saturating_sub(at)).max(1);
        let cut = if width > carets { "..." } else { "" };
        out.push_str(&format!("  {}{}{cut}", " ".repeat(pad), "^".repeat(carets)));
        if let Some(help) = &self.help {
            out.push_str(&format!("\nhelp: {help}"));
        }
        out
    }
}

/// Characters of the source shown before the error's column when a line is cut.
const CONTEXT_BEFORE: usize = 30;
/// Characters of the erroneous text shown and marked, at most (the rest is `...`).
const MARKED_AT_MOST: usize = 40;
/// Characters shown after the erroneous text when it is shown whole.
const CONTEXT_AFTER: usize = 20;

/// The 1-based line number, 1-based column (in characters) and text of the line
/// holding byte `offset` of `source`.
fn locate(source: &str, offset: usize) -> (usize, usize, &str) {
    let offset = offset.min(source.len());
    let line_start = source[..offset].rfind('\n').map_or(0, |i| i + 1);
    let line_end = source[offset..]
        .find('\n')
        .map_or(source.len(), |i| offset + i);
    let line_number = source[..line_start].matches('\n').count() + 1;
    let column = source[line_start..offset].chars().count() + 1;
    (line_number, column, &source[line_start..line_end])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn render_points_a_caret_at_the_column() {
        let source = "nim(3, )";
        let error = parse(source).unwrap_err();
        assert_eq!(
            error.render(source),
            "error: expected a value (an integer, a code, \"text\", @file or [list]), found `)` (column 8)\n  nim(3, )\n         ^"
        );
    }

    #[test]
    fn render_cuts_a_long_source_around_the_error_and_keeps_the_column() {
        let digits = "1".repeat(100_001);
        let source = format!("nim(3, 5) + bash[3](2, {digits})");
        let error = parse_with_limits(&source, 100_000).unwrap_err();
        let rendered = error.render(&source);
        assert!(rendered.len() < 400, "{} bytes", rendered.len());
        assert!(rendered.contains("(column 24)"), "{rendered}");
        let lines: Vec<&str> = rendered.lines().collect();
        assert_eq!(
            lines[1],
            format!("  nim(3, 5) + bash[3](2, {}...", &digits[..40])
        );
        assert_eq!(
            lines[2],
            format!("  {}{}...", " ".repeat(23), "^".repeat(40))
        );
        // An error far into a long line: context either side, the column exact.
        let source = format!("nim({}) + nim(1)", "7, ".repeat(1000));
        let error = parse(&source).unwrap_err();
        let rendered = error.render(&source);
        assert!(rendered.contains("(column 3005)"), "{rendered}");
        let lines: Vec<&str> = rendered.lines().collect();
        assert_eq!(
            lines[1],
            format!("  ...{}) + nim(1)", &"7, ".repeat(10)),
            "{rendered}"
        );
        let caret = lines[2].find('^').unwrap();
        assert_eq!(&lines[1][caret..=caret], ")", "{rendered}");
        assert_eq!(lines[2].len(), caret + 1, "{rendered}");
    }

    #[test]
    fn render_names_the_line_of_a_multiline_source() {
        let source = "nim(3,\n 5,\n 7))";
        let error = parse(source).unwrap_err();
        let rendered = error.render(source);
        assert!(
            rendered.starts_with("error: unexpected `)` after the position (line 3, column 4)"),
            "{rendered}"
        );
    }
}
