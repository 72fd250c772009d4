//! Positions of sums: what `grundy solve` answers.
//!
//! A [`Position`] is a disjunctive sum of [`Group`]s (one per term of the
//! expression), each holding independent components ([`Part`]s: the heaps of
//! `nim(3, 5, 7)` are three), under a play [`Convention`], played as a plain sum
//! or by a [`Compound`] rule (`every(...)`, `rounds[k](...)`).

use std::fmt;
use std::sync::Arc;

use num_bigint::BigUint;

use crate::family::Part;
use crate::theory::game::Convention;

/// The components of one term: `nim(3, 5, 7)` is the group `nim` with three heaps.
#[derive(Clone, Debug)]
pub struct Group {
    /// The term's canonical name and parameters: `nim`, `bash[3]`, `sub[1, 3, 4]`.
    pub head: Arc<str>,
    /// An argument the components share, written before theirs: the graph of
    /// `dag(GRAPH, v1, v2)`, whose components are the tokens.
    pub leading: Option<Arc<str>>,
    /// The components, in argument order.
    pub parts: Vec<Part>,
}

impl Group {
    /// A group of `parts` under the canonical `head`.
    pub fn new(head: impl Into<Arc<str>>, parts: Vec<Part>) -> Self {
        Self {
            head: head.into(),
            leading: None,
            parts,
        }
    }

    /// A group of `parts` sharing the argument `leading`, written first:
    /// `head(leading, part, ...)`.
    pub fn with_leading(
        head: impl Into<Arc<str>>,
        leading: impl Into<Arc<str>>,
        parts: Vec<Part>,
    ) -> Self {
        Self {
            head: head.into(),
            leading: Some(leading.into()),
            parts,
        }
    }

    /// The same term with other components: `head(leading, parts...)`.
    #[must_use]
    pub fn with_parts(&self, parts: Vec<Part>) -> Self {
        Self {
            head: Arc::clone(&self.head),
            leading: self.leading.clone(),
            parts,
        }
    }

    /// The text of the term with the components `parts` instead of its own.
    #[must_use]
    pub fn term_with(&self, parts: &[Part]) -> String {
        let mut text = String::new();
        push_groups(
            &mut text,
            std::slice::from_ref(&self.with_parts(parts.to_vec())),
        );
        text
    }
}

/// How the components of a position are played together.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Compound {
    /// A disjunctive sum: each move is made in one component.
    #[default]
    Sum,
    /// Every-SG, `every(SUM)`: each move moves every component that can move
    /// (see [`crate::sums::every_sg`]).
    Every,
    /// A match of rounds, `rounds[k](START, CURRENT)`: the groups of the
    /// position are the round being played, `rounds` counts the rounds left
    /// including it, and every later round restarts at `start`, the loser of a
    /// round starting the next (see [`crate::sums::rounds`]).
    Rounds {
        /// The rounds left, this one included; at least 1.
        rounds: BigUint,
        /// The position each round starts from.
        start: Vec<Group>,
    },
}

impl Compound {
    /// The name of the compound in the language, if it has one.
    #[must_use]
    pub const fn name(&self) -> Option<&'static str> {
        match self {
            Self::Sum => None,
            Self::Every => Some("every"),
            Self::Rounds { .. } => Some("rounds"),
        }
    }
}

/// A position: a sum of groups under a convention.
#[derive(Clone, Debug)]
pub struct Position {
    /// Normal or misère play.
    pub convention: Convention,
    /// How the groups are played together: a disjunctive sum unless wrapped
    /// by `every(...)` or `rounds[k](...)`.
    pub compound: Compound,
    /// The terms of the sum.
    pub groups: Vec<Group>,
}

impl Position {
    /// A disjunctive sum of `groups` under `convention`.
    #[must_use]
    pub const fn sum(convention: Convention, groups: Vec<Group>) -> Self {
        Self {
            convention,
            compound: Compound::Sum,
            groups,
        }
    }

    /// The groups after component `part` of group `group` is replaced by the
    /// components `leaves`.
    #[must_use]
    pub fn groups_after(&self, group: usize, part: usize, leaves: &[Part]) -> Vec<Group> {
        let mut groups = self.groups.clone();
        groups[group]
            .parts
            .splice(part..=part, leaves.iter().cloned());
        groups
    }

    /// The number of components over all groups.
    #[must_use]
    pub fn component_count(&self) -> usize {
        self.groups.iter().map(|g| g.parts.len()).sum()
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(PositionText::new(self).as_str())
    }
}

