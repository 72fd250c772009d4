//! String games: `prefix_game(WORDS[, "w"])` and `substring_game(WORDS[, "w"])`.
//!
//! # Rules (string games, as contest problems pose them)
//! Start from the word `w` (empty by default); a move appends one letter so
//! that the word stays a prefix (`prefix_game`) or a substring
//! (`substring_game`) of one of WORDS. Whoever cannot move loses. WORDS is
//! `@PATH` (one word a line, blank lines skipped) or a list of strings
//! `["ab", "ba"]`, over the letters `a`-`z`.
//!
//! # Theory
//! A word's future depends only on the state it reaches in an automaton that
//! accepts exactly the allowed words, and appending a letter follows one of
//! the state's transitions. For prefixes the automaton is the trie of WORDS
//! (`trie`); for substrings it is their generalized suffix automaton
//! (`suffix_automaton`, Blumer et al. 1985), which has fewer than twice as
//! many states as letters, each holding the words with the same set of
//! extensions. Both are directed acyclic graphs, so each state's nimber is
//! the mex of its successors' (Sprague-Grundy on a DAG), computed once
//! for every state in reverse topological order: linear in the total length.
//! The winning letters are the transitions to a state of the wanted nimber.

pub(crate) mod suffix_automaton;
pub(crate) mod trie;

use std::sync::Arc;

use num_bigint::BigUint;

use crate::family::{Family, MovesTo, part};
use crate::lang::arguments::{STANDARD_INPUT, read_file_text};
use crate::lang::{LangError, Span, Term, Value, ValueKind};
use crate::registry::{BuildContext, DrawingKind, EntryKind, GameEntry};
use crate::sums::position::Group;
use crate::theory::solver::{Limit, SearchError};

/// A deterministic automaton over `a`-`z` whose transitions form a DAG, with
/// the nimber of every state. State 0 is the start (the empty word).
#[derive(Debug, Default)]
pub struct Automaton {
    /// `offsets[s]..offsets[s + 1]` index the transitions of state `s`,
    /// sorted by letter.
    offsets: Vec<u32>,
    /// Each transition's letter (`0` for `a`) and target.
    transitions: Vec<(u8, u32)>,
    nimbers: Vec<u32>,
}

impl Automaton {
    /// An automaton of `states` states from its transitions `(from, letter,
    /// to)` in any order, with `order` listing every state so that each
    /// comes after all the states it has transitions to (reverse topological
    /// order).
    fn new(states: usize, mut edges: Vec<(u32, u8, u32)>, order: &[u32]) -> Self {
        edges.sort_unstable_by_key(|&(from, letter, _)| (from, letter));
        let mut offsets = vec![0u32; states + 1];
        for &(from, _, _) in &edges {
            offsets[from as usize + 1] += 1;
        }
        for s in 0..states {
            offsets[s + 1] += offsets[s];
        }
        let transitions: Vec<(u8, u32)> = edges.into_iter().map(|(_, c, to)| (c, to)).collect();
        let mut automaton = Self {
            offsets,
            transitions,
            nimbers: vec![0; states],
        };
        let mut seen = [u32::MAX; 27];
        for &state in order {
            for &(_, to) in automaton.transitions_of(state) {
                let g = automaton.nimbers[to as usize] as usize;
                if g < seen.len() {
                    seen[g] = state;
                }
            }
            // At most 26 transitions: the mex is at most 26.
            automaton.nimbers[state as usize] =
                (0..27).find(|&g| seen[g] != state).unwrap_or(26) as u32;
        }
        automaton
    }

    /// The number of states.
    #[must_use]
    pub fn state_count(&self) -> usize {
        self.nimbers.len()
    }

    fn transitions_of(&self, state: u32) -> &[(u8, u32)] {
        &self.transitions
            [self.offsets[state as usize] as usize..self.offsets[state as usize + 1] as usize]
    }

