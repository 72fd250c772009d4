//! The syntax tree of the position language, and its canonical printer.

use std::fmt;

use num_bigint::{BigInt, BigUint};

/// A byte range of the source text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Span {
    /// The first byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

impl Span {
    /// The range `start..end`.
    #[must_use]
    pub const fn new(start: usize, end: usize) -> Self {
        Self { start, end }
    }

    /// The smallest span covering both.
    #[must_use]
    pub fn to(self, other: Self) -> Self {
        Self::new(self.start.min(other.start), self.end.max(other.end))
    }
}

/// A disjunctive sum of terms: `term + term + ...`.
#[derive(Clone, Debug)]
pub struct Sum {
    /// The terms, in source order.
    pub terms: Vec<Term>,
    /// Where the sum stands.
    pub span: Span,
}

/// One game term: `name[params](args)`.
#[derive(Clone, Debug)]
pub struct Term {
    /// The game's name.
    pub name: String,
    /// Where the name stands.
    pub name_span: Span,
    /// The rule parameters between brackets; empty when there are none.
    pub params: Vec<Param>,
    /// Whether the term had brackets at all (`bash[](3)` has, `nim(3)` has not).
    pub has_brackets: bool,
    /// The position's arguments between parentheses.
    pub args: Vec<Value>,
    /// Where the whole term stands.
    pub span: Span,
}

/// A rule parameter: `value` or `key=value`.
#[derive(Clone, Debug)]
pub struct Param {
    /// The key and its span, for `key=value`.
    pub key: Option<(String, Span)>,
    /// The value.
    pub value: Value,
}

/// A value with its place in the source.
#[derive(Clone, Debug)]
pub struct Value {
    /// What the value is.
    pub kind: ValueKind,
    /// Where it stands.
    pub span: Span,
}

/// The kinds of value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ValueKind {
    /// A decimal integer of any size (negative ones parse, so that games can
    /// reject them with a precise message).
    Integer(BigInt),
    /// `low..high`, both ends included, or `low..high step s`: every `s`-th
    /// integer from `low` up to `high` (`1..99 step 2`, the odd numbers below
    /// 100). The step is at least 1 (1 when not written).
    Range(BigInt, BigInt, BigUint),
    /// A code such as `0.137` or `4!.0`.
    Code(String),
    /// A quoted text.
    Text(String),
    /// `@PATH`: a position read from a file.
    File(String),
    /// `[v, ...]`.
    List(Vec<Value>),
    /// A whole sum given as an argument, as in `misere(nim(1, 2) + bash[3](4))`.
    Sum(Sum),
}

// Equality ignores spans: two trees are equal when they say the same thing.
impl PartialEq for Sum {
    fn eq(&self, other: &Self) -> bool {
        self.terms == other.terms
    }
}
impl Eq for Sum {}
impl PartialEq for Term {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
            && self.params == other.params
            && self.has_brackets == other.has_brackets
            && self.args == other.args
    }
}
impl Eq for Term {}
impl PartialEq for Param {
    fn eq(&self, other: &Self) -> bool {
        self.key.as_ref().map(|k| &k.0) == other.key.as_ref().map(|k| &k.0)
            && self.value == other.value
    }
}
impl Eq for Param {}
impl PartialEq for Value {
    fn eq(&self, other: &Self) -> bool {
        self.kind == other.kind
    }
}
impl Eq for Value {}

fn write_list<T: fmt::Display>(f: &mut fmt::Formatter<'_>, items: &[T]) -> fmt::Result {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{item}")?;
    }
    Ok(())
}

impl fmt::Display for Sum {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, term) in self.terms.iter().enumerate() {
            if i > 0 {
                f.write_str(" + ")?;
            }
            write!(f, "{term}")?;
        }
        Ok(())
    }
}

impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)?;
        if self.has_brackets {
            f.write_str("[")?;
            write_list(f, &self.params)?;
            f.write_str("]")?;
        }
        f.write_str("(")?;
        write_list(f, &self.args)?;
        f.write_str(")")
    }
}

impl fmt::Display for Param {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some((key, _)) = &self.key {
            write!(f, "{key}=")?;
        }
        write!(f, "{}", self.value)
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ValueKind::Integer(n) => write!(f, "{n}"),
            ValueKind::Range(low, high, step) if *step == BigUint::from(1u8) => {
                write!(f, "{low}..{high}")
            }
            ValueKind::Range(low, high, step) => write!(f, "{low}..{high} step {step}"),
            ValueKind::Code(code) => f.write_str(code),
            ValueKind::Text(text) => write_quoted(f, text),
            ValueKind::File(path) => {
                if path.is_empty()
                    || path
                        .chars()
                        .any(|c| c.is_whitespace() || ",()[]+\"".contains(c))
                {
                    f.write_str("@")?;
                    write_quoted(f, path)
                } else {
                    write!(f, "@{path}")
                }
            }
            ValueKind::List(items) => {
                f.write_str("[")?;
                write_list(f, items)?;
                f.write_str("]")
            }
            ValueKind::Sum(sum) => write!(f, "{sum}"),
        }
    }
}

fn write_quoted(f: &mut fmt::Formatter<'_>, text: &str) -> fmt::Result {
    f.write_str("\"")?;
    for c in text.chars() {
        match c {
            '"' => f.write_str("\\\"")?,
            '\\' => f.write_str("\\\\")?,
            '\n' => f.write_str("\\n")?,
            '\t' => f.write_str("\\t")?,
            c => write!(f, "{c}")?,
        }
    }
    f.write_str("\"")
}
