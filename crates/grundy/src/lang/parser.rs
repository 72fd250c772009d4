//! A recursive-descent parser over the token stream. Nesting depth is bounded,
//! so hostile input cannot overflow the stack.

use num_bigint::{BigInt, BigUint};

use super::LangError;
use super::lexer::{Lexer, Token};
use super::syntax::{Param, Span, Sum, Term, Value, ValueKind};
use crate::theory::limits::Limit;

/// The deepest nesting of brackets and parentheses accepted.
const MAX_DEPTH: usize = 64;

/// The longest integer accepted by [`parse`], in decimal digits.
pub const DEFAULT_MAX_DIGITS: usize = 100_000;

/// Parses a sum of terms with the default limits.
///
/// # Errors
/// A [`LangError`] pointing at the first mistake.
pub fn parse(source: &str) -> Result<Sum, LangError> {
    parse_with_limits(source, DEFAULT_MAX_DIGITS)
}

/// Parses a sum of terms, accepting integers of at most `max_digits` digits
/// (converting a decimal integer takes time quadratic in its length).
///
/// # Errors
/// A [`LangError`] pointing at the first mistake; an integer over the limit gives
/// one marked [as a limit](LangError::limit).
pub fn parse_with_limits(source: &str, max_digits: usize) -> Result<Sum, LangError> {
    let mut parser = Parser::new(source, max_digits)?;
    let sum = parser.sum(0)?;
    match &parser.token {
        Token::End => Ok(sum),
        Token::Close | Token::CloseBracket => Err(LangError::new(
            format!("unexpected {} after the position", parser.token.describe()),
            parser.span,
        )
        .with_help("the brackets are not balanced")),
        other => Err(LangError::new(
            format!("expected `+` or the end, found {}", other.describe()),
            parser.span,
        )
        .with_help("terms of a sum are joined with `+`")),
    }
}

struct Parser<'s> {
    lexer: Lexer<'s>,
    token: Token,
    span: Span,
    max_digits: usize,
    /// The terms whose arguments are being read, innermost last: where each one's
    /// name starts and its `(` ends (for the errors' examples).
    enclosing: Vec<Span>,
}

impl<'s> Parser<'s> {
    fn new(source: &'s str, max_digits: usize) -> Result<Self, LangError> {
        let mut lexer = Lexer::new(source);
        let (token, span) = lexer.next_token()?;
        Ok(Self {
            lexer,
            token,
            span,
            max_digits,
            enclosing: Vec::new(),
        })
    }

    fn advance(&mut self) -> Result<(Token, Span), LangError> {
        let (token, span) = self.lexer.next_token()?;
        let previous = std::mem::replace(&mut self.token, token);
        let previous_span = std::mem::replace(&mut self.span, span);
        Ok((previous, previous_span))
    }

    fn expect(&mut self, wanted: &Token, what: &str) -> Result<Span, LangError> {
        if &self.token == wanted {
            Ok(self.advance()?.1)
        } else {
            Err(LangError::new(
                format!("expected {what}, found {}", self.token.describe()),
                self.span,
            ))
        }
    }

    fn check_depth(&self, depth: usize) -> Result<(), LangError> {
        if depth > MAX_DEPTH {
            Err(LangError::new(
                format!("nesting deeper than {MAX_DEPTH} levels"),
                self.span,
            ))
        } else {
            Ok(())
        }
    }

    fn sum(&mut self, depth: usize) -> Result<Sum, LangError> {
        self.check_depth(depth)?;
        let mut terms = vec![self.term(depth)?];
        while self.token == Token::Plus {
            self.advance()?;
            terms.push(self.term(depth)?);
        }
        let span = terms[0].span.to(terms[terms.len() - 1].span);
        Ok(Sum { terms, span })
    }