    /// The state after `letter` (`0` for `a`) from `state`, if allowed.
    #[must_use]
    pub fn next(&self, state: u32, letter: u8) -> Option<u32> {
        let transitions = self.transitions_of(state);
        transitions
            .binary_search_by_key(&letter, |&(c, _)| c)
            .ok()
            .map(|i| transitions[i].1)
    }

    /// The state reached by `word` from the start, if every step is allowed.
    #[must_use]
    pub fn walk(&self, word: &str) -> Option<u32> {
        word.bytes()
            .try_fold(0u32, |state, b| self.next(state, b.wrapping_sub(b'a')))
    }

    /// The nimber of `state`.
    #[must_use]
    pub fn nimber(&self, state: u32) -> u32 {
        self.nimbers[state as usize]
    }
}

/// Which words a string game allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Prefixes of the words.
    Prefix,
    /// Substrings of the words.
    Substring,
}

impl Kind {
    const fn name(self) -> &'static str {
        match self {
            Self::Prefix => "prefix_game",
            Self::Substring => "substring_game",
        }
    }

    const fn what(self) -> &'static str {
        match self {
            Self::Prefix => "a prefix",
            Self::Substring => "a substring",
        }
    }
}

/// A string game on one set of words.
#[derive(Debug)]
pub struct WordGame {
    kind: Kind,
    /// WORDS as given (`@PATH` or the list), repeated in every position.
    words_text: Arc<str>,
    automaton: Automaton,
}

impl PartialEq for WordGame {
    fn eq(&self, other: &Self) -> bool {
        self.kind == other.kind && self.words_text == other.words_text
    }
}

/// A position: the word so far and its automaton state.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Word {
    state: u32,
    text: Arc<str>,
}

impl WordGame {
    /// The game of `kind` on `words` (each over `a`-`z`).
    #[must_use]
    pub fn new(kind: Kind, words: &[&[u8]], words_text: Arc<str>) -> Self {
        let automaton = match kind {
            Kind::Prefix => trie::build(words),
            Kind::Substring => suffix_automaton::build(words),
        };
        Self {
            kind,
            words_text,
            automaton,
        }
    }

    /// The automaton the game is played on.
    #[must_use]
    pub const fn automaton(&self) -> &Automaton {
        &self.automaton
    }

    /// The position at `word`, if it is allowed.
    #[must_use]
    pub fn position(&self, word: &str) -> Option<Word> {
        Some(Word {
            state: self.automaton.walk(word)?,
            text: word.into(),
        })
    }

    fn after(&self, word: &Word, letter: u8, state: u32) -> Word {
        let mut text = String::with_capacity(word.text.len() + 1);
        text.push_str(&word.text);
        text.push(char::from(b'a' + letter));
        Word {
            state,
            text: text.into(),
        }
    }
}

impl Family for WordGame {
    type Position = Word;

    fn write_position(&self, word: &Word, out: &mut String) {
        out.push_str(&self.words_text);
        if !word.text.is_empty() {
            // Words hold the letters a-z only: nothing to escape.
            out.push_str(", \"");
            out.push_str(&word.text);
            out.push('"');
        }
    }

    fn moves(&self, word: &Word, limit: usize) -> Result<Vec<Vec<Word>>, SearchError> {
        let transitions = self.automaton.transitions_of(word.state);
        if transitions.len() > limit {
            return Err(SearchError::StateLimit { limit });
        }
        Ok(transitions
            .iter()
            .map(|&(letter, to)| vec![self.after(word, letter, to)])
            .collect())
    }

    fn describe_move(&self, _from: &Word, to: &[Word]) -> String {
        match to.first().and_then(|to| to.text.chars().last()) {
            Some(letter) => format!("append `{letter}`"),
            None => "a move".to_owned(),
        }
    }

    fn nimber_by_theory(&self, word: &Word) -> Option<(BigUint, &'static str)> {
        let method = match self.kind {
            Kind::Prefix => "mex over the trie",
            Kind::Substring => "mex over the suffix automaton",
        };
        Some((self.automaton.nimber(word.state).into(), method))
    }