/// The canonical text of a position, with where each component stands in it,
/// so that the text after a move is spliced rather than printed anew (a
/// position of a million heaps prints once, not once per winning move).
#[derive(Clone, Debug)]
pub struct PositionText {
    text: String,
    /// `spans[group][part]`: the byte range of the component's arguments.
    spans: Vec<Vec<(usize, usize)>>,
    /// Where each group's leading argument ends, if it has one.
    leading_ends: Vec<Option<usize>>,
}

impl PositionText {
    /// Prints `position`.
    #[must_use]
    ///
    /// A match of rounds prints its start and its current round,
    /// `rounds[k](START, CURRENT)`, or only `rounds[k](START)` when the two are
    /// the same position (a round not begun).
    pub fn new(position: &Position) -> Self {
        let mut text = String::new();
        if position.convention == Convention::Misere {
            text.push_str("misere(");
        }
        let spans = match &position.compound {
            Compound::Sum => push_groups(&mut text, &position.groups),
            Compound::Every => {
                text.push_str("every(");
                let spans = push_groups(&mut text, &position.groups);
                text.push(')');
                spans
            }
            Compound::Rounds { rounds, start } => {
                let mut start_text = String::new();
                push_groups(&mut start_text, start);
                let mut current = String::new();
                let spans = push_groups(&mut current, &position.groups);
                text.push_str(&format!("rounds[{rounds}]("));
                let offset = if current == start_text {
                    text.len()
                } else {
                    text.push_str(&start_text);
                    text.push_str(", ");
                    text.len()
                };
                text.push_str(&current);
                text.push(')');
                spans
                    .into_iter()
                    .map(|group| {
                        group
                            .into_iter()
                            .map(|(a, b)| (a + offset, b + offset))
                            .collect()
                    })
                    .collect()
            }
        };
        if position.convention == Convention::Misere {
            text.push(')');
        }
        // A group's leading argument ends where the separator before its
        // first component starts.
        let leading_ends = position
            .groups
            .iter()
            .zip(&spans)
            .map(|(group, spans)| {
                group.leading.as_ref()?;
                spans.first().map(|&(start, _)| start - ", ".len())
            })
            .collect();
        Self {
            text,
            spans,
            leading_ends,
        }
    }

    /// The text.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The text after component `part` of group `group` is replaced by the
    /// components `with` (none when a move removes the component entirely).
    #[must_use]
    pub fn replacing(&self, group: usize, part: usize, with: &[Part]) -> String {
        let spans = &self.spans[group];
        let (mut start, mut end) = spans[part];
        let mut middle = String::new();
        for (i, new) in with.iter().enumerate() {
            if i > 0 {
                middle.push_str(", ");
            }
            new.write_arguments(&mut middle);
        }
        if with.is_empty() && spans.len() == 1 {
            // The last component goes: the separator after a leading
            // argument goes with it.
            if let Some(end) = self.leading_ends[group] {
                start = end;
            }
        }
        if with.is_empty() && spans.len() > 1 {
            // Remove the separator too: the following one, or for the last
            // component the preceding one.
            if part + 1 < spans.len() {
                end = spans[part + 1].0;
            } else {
                start = spans[part - 1].1;
            }
        }
        let mut out = String::with_capacity(self.text.len() - (end - start) + middle.len());
        out.push_str(&self.text[..start]);
        out.push_str(&middle);
        out.push_str(&self.text[end..]);
        out
    }
}

/// Prints `groups` as a sum, giving where each component's arguments stand.
fn push_groups(text: &mut String, groups: &[Group]) -> Vec<Vec<(usize, usize)>> {
    let mut spans = Vec::with_capacity(groups.len());
    for (g, group) in groups.iter().enumerate() {
        if g > 0 {
            text.push_str(" + ");
        }
        text.push_str(&group.head);
        text.push('(');
        if let Some(leading) = &group.leading {
            text.push_str(leading);
        }
        let mut group_spans = Vec::with_capacity(group.parts.len());
        for (i, part) in group.parts.iter().enumerate() {
            if i > 0 || group.leading.is_some() {
                text.push_str(", ");
            }
            let start = text.len();
            part.write_arguments(text);
            group_spans.push((start, text.len()));
        }
        text.push(')');
        spans.push(group_spans);
    }
    spans
}

/// Positions are equal when they are the same sum of the same typed
/// components, played the same way.
impl PartialEq for Position {
    fn eq(&self, other: &Self) -> bool {
        self.convention == other.convention
            && self.compound == other.compound
            && self.groups == other.groups
    }
}

impl PartialEq for Group {
    fn eq(&self, other: &Self) -> bool {
        self.head == other.head
            && self.leading == other.leading
            && self.parts.len() == other.parts.len()
            && self
                .parts
                .iter()
                .zip(&other.parts)
                .all(|(a, b)| a.same_as(b.as_ref()))
    }
}
