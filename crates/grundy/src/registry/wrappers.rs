//! The wrappers: entries that play a whole sum another way, `misere(SUM)`,
//! `every(SUM)` and `rounds[k](START, CURRENT)`. Each builds the sums it wraps
//! with the catalogue and hands them to the way of playing of [`crate::sums`].

use super::{BuildContext, DrawingKind, EntryKind, GameEntry};
use crate::lang::arguments::integer_param;
use crate::lang::{LangError, Term, ValueKind};
use crate::sums::position::{Compound, Group, Position};
use crate::sums::rounds::match_position;
use crate::theory::game::Convention;

/// The wrappers, in the order `grundy games` lists them.
pub(crate) static ENTRIES: &[GameEntry] = &[MISERE, EVERY, ROUNDS];

/// `misere(SUM)`: the sum under misère play.
pub(crate) const MISERE: GameEntry = GameEntry {
    name: "misere",
    summary: "the same position under misère play: whoever makes the last move loses",
    rules: "misere(SUM) plays SUM with the misère convention: the player who cannot move WINS \
            (equivalently, whoever makes the last move loses). The Sprague-Grundy theorem does not \
            hold for misère sums; grundy answers them, in this order: by the Anti-SG rule when \
            every component satisfies its condition (misère Nim by Bouton's rule); by the misère \
            quotient of the heaps' rule (Plambeck and Siegel), built and proven by its period as \
            needed (`grundy quotient`); by Conway's genus when every heap is tame (the sum plays \
            as misère Nim on the Grundy values); otherwise by a search of the whole sum as one \
            game, bounded by --max-states. The method used is named in the answer.",
    syntax: "misere(SUM)",
    examples: &[
        "misere(nim(1, 1, 1))",
        "misere(sub[1, 3, 4](30) + sub[2, 5](31) + nim(12))",
    ],
    kind: EntryKind::Convention(Convention::Misere),
    heap_rule: None,
    drawing: DrawingKind::None,
    every_start: None,
};

fn build_every(term: &Term, context: &BuildContext<'_>) -> Result<Position, LangError> {
    if term.has_brackets {
        return Err(LangError::new(
            "`every` takes no parameters",
            term.name_span,
        ));
    }
    let mut sums = wrapped_sums(term, context, 1..=1, "every(nim(1, 2) + bash[3](5))")?;
    let (groups, _) = sums.remove(0);
    Ok(Position {
        convention: Convention::Normal,
        compound: Compound::Every,
        groups,
    })
}

/// The catalogue entry: `every(SUM)`.
pub(crate) const EVERY: GameEntry = GameEntry {
    name: "every",
    summary: "Every-SG: each move moves every component that can move; the last mover wins",
    rules: "every(SUM) plays the components of SUM (each heap, each pair of piles, ...) so that a \
            move makes one move in EVERY component that can still move; the player who makes the \
            last move wins. Theorem (Winning Ways ch. 9; Jia Zhihao 2009): \
            give each position its steps (suspense number): 0 if terminal; for a position the \
            player to move wins, 1 + the largest steps of an option he wins from; for a position \
            he loses, 1 + the smallest steps of any option. The first player wins iff the \
            largest steps among the components is odd. A winning move takes an option in each \
            movable component so that the largest steps after it is even; moves are counted \
            exactly (a product over components). A component that splits leaves separate \
            components. The steps of Nim, Bash and subtraction games come from a formula (a \
            subtraction game's are periodic with an even saltus, found and checked on its first \
            heaps) at any size; other components are explored as game graphs (--max-states \
            bounds them); there is no nimber (null).",
    syntax: "every(SUM)",
    examples: &[
        "every(nim(1, 2) + bash[2](5))",
        "every(sub[1, 3, 4](7, 9) + wythoff(2, 3))",
        "every(staircase(1, 2) + nim(3))",
    ],
    kind: EntryKind::Compound(build_every),
    heap_rule: None,
    drawing: DrawingKind::None,
    every_start: None,
};

fn build_rounds(term: &Term, context: &BuildContext<'_>) -> Result<Position, LangError> {
    const EXAMPLE: &str = "rounds[3](nim(1, 2) + bash[2](4))";
    if !term.has_brackets || term.params.is_empty() {
        return Err(LangError::new(
            "`rounds` needs the number of rounds k: `rounds[k](SUM)`",
            term.name_span,
        )
        .with_help(format!("for example `{EXAMPLE}`")));
    }
    if let Some(extra) = term.params.get(1) {
        return Err(LangError::new(
            "`rounds` takes one parameter, the number of rounds k",
            extra.value.span,
        ));
    }
    let rounds = integer_param(term, 0, "k", 1)?.ok_or_else(|| {
        LangError::new(
            "`rounds` takes one parameter, the number of rounds k",
            term.params[0].value.span,
        )
    })?;
    let mut sums = wrapped_sums(term, context, 1..=2, EXAMPLE)?;
    let (start, _) = sums.remove(0);
    let current = sums
        .pop()
        .map_or_else(|| start.clone(), |(current, _)| current);
    Ok(match_position(rounds, start, current))
}