    fn moves_to_nimber_by_theory(
        &self,
        word: &Word,
        target: &BigUint,
        max: usize,
    ) -> Option<MovesTo<Word>> {
        let mut moves = MovesTo::default();
        for &(letter, to) in self.automaton.transitions_of(word.state) {
            if BigUint::from(self.automaton.nimber(to)) == *target {
                moves.count += 1u32;
                if moves.listed.len() < max {
                    moves.listed.push(vec![self.after(word, letter, to)]);
                }
            }
        }
        Some(moves)
    }
}

/// The words of a WORDS argument, checked: `a`-`z` only.
fn read_words(term: &Term, arg: &Value, limit: u64) -> Result<Vec<Vec<u8>>, LangError> {
    let letters_only = |word: &str| word.bytes().position(|b| !b.is_ascii_lowercase());
    match &arg.kind {
        ValueKind::File(path) => {
            // The standard input's size is known once read.
            if path != STANDARD_INPUT {
                let size = std::fs::metadata(path)
                    .map_err(|e| LangError::new(format!("cannot read `{path}`: {e}"), arg.span))?
                    .len();
                if size.saturating_mul(BYTES_PER_LETTER) > limit {
                    return Err(too_large(size, limit, arg.span));
                }
            }
            let text = read_file_text(path, limit, arg.span)?;
            let size = text.len() as u64;
            if size.saturating_mul(BYTES_PER_LETTER) > limit {
                return Err(too_large(size, limit, arg.span));
            }
            let mut words = Vec::new();
            for (index, line) in text.lines().enumerate() {
                let word = line.trim_end_matches('\r');
                if word.trim().is_empty() {
                    continue;
                }
                if let Some(at) = letters_only(word) {
                    let bad = word[at..].chars().next().unwrap_or('?');
                    return Err(LangError::new(
                        format!(
                            "`{path}` line {}, column {}: `{bad}` is not a letter a-z (one word \
                             a line, lower case)",
                            index + 1,
                            word[..at].chars().count() + 1
                        ),
                        arg.span,
                    ));
                }
                words.push(word.as_bytes().to_vec());
            }
            Ok(words)
        }
        ValueKind::List(items) => {
            let mut words = Vec::with_capacity(items.len());
            let mut total = 0u64;
            for item in items {
                let ValueKind::Text(word) = &item.kind else {
                    return Err(LangError::new(
                        format!(
                            "the words of `{}` are quoted strings, found `{item}`",
                            term.name
                        ),
                        item.span,
                    ));
                };
                if let Some(at) = letters_only(word) {
                    let bad = word[at..].chars().next().unwrap_or('?');
                    return Err(LangError::new(
                        format!("`{bad}` is not a letter a-z: words are lower case"),
                        item.span,
                    ));
                }
                total += word.len() as u64;
                words.push(word.as_bytes().to_vec());
            }
            if total.saturating_mul(BYTES_PER_LETTER) > limit {
                return Err(too_large(total, limit, arg.span));
            }
            Ok(words)
        }
        _ => Err(LangError::new(
            format!(
                "`{}` takes its words first: `@PATH` (one word a line) or a list such as \
                 [\"ab\", \"ba\"], found `{arg}`",
                term.name
            ),
            arg.span,
        )),
    }
}

/// Bytes an automaton takes per letter of the words, roughly (a suffix
/// automaton has up to two states and three transitions a letter).
const BYTES_PER_LETTER: u64 = 64;

fn too_large(letters: u64, limit: u64, span: Span) -> LangError {
    LangError::new(
        format!(
            "the words' automaton needs about {} MiB, more than the memory limit of {} MiB",
            letters.saturating_mul(BYTES_PER_LETTER) >> 20,
            limit >> 20
        ),
        span,
    )
    .as_limit(Limit::Memory)
}

