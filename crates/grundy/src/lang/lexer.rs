//! Splits the source into tokens, each with its span.

use super::{LangError, Span};

#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Token {
    Name(String),
    /// Decimal digits with an optional leading minus sign.
    Integer(String),
    Code(String),
    Text(String),
    File(String),
    Open,
    Close,
    OpenBracket,
    CloseBracket,
    Comma,
    Plus,
    Equals,
    DotDot,
    End,
}

impl Token {
    /// How the token reads in an error message.
    pub(super) fn describe(&self) -> String {
        match self {
            Self::Name(name) => format!("`{name}`"),
            Self::Integer(digits) => format!("`{}`", shorten(digits)),
            Self::Code(code) => format!("`{code}`"),
            Self::Text(_) => "a quoted text".to_owned(),
            Self::File(path) => format!("`@{path}`"),
            Self::Open => "`(`".to_owned(),
            Self::Close => "`)`".to_owned(),
            Self::OpenBracket => "`[`".to_owned(),
            Self::CloseBracket => "`]`".to_owned(),
            Self::Comma => "`,`".to_owned(),
            Self::Plus => "`+`".to_owned(),
            Self::Equals => "`=`".to_owned(),
            Self::DotDot => "`..`".to_owned(),
            Self::End => "the end of the input".to_owned(),
        }
    }
}

fn shorten(text: &str) -> String {
    if text.len() > 20 {
        format!("{}...({} digits)", &text[..12], text.len())
    } else {
        text.to_owned()
    }
}

pub(super) struct Lexer<'s> {
    source: &'s str,
    position: usize,
}

impl<'s> Lexer<'s> {
    pub(super) const fn new(source: &'s str) -> Self {
        Self {
            source,
            position: 0,
        }
    }

    fn peek_byte(&self, ahead: usize) -> Option<u8> {
        self.source.as_bytes().get(self.position + ahead).copied()
    }

