//! Expressions with variables: `wythoff(x, y)`, `bash[3](n) + nim(n)`, for
//! tables over one or two varying integers.
//!
//! The position language has no bare names as values, so a name that is not
//! a game (not followed by `(` or `[`) nor a parameter key (not followed by
//! `=`) can only be a variable. A template records where each variable
//! stands, token by token (never inside a quoted text or a file path), and
//! writes the expression for given values by replacing those places.

use num_bigint::BigInt;

use super::lexer::{Lexer, Token};
use super::{LangError, Span};

/// An expression with named integer variables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Template {
    source: String,
    variables: Vec<String>,
    /// Each place a variable stands: its span and its index in `variables`.
    places: Vec<(Span, usize)>,
}

impl Template {
    /// The template of `source` over `variables` (names such as `x`, `n`).
    ///
    /// # Errors
    /// A lexical error in `source`; a bare name that is not one of
    /// `variables`; a variable that does not occur.
    pub fn new(source: &str, variables: &[&str]) -> Result<Self, LangError> {
        let mut lexer = Lexer::new(source);
        let mut tokens = Vec::new();
        loop {
            let (token, span) = lexer.next_token()?;
            let end = token == Token::End;
            tokens.push((token, span));
            if end {
                break;
            }
        }
        let mut places = Vec::new();
        for (i, (token, span)) in tokens.iter().enumerate() {
            let Token::Name(name) = token else { continue };
            let next = &tokens[i + 1].0;
            if matches!(next, Token::Open | Token::OpenBracket | Token::Equals) {
                continue;
            }
            match variables.iter().position(|v| v == name) {
                Some(index) => places.push((*span, index)),
                None => {
                    let known = variables
                        .iter()
                        .map(|v| format!("`{v}`"))
                        .collect::<Vec<_>>()
                        .join(", ");
                    return Err(LangError::new(
                        format!("`{name}` is not a game (no `(` follows) nor a variable of the table ({known})"),
                        *span,
                    )
                    .with_help(format!("give its values after the expression: `{name}=0..10`")));
                }
            }
        }
        for (index, variable) in variables.iter().enumerate() {
            if !places.iter().any(|&(_, i)| i == index) {
                return Err(LangError::new(
                    format!("the variable `{variable}` does not occur in the expression"),
                    Span::new(0, source.len()),
                )
                .with_help(format!(
                    "write `{variable}` where its value goes, as in `nim({variable})`"
                )));
            }
        }
        Ok(Self {
            source: source.to_owned(),
            variables: variables.iter().map(|&v| v.to_owned()).collect(),
            places,
        })
    }

    /// The variables, in the order [`instantiate`](Self::instantiate) takes
    /// their values.
    #[must_use]
    pub fn variables(&self) -> &[String] {
        &self.variables
    }

    /// The expression with each variable replaced by its value (`values` in the
    /// order of [`variables`](Self::variables)).
    ///
    /// # Panics
    /// When `values` has fewer entries than there are variables.
    #[must_use]
    pub fn instantiate(&self, values: &[BigInt]) -> String {
        let mut out = String::with_capacity(self.source.len() + 8 * self.places.len());
        let mut at = 0;
        for &(span, index) in &self.places {
            out.push_str(&self.source[at..span.start]);
            out.push_str(&values[index].to_string());
            at = span.end;
        }
        out.push_str(&self.source[at..]);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(v: &[i64]) -> Vec<BigInt> {
        v.iter().map(|&v| BigInt::from(v)).collect()
    }

    #[test]
    fn variables_are_replaced_where_they_stand_and_nowhere_else() {
        let template = Template::new("wythoff(x, y) + nim(x)", &["x", "y"]).unwrap();
        assert_eq!(
            template.instantiate(&values(&[3, 17])),
            "wythoff(3, 17) + nim(3)"
        );
        // A parameter key and a game name are not variables; texts are left alone.
        let template = Template::new("bash[n=3](n) + turtles(\"n\")", &["n"]).unwrap();
        assert_eq!(
            template.instantiate(&values(&[7])),
            "bash[n=3](7) + turtles(\"n\")"
        );
        let template = Template::new("script[@x.rhai](x)", &["x"]).unwrap();
        assert_eq!(template.instantiate(&values(&[5])), "script[@x.rhai](5)");
    }

    #[test]
    fn unknown_names_and_unused_variables_are_errors_with_a_place() {
        let error = Template::new("nim(x, z)", &["x"]).unwrap_err();
        assert_eq!(error.span, Span::new(7, 8));
        assert!(error.message.contains("`z`"), "{}", error.message);
        let error = Template::new("nim(x)", &["x", "y"]).unwrap_err();
        assert!(
            error.message.contains("`y` does not occur"),
            "{}",
            error.message
        );
        assert!(Template::new("nim(\"x)", &["x"]).is_err());
    }

    proptest::proptest! {
        /// Fuzz: any text over the language's characters is a template or a
        /// clear error, never a panic; a template's instances replace exactly
        /// the variables' places and keep the rest of the text.
        #[test]
        fn any_text_is_a_template_or_an_error(
            source in "[a-z0-9xy()\\[\\],=+@\". _-]{0,40}",
            value in -1000i64..1000,
        ) {
            if let Ok(template) = Template::new(&source, &["x", "y"]) {
                let text = template.instantiate(&values(&[value, value]));
                let places = template.places.len();
                let digits = value.to_string().len();
                proptest::prop_assert_eq!(text.len(), source.len() + places * digits - places);
                // The instance is read by the position language without a panic.
                let _ = crate::lang::parse(&text);
            }
        }
    }
}