/// The catalogue entry: `rounds[k](START)`, `rounds[k](START, CURRENT)`.
pub(crate) const ROUNDS: GameEntry = GameEntry {
    name: "rounds",
    summary: "a match of k rounds of the same game; the loser of a round starts the next",
    rules: "rounds[k](SUM) is a match of k rounds (k >= 1, of any size), each played on SUM under \
            normal play; the loser of a round starts the next, and only the last round counts. \
            Theorem: with W = the first player can win a round of SUM (normal \
            play) and L = he can lose one on purpose (misère play): without W the second player \
            wins the match; with W and L the first player wins; with W and not L he wins iff k is \
            odd. Winning moves are the moves of the round in progress that keep the match won: \
            the round is played to lose (misère) when the starter of the next round wins the \
            match, to win (normal) otherwise. A match in progress is written \
            rounds[k](START, CURRENT): CURRENT is the round being played, k the rounds left \
            including it, START the position every later round starts from; a move that ends a \
            round leads to rounds[k-1](START). There is no nimber (null).",
    syntax: "rounds[k](SUM) or rounds[k](START, CURRENT)",
    examples: &[
        "rounds[2](bash[2](4))",
        "rounds[3](nim(1, 2) + bash[2](4))",
        "rounds[1000000000000000000001](sub[1, 3, 4](9))",
        "rounds[4](nim(2, 3), nim(1, 3))",
    ],
    kind: EntryKind::Compound(build_rounds),
    heap_rule: None,
    drawing: DrawingKind::None,
    every_start: None,
};

/// The sums a wrapper term holds (`every(SUM)`, `rounds[k](START, CURRENT)`),
/// each built as a plain disjunctive sum under normal play, with its span.
/// `counts` is how many sums the wrapper accepts.
///
/// # Errors
/// An argument that is not a sum, a sum that is itself wrapped, or the wrong
/// number of arguments; `example` is offered as help.
pub(crate) fn wrapped_sums(
    term: &Term,
    context: &BuildContext<'_>,
    counts: std::ops::RangeInclusive<usize>,
    example: &str,
) -> Result<Vec<(Vec<Group>, crate::lang::Span)>, LangError> {
    let name = &term.name;
    if !counts.contains(&term.args.len()) {
        let wanted = if counts.start() == counts.end() {
            format!("exactly {}", counts.start())
        } else {
            format!("{} or {}", counts.start(), counts.end())
        };
        let many = if *counts.end() == 1 { "sum" } else { "sums" };
        return Err(LangError::new(
            format!(
                "`{name}(...)` wraps {wanted} {many} of games, found {}",
                term.args.len()
            ),
            term.span,
        )
        .with_help(format!("for example `{example}`")));
    }
    let mut sums = Vec::with_capacity(term.args.len());
    for value in &term.args {
        let ValueKind::Sum(inner) = &value.kind else {
            return Err(
                LangError::new(format!("`{name}(...)` wraps a sum of games"), value.span)
                    .with_help(format!("for example `{example}`")),
            );
        };
        let position = context.build_sum(inner)?;
        if position.convention != Convention::Normal || !matches!(position.compound, Compound::Sum)
        {
            return Err(LangError::new(
                format!("`{name}(...)` wraps a plain sum of games, not another wrapper"),
                inner.span,
            ));
        }
        sums.push((position.groups, inner.span));
    }
    Ok(sums)
}

/// Builds `misere(SUM)`: the sum it wraps under `convention`.
///
/// # Errors
/// Parameters given, not exactly one sum, or a sum that is itself wrapped.
pub(crate) fn wrapped(
    term: &Term,
    convention: Convention,
    context: &BuildContext<'_>,
) -> Result<Position, LangError> {
    let name = &term.name;
    if term.has_brackets {
        return Err(LangError::new(
            format!("`{name}` takes no parameters"),
            term.name_span,
        ));
    }
    let inner = match term.args.as_slice() {
        [value] => match &value.kind {
            ValueKind::Sum(inner) => inner,
            _ => {
                return Err(LangError::new(
                    format!("`{name}(...)` wraps a sum of games"),
                    value.span,
                )
                .with_help(format!("for example `{name}(nim(1, 2, 3))`")));
            }
        },
        _ => {
            return Err(LangError::new(
                format!("`{name}(...)` wraps exactly one sum of games"),
                term.span,
            )
            .with_help(format!(
                "join the games with `+`: `{name}(nim(1, 2) + bash[3](5))`"
            )));
        }
    };
    let position = context.build_sum(inner)?;
    if position.convention != Convention::Normal || !matches!(position.compound, Compound::Sum) {
        return Err(LangError::new(
            format!("`{name}(...)` cannot wrap another convention"),
            inner.span,
        ));
    }
    Ok(Position {
        convention,
        ..position
    })
}