    fn take_while(&mut self, keep: impl Fn(u8) -> bool) -> &'s str {
        let start = self.position;
        while self.peek_byte(0).is_some_and(&keep) {
            self.position += 1;
        }
        &self.source[start..self.position]
    }

    /// The next token and its span.
    pub(super) fn next_token(&mut self) -> Result<(Token, Span), LangError> {
        self.take_while(|b| b.is_ascii_whitespace());
        let start = self.position;
        let Some(byte) = self.peek_byte(0) else {
            return Ok((Token::End, Span::new(start, start)));
        };
        let single = |token| (token, Span::new(start, start + 1));
        let token = match byte {
            b'(' => single(Token::Open),
            b')' => single(Token::Close),
            b'[' => single(Token::OpenBracket),
            b']' => single(Token::CloseBracket),
            b',' => single(Token::Comma),
            b'+' => single(Token::Plus),
            b'=' => single(Token::Equals),
            b'.' if self.peek_byte(1) == Some(b'.') => {
                self.position += 2;
                return Ok((Token::DotDot, Span::new(start, start + 2)));
            }
            b'"' => {
                self.position += 1;
                let text = self.quoted(start)?;
                return Ok((Token::Text(text), Span::new(start, self.position)));
            }
            b'@' => {
                self.position += 1;
                let path = if self.peek_byte(0) == Some(b'"') {
                    self.position += 1;
                    self.quoted(start)?
                } else {
                    self.take_while(|b| !b.is_ascii_whitespace() && !b",()[]+\"".contains(&b))
                        .to_owned()
                };
                if path.is_empty() {
                    return Err(LangError::new(
                        "`@` must be followed by a file path",
                        Span::new(start, self.position),
                    ));
                }
                return Ok((Token::File(path), Span::new(start, self.position)));
            }
            b'-' | b'0'..=b'9' => return self.number(start),
            b if b.is_ascii_alphabetic() || b == b'_' => {
                let name = self.take_while(|b| b.is_ascii_alphanumeric() || b == b'_');
                // A code whose zeroth digit is a letter: `C.07`, `c.1` (a name is never
                // followed by a point). Other hexadecimal letters lex the same way, so
                // that the code's own check says which digits d0 may be.
                if name.bytes().all(|b| b.is_ascii_hexdigit()) && self.at_code_point() {
                    return Ok(self.code(start));
                }
                return Ok((
                    Token::Name(name.to_owned()),
                    Span::new(start, self.position),
                ));
            }
            _ => {
                let c = self.source[start..].chars().next().unwrap_or('?');
                return Err(LangError::new(
                    format!("unexpected character `{c}`"),
                    Span::new(start, start + c.len_utf8()),
                ));
            }
        };
        self.position += 1;
        Ok(token)
    }

    /// An integer, or a code such as `0.137`, `4.07`, `0.3F` or `4!.0` (see also
    /// codes with a letter first, `C.07`, in [`Self::next_token`]).
    fn number(&mut self, start: usize) -> Result<(Token, Span), LangError> {
        if self.peek_byte(0) == Some(b'-') {
            self.position += 1;
            if let Some(error) = self.hyphenated_name(start) {
                return Err(error);
            }
            if !self.peek_byte(0).is_some_and(|b| b.is_ascii_digit()) {
                return Err(LangError::new(
                    "`-` must be followed by digits",
                    Span::new(start, self.position),
                ));
            }
        }
        self.take_while(|b| b.is_ascii_digit());
        // Hexadecimal letters before a point still belong to the code (`0C.07`,
        // rejected by the code's own check as a d0 of two digits).
        let digits_end = self.position;
        self.take_while(|b| b.is_ascii_hexdigit());
        if !self.at_code_point() {
            self.position = digits_end;
        }
        if self.at_code_point() {
            if self.source.as_bytes()[start] == b'-' {
                return Err(LangError::new(
                    "a code cannot be negative",
                    Span::new(start, self.position),
                ));
            }
            return Ok(self.code(start));
        }
        let digits = &self.source[start..self.position];
        Ok((
            Token::Integer(digits.to_owned()),
            Span::new(start, self.position),
        ))
    }

    /// A name written with `-` between its words (`dawson-kayles`), the `-` at
    /// `start` having a letter, digit or `_` before it and a letter after it: the
    /// error names the whole word and suggests it with `_` (`dawson_kayles`).
    fn hyphenated_name(&self, start: usize) -> Option<LangError> {
        let bytes = self.source.as_bytes();
        let in_name = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
        let in_word = |b: u8| in_name(b) || b == b'-';
        if start == 0 || !in_name(bytes[start - 1]) {
            return None;
        }
        if !bytes.get(start + 1).is_some_and(u8::is_ascii_alphabetic) {
            return None;
        }
        let begin = bytes[..start]
            .iter()
            .rposition(|&b| !in_word(b))
            .map_or(0, |i| i + 1);
        let end = bytes[start..]
            .iter()
            .position(|&b| !in_word(b))
            .map_or(bytes.len(), |i| start + i);
        let written = &self.source[begin..end];
        let meant = written.to_ascii_lowercase().replace('-', "_");
        Some(
            LangError::new(
                format!("`{written}` is not a name: names join their words with `_`, not `-`"),
                Span::new(begin, end),
            )
            .with_help(format!("did you mean `{meant}`?")),
        )
    }

    /// Whether a code's point comes next: `.` (not the `..` of a range), or CGSuite's
    /// `!.` as in `4!.0`.
    fn at_code_point(&self) -> bool {
        match (self.peek_byte(0), self.peek_byte(1)) {
            (Some(b'.'), next) => next != Some(b'.'),
            (Some(b'!'), Some(b'.')) => true,
            _ => false,
        }
    }

    /// A code whose digits before the point (from `start`) were read: the point and
    /// the digits after it.
    fn code(&mut self, start: usize) -> (Token, Span) {
        if self.peek_byte(0) == Some(b'!') {
            self.position += 1;
        }
        self.position += 1; // the dot
        self.take_while(|b| b.is_ascii_alphanumeric());
        let code = &self.source[start..self.position];
        (
            Token::Code(code.to_owned()),
            Span::new(start, self.position),
        )
    }

    /// The rest of a quoted text whose opening quote (at `start`) was read.
    fn quoted(&mut self, start: usize) -> Result<String, LangError> {
        let mut text = String::new();
        let mut chars = self.source[self.position..].char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                '"' => {
                    self.position += i + 1;
                    return Ok(text);
                }
                '\\' => match chars.next() {
                    Some((_, '"')) => text.push('"'),
                    Some((_, '\\')) => text.push('\\'),
                    Some((_, 'n')) => text.push('\n'),
                    Some((_, 't')) => text.push('\t'),
                    Some((j, other)) => {
                        let at = self.position + j;
                        return Err(LangError::new(
                            format!("unknown escape `\\{other}` in a quoted text"),
                            Span::new(at - 1, at + other.len_utf8()),
                        )
                        .with_help("the escapes are \\\" \\\\ \\n \\t"));
                    }
                    None => break,
                },
                c => text.push(c),
            }
        }
        Err(LangError::new(
            "this quoted text is never closed",
            Span::new(start, start + 1),
        )
        .with_help("add a closing `\"`"))
    }
}

impl<'s> Lexer<'s> {
    pub(super) const fn source(&self) -> &'s str {
        self.source
    }

    pub(super) const fn position(&self) -> usize {
        self.position
    }

    pub(super) const fn seek(&mut self, position: usize) {
        self.position = position;
    }
}