    fn term(&mut self, depth: usize) -> Result<Term, LangError> {
        let (name, name_span) = match &self.token {
            Token::Name(name) => (name.clone(), self.span),
            Token::End => {
                return Err(
                    LangError::new("expected a game, found nothing", self.span).with_help(
                        "write a position such as `nim(3, 5, 7)`; `grundy games` lists the games",
                    ),
                );
            }
            other => {
                return Err(LangError::new(
                    format!("expected a game name, found {}", other.describe()),
                    self.span,
                )
                .with_help("a position is a game name with arguments, such as `nim(3, 5, 7)`"));
            }
        };
        self.advance()?;
        let mut params = Vec::new();
        let has_brackets = self.token == Token::OpenBracket;
        if has_brackets {
            self.advance()?;
            if self.token != Token::CloseBracket {
                loop {
                    params.push(self.param(depth + 1)?);
                    if self.token == Token::Comma {
                        self.advance()?;
                    } else {
                        break;
                    }
                }
            }
            self.expect(&Token::CloseBracket, "`,` or `]` after a parameter")?;
        }
        if self.token != Token::Open {
            return Err(LangError::new(
                format!(
                    "expected `(` after `{name}`, found {}",
                    self.token.describe()
                ),
                self.span,
            )
            .with_help(self.help_without_arguments(&name, has_brackets)));
        }
        self.enclosing.push(name_span.to(self.span));
        self.advance()?;
        let mut args = Vec::new();
        if self.token != Token::Close {
            loop {
                args.push(self.value(depth + 1)?);
                if self.token == Token::Comma {
                    self.advance()?;
                } else {
                    break;
                }
            }
        }
        self.enclosing.pop();
        let close = self.expect(&Token::Close, "`,` or `)` after an argument")?;
        Ok(Term {
            name,
            name_span,
            params,
            has_brackets,
            args,
            span: name_span.to(close),
        })
    }

    /// The hint for a name not followed by `(`: two words meant as one name
    /// (`dawson kayles`), a variable where a position needs a number
    /// (`sub[1, 3, 4](n)`), or a game written without its arguments.
    fn help_without_arguments(&self, name: &str, has_brackets: bool) -> String {
        let source = self.lexer_source();
        if let Token::Name(next) = &self.token
            && !has_brackets
        {
            return format!("names join their words with `_`: did you mean `{name}_{next}`?");
        }
        let in_argument = matches!(
            self.token,
            Token::Close | Token::Comma | Token::CloseBracket | Token::End
        );
        if let (Some(head), true) = (self.enclosing.last(), in_argument && !has_brackets) {
            let head = &source[head.start..head.end];
            let wraps_a_sum = ["misere(", "every(", "rounds"]
                .iter()
                .any(|wrapper| head.starts_with(wrapper));
            if !wraps_a_sum {
                let example = if head.chars().count() <= 60 {
                    format!(", such as `{head}10)`")
                } else {
                    String::new()
                };
                let table = if source.chars().count() <= 80 && !source.contains(['\n', '\'']) {
                    format!("grundy table '{}' {name}=0..20", source.trim())
                } else {
                    format!("grundy table EXPR {name}=0..20")
                };
                return format!(
                    "`{name}` is not a number: a position needs numbers{example}; to let `{name}` vary, use `{table}`"
                );
            }
        }
        format!("a position needs its arguments, such as `{name}(3)`")
    }

    fn param(&mut self, depth: usize) -> Result<Param, LangError> {
        if let Token::Name(key) = &self.token {
            let key = (key.clone(), self.span);
            let (token, _) = self.lexer_peek()?;
            if token == Token::Equals {
                self.advance()?;
                self.advance()?;
                let value = self.value(depth)?;
                return Ok(Param {
                    key: Some(key),
                    value,
                });
            }
        }
        Ok(Param {
            key: None,
            value: self.value(depth)?,
        })
    }

    /// The token after the current one, without consuming anything.
    fn lexer_peek(&self) -> Result<(Token, Span), LangError> {
        let mut copy = Lexer::new(self.lexer_source());
        copy.seek(self.lexer_position());
        copy.next_token()
    }