fn build(kind: Kind, term: &Term, context: &BuildContext<'_>) -> Result<Group, LangError> {
    crate::lang::arguments::no_params(term)?;
    let name = kind.name();
    let (words_arg, start) = match term.args.as_slice() {
        [words] => (words, None),
        [words, start] => (words, Some(start)),
        [] => {
            return Err(LangError::new(
                format!("`{name}` needs its words: `{name}([\"ab\", \"ba\"])` or `{name}(@PATH)`"),
                term.span,
            ));
        }
        [_, _, extra, ..] => {
            return Err(LangError::new(
                format!("`{name}` takes the words and a starting word"),
                extra.span,
            ));
        }
    };
    let words = read_words(term, words_arg, context.limits.bytes)?;
    let slices: Vec<&[u8]> = words.iter().map(Vec::as_slice).collect();
    let game = Arc::new(WordGame::new(kind, &slices, words_arg.to_string().into()));
    let word = match start {
        None => String::new(),
        Some(value) => match &value.kind {
            ValueKind::Text(word) => word.clone(),
            _ => {
                return Err(LangError::new(
                    format!("the starting word of `{name}` is a quoted string, found `{value}`"),
                    value.span,
                ));
            }
        },
    };
    let position = game.position(&word).ok_or_else(|| {
        LangError::new(
            format!("\"{word}\" is not {} of any of the words", kind.what()),
            start.map_or(term.span, |value| value.span),
        )
    })?;
    Ok(Group::new(name, vec![part(&game, position)]))
}

fn build_prefix(term: &Term, context: &BuildContext<'_>) -> Result<Group, LangError> {
    build(Kind::Prefix, term, context)
}

fn build_substring(term: &Term, context: &BuildContext<'_>) -> Result<Group, LangError> {
    build(Kind::Substring, term, context)
}

/// The catalogue entry of the prefix game.
pub(crate) const PREFIX_ENTRY: GameEntry = GameEntry {
    name: "prefix_game",
    summary: "append letters while the word stays a prefix of one of the words",
    rules: "prefix_game(WORDS) or prefix_game(WORDS, \"w\"): from the word w (empty by default), \
            a move appends one letter so that the word stays a prefix of one of WORDS; whoever \
            cannot move loses. WORDS is @PATH (one word a line, blank lines skipped) or a list \
            [\"ab\", \"ba\"]; letters a-z. Theory (Sprague-Grundy): the word is a node of the \
            words' trie and a move goes to a child, so each node's nimber is the mex of its \
            children's, computed for every node at once (linear in the letters). The winning \
            moves are the letters leading to a node of nimber 0 (or the nimber a sum needs).",
    syntax: "prefix_game(WORDS), prefix_game(WORDS, \"w\")",
    examples: &[
        "prefix_game([\"abc\", \"abd\", \"b\"])",
        "prefix_game([\"abc\", \"abd\", \"b\"], \"ab\")",
        "rounds[3](prefix_game([\"ab\", \"c\"]))",
    ],
    kind: EntryKind::Game(build_prefix),
    heap_rule: None,
    drawing: DrawingKind::None,
    every_start: None,
};