    fn lexer_source(&self) -> &'s str {
        self.lexer.source()
    }

    const fn lexer_position(&self) -> usize {
        self.lexer.position()
    }

    fn integer(&self, digits: &str, span: Span) -> Result<BigInt, LangError> {
        let length = digits.trim_start_matches('-').len();
        if length > self.max_digits {
            return Err(LangError::new(
                format!(
                    "an integer of {length} digits is longer than the limit of {} digits",
                    self.max_digits
                ),
                span,
            )
            .as_limit(Limit::Digits));
        }
        digits
            .parse()
            .map_err(|_| LangError::new(format!("`{digits}` is not an integer"), span))
    }

    fn value(&mut self, depth: usize) -> Result<Value, LangError> {
        self.check_depth(depth)?;
        let start = self.span;
        let kind = match &self.token {
            Token::Integer(digits) => {
                let low = self.integer(digits, start)?;
                self.advance()?;
                if self.token == Token::DotDot {
                    self.advance()?;
                    let Token::Integer(digits) = &self.token else {
                        return Err(LangError::new(
                            format!(
                                "expected the end of the range, found {}",
                                self.token.describe()
                            ),
                            self.span,
                        ));
                    };
                    let high = self.integer(digits, self.span)?;
                    let mut end = self.advance()?.1;
                    let mut step = BigUint::from(1u8);
                    if matches!(&self.token, Token::Name(word) if word == "step") {
                        self.advance()?;
                        let Token::Integer(digits) = &self.token else {
                            return Err(LangError::new(
                                format!(
                                    "expected the step of the range (an integer), found {}",
                                    self.token.describe()
                                ),
                                self.span,
                            ));
                        };
                        let span = self.span;
                        step = self
                            .integer(digits, span)?
                            .to_biguint()
                            .filter(|step| *step >= BigUint::from(1u8))
                            .ok_or_else(|| {
                                LangError::new("the step of a range must be at least 1", span)
                            })?;
                        end = self.advance()?.1;
                    }
                    return Ok(Value {
                        kind: ValueKind::Range(low, high, step),
                        span: start.to(end),
                    });
                }
                return Ok(Value {
                    kind: ValueKind::Integer(low),
                    span: start,
                });
            }
            Token::Code(code) => ValueKind::Code(code.clone()),
            Token::Text(text) => ValueKind::Text(text.clone()),
            Token::File(path) => ValueKind::File(path.clone()),
            Token::OpenBracket => {
                self.advance()?;
                let mut items = Vec::new();
                if self.token != Token::CloseBracket {
                    loop {
                        items.push(self.value(depth + 1)?);
                        if self.token == Token::Comma {
                            self.advance()?;
                        } else {
                            break;
                        }
                    }
                }
                let end = self.expect(&Token::CloseBracket, "`,` or `]` in a list")?;
                return Ok(Value {
                    kind: ValueKind::List(items),
                    span: start.to(end),
                });
            }
            Token::Name(_) => {
                let sum = self.sum(depth + 1)?;
                return Ok(Value {
                    span: sum.span,
                    kind: ValueKind::Sum(sum),
                });
            }
            other => {
                return Err(LangError::new(
                    format!(
                        "expected a value (an integer, a code, \"text\", @file or [list]), found {}",
                        other.describe()
                    ),
                    start,
                ));
            }
        };
        self.advance()?;
        Ok(Value { kind, span: start })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn integer(value: i64) -> ValueKind {
        ValueKind::Integer(value.into())
    }

    #[test]
    fn parses_every_kind_of_value() {
        let sum =
            parse(r#"g[k=2, 0.137, 4!.0, 1..3, "a \"b\"", @x.txt, [1, [2]]](-4, nim(1) + nim(2))"#)
                .unwrap();
        let term = &sum.terms[0];
        assert_eq!(term.name, "g");
        let kinds: Vec<&ValueKind> = term.params.iter().map(|p| &p.value.kind).collect();
        assert_eq!(kinds[0], &integer(2));
        assert_eq!(term.params[0].key.as_ref().unwrap().0, "k");
        assert_eq!(kinds[1], &ValueKind::Code("0.137".into()));
        assert_eq!(kinds[2], &ValueKind::Code("4!.0".into()));
        assert_eq!(kinds[3], &ValueKind::Range(1.into(), 3.into(), 1u8.into()));
        assert_eq!(kinds[4], &ValueKind::Text("a \"b\"".into()));
        assert_eq!(kinds[5], &ValueKind::File("x.txt".into()));
        assert!(matches!(kinds[6], ValueKind::List(items) if items.len() == 2));
        assert_eq!(term.args[0].kind, integer(-4));
        assert!(matches!(&term.args[1].kind, ValueKind::Sum(inner) if inner.terms.len() == 2));
    }

    #[test]
    fn codes_may_start_with_a_hexadecimal_letter() {
        // d0 may be C (splitting into two or three heaps): `C.07` is a code, not the
        // name `C` followed by a stray point.
        for (source, code) in [
            ("octal[C.07](5)", "C.07"),
            ("octal[c.07](5)", "c.07"),
            ("octal[C.3F]()", "C.3F"),
            // Letters the code rejects still lex as a code, so that its check explains.
            ("octal[A.07]()", "A.07"),
            ("octal[0C.07]()", "0C.07"),
            ("octal[CC.1]()", "CC.1"),
            ("octal[C!.0]()", "C!.0"),
        ] {
            let sum = parse(source).unwrap_or_else(|e| panic!("{source}: {}", e.message));
            assert_eq!(
                sum.terms[0].params[0].value.kind,
                ValueKind::Code(code.into()),
                "{source}"
            );
            assert_eq!(parse(&sum.to_string()).unwrap(), sum, "{source}");
        }
        // Names, integers and ranges around them read as before.
        assert_eq!(
            parse("g[c, 1](0)").unwrap_err().message,
            "expected `(` after `c`, found `,`"
        );
        let sum = parse("g[k=12, 1..3](0)").unwrap();
        assert_eq!(
            sum.terms[0].params[1].value.kind,
            ValueKind::Range(1.into(), 3.into(), 1u8.into())
        );
        assert_eq!(
            parse("nim(12abc)").unwrap_err().message,
            "expected `,` or `)` after an argument, found `abc`"
        );
    }

    #[test]
    fn integers_of_any_size() {
        let digits = "1".repeat(300);
        let sum = parse(&format!("nim({digits})")).unwrap();
        assert_eq!(
            sum.terms[0].args[0].kind,
            ValueKind::Integer(digits.parse().unwrap())
        );
    }

    #[test]
    fn too_long_an_integer_is_a_limit() {
        let error = parse_with_limits("nim(123456)", 5).unwrap_err();
        assert_eq!(error.limit, Some(Limit::Digits));
        assert_eq!(error.span, Span::new(4, 10));
    }

    #[test]
    fn errors_point_at_the_offending_token() {
        let cases = [
            ("", 0, "expected a game, found nothing"),
            (
                "nim(3",
                5,
                "expected `,` or `)` after an argument, found the end of the input",
            ),
            ("nim 3", 4, "expected `(` after `nim`, found `3`"),
            ("nim(3) nim(4)", 7, "expected `+` or the end, found `nim`"),
            ("nim(3))", 6, "unexpected `)` after the position"),
            ("nim(3 $)", 6, "unexpected character `$`"),
            (
                "bash[3(4)",
                6,
                "expected `,` or `]` after a parameter, found `(`",
            ),
            ("nim(1..)", 7, "expected the end of the range, found `)`"),
            ("nim(\"abc)", 4, "this quoted text is never closed"),
            ("nim(@)", 4, "`@` must be followed by a file path"),
            ("3 + nim(1)", 0, "expected a game name, found `3`"),
        ];
        for (source, column, message) in cases {
            let error = parse(source).unwrap_err();
            assert_eq!(
                (error.span.start, error.message.as_str()),
                (column, message),
                "{source}"
            );
        }
    }

    #[test]
    fn deep_nesting_is_refused_not_overflowed() {
        let source = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        let error = parse(&format!("g({source})")).unwrap_err();
        assert!(error.message.contains("nesting deeper"));
        let source = format!("{}nim(1){}", "misere(".repeat(10_000), ")".repeat(10_000));
        assert!(
            parse(&source)
                .unwrap_err()
                .message
                .contains("nesting deeper")
        );
    }

    fn value_strategy() -> impl Strategy<Value = String> {
        let leaf = prop_oneof![
            any::<i64>().prop_map(|n| n.to_string()),
            "[0-9]{1,40}",
            (0u32..1000, 0u32..1000).prop_map(|(a, b)| format!("{a}..{b}")),
            "[0-9A-Fa-f]\\.[0-9A-F]{0,5}",
            "[ -~]{0,8}".prop_map(|t| format!("{:?}", t).replace("\\u{7f}", "")),
            "[a-z./]{1,10}".prop_map(|p| format!("@{p}")),
        ];
        leaf.prop_recursive(3, 16, 4, |inner| {
            prop::collection::vec(inner, 0..4).prop_map(|items| format!("[{}]", items.join(", ")))
        })
    }

    fn term_strategy() -> impl Strategy<Value = String> {
        (
            "[a-z][a-z_]{0,8}",
            prop::option::of(prop::collection::vec(
                (prop::option::of("[a-z]{1,3}"), value_strategy()),
                0..3,
            )),
            prop::collection::vec(value_strategy(), 0..4),
        )
            .prop_map(|(name, params, args)| {
                let params = params.map_or(String::new(), |params| {
                    let items: Vec<String> = params
                        .into_iter()
                        .map(|(key, value)| {
                            key.map_or(value.clone(), |key| format!("{key}={value}"))
                        })
                        .collect();
                    format!("[{}]", items.join(","))
                });
                format!("{name}{params}({})", args.join(" ,"))
            })
    }

    proptest! {
        #[test]
        fn printing_round_trips(terms in prop::collection::vec(term_strategy(), 1..4)) {
            let source = terms.join("+");
            let parsed = parse(&source).unwrap();
            let printed = parsed.to_string();
            let reparsed = parse(&printed).unwrap();
            prop_assert_eq!(&reparsed, &parsed);
            prop_assert_eq!(reparsed.to_string(), printed);
        }

        #[test]
        fn no_input_panics(source in "\\PC{0,40}") {
            let _ = parse(&source);
        }

        #[test]
        fn no_near_miss_panics(source in "[a-z0-9()\\[\\],+=.@!\" -]{0,40}") {
            if let Err(error) = parse(&source) {
                prop_assert!(error.span.start <= source.len());
                let _ = error.render(&source);
            }
        }
    }
}