/// The catalogue entry of the substring game.
pub(crate) const SUBSTRING_ENTRY: GameEntry = GameEntry {
    name: "substring_game",
    summary: "append letters while the word stays a substring of one of the words",
    rules: "substring_game(WORDS) or substring_game(WORDS, \"w\"): from the word w (empty by \
            default), a move appends one letter so that the word stays a substring of one of \
            WORDS; whoever cannot move loses. WORDS as for prefix_game. Theory (Sprague-Grundy): \
            the word is a state of the words' generalized suffix automaton (Blumer et al. 1985; \
            fewer than two states a letter, each state the words with the same extensions) and \
            a move follows a transition, so each state's nimber is the mex of its successors', \
            computed for every state at once in order of decreasing length (linear in the \
            letters).",
    syntax: "substring_game(WORDS), substring_game(WORDS, \"w\")",
    examples: &[
        "substring_game([\"abab\", \"bba\"])",
        "substring_game([\"abab\", \"bba\"], \"b\")",
        "substring_game([\"abc\"]) + prefix_game([\"abc\"])",
    ],
    kind: EntryKind::Game(build_substring),
    heap_rule: None,
    drawing: DrawingKind::None,
    every_start: None,
};

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::family::Rules;
    use crate::theory::solver::Solver;

    /// The rules alone: a move appends a letter if the word stays a
    /// prefix or a substring of one of the words, checked by string search.
    #[derive(Debug, PartialEq)]
    struct Brute {
        kind: Kind,
        words: Vec<String>,
    }

    impl Family for Brute {
        type Position = String;
        fn write_position(&self, word: &String, out: &mut String) {
            out.push_str(word);
        }
        fn moves(&self, word: &String, _: usize) -> Result<Vec<Vec<String>>, SearchError> {
            Ok((b'a'..=b'z')
                .map(|c| format!("{word}{}", char::from(c)))
                .filter(|next| self.allows(next))
                .map(|next| vec![next])
                .collect())
        }
        fn describe_move(&self, _: &String, _: &[String]) -> String {
            String::new()
        }
    }

    impl Brute {
        fn allows(&self, word: &str) -> bool {
            self.words.iter().any(|w| match self.kind {
                Kind::Prefix => w.starts_with(word),
                Kind::Substring => w.contains(word),
            })
        }
    }

    /// Random words over the first `letters` letters.
    pub(crate) fn random_words(
        seed: u64,
        count: usize,
        longest: usize,
        letters: u8,
    ) -> Vec<String> {
        let mut rng = crate::testing::Xorshift::new(seed);
        let mut next = move |bound: u64| rng.below(bound);
        (0..count)
            .map(|_| {
                let length = next(longest as u64 + 1) as usize;
                (0..length)
                    .map(|_| char::from(b'a' + next(u64::from(letters)) as u8))
                    .collect()
            })
            .collect()
    }

    #[test]
    fn nimbers_and_winning_letters_match_search_on_every_allowed_word() {
        for kind in [Kind::Prefix, Kind::Substring] {
            for seed in 0..150u64 {
                let words = random_words(seed, 1 + (seed % 5) as usize, 7, 2 + (seed % 3) as u8);
                let slices: Vec<&[u8]> = words.iter().map(|w| w.as_bytes()).collect();
                let game = WordGame::new(kind, &slices, "w".into());
                let brute = Rules::new(Brute {
                    kind,
                    words: words.clone(),
                });
                let mut solver = Solver::new(&brute);
                // Every allowed word: every substring of every word.
                let mut allowed: Vec<String> = Vec::new();
                for w in &words {
                    for i in 0..=w.len() {
                        for j in i..=w.len() {
                            allowed.push(w[i..j].to_owned());
                        }
                    }
                }
                allowed.sort();
                allowed.dedup();
                for word in &allowed {
                    let position = game.position(word);
                    assert_eq!(
                        position.is_some(),
                        brute.family().allows(word),
                        "{kind:?} {words:?} {word:?}"
                    );
                    let Some(position) = position else { continue };
                    let nimber = solver.nimber(&vec![word.clone()]).unwrap();
                    assert_eq!(
                        game.nimber_by_theory(&position).unwrap().0,
                        nimber.into(),
                        "{kind:?} {words:?} {word:?}"
                    );
                    for target in 0..3u32 {
                        let found = game
                            .moves_to_nimber_by_theory(&position, &target.into(), usize::MAX)
                            .unwrap();
                        let found: Vec<String> = found
                            .listed
                            .iter()
                            .map(|leaves| leaves[0].text.to_string())
                            .collect();
                        let expected: Vec<String> = brute
                            .family()
                            .moves(word, usize::MAX)
                            .unwrap()
                            .into_iter()
                            .filter(|leaves| solver.nimber(leaves).unwrap() == target)
                            .map(|leaves| leaves[0].clone())
                            .collect();
                        assert_eq!(found, expected, "{kind:?} {words:?} {word:?} -> {target}");
                    }
                }
            }
        }
    }
}
