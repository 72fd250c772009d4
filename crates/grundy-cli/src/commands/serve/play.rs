//! What the playground shows of a position, and the engine's move.
//!
//! [`analyse`] answers a position as `grundy solve --json` does and adds what a
//! player needs to see: each component with its nimber (`parts`, `nim_sum`) and
//! every available move with the value of the position it leads to (`moves`),
//! so that the page can colour each move win or lose. [`engine_move`] chooses a
//! move as a perfect player does: the quickest win, or the slowest loss (by
//! remoteness, when the sum's graph is small enough to search whole).
//!
//! Every solve here runs within the server's budget ([`Budget`]): a state
//! limit, build limits, and a deadline checked by the search's progress hook
//! and between moves.

use std::sync::Arc;
use std::time::{Duration, Instant};

use grundy::analysis::{Answer, ProgressHook, SolveOptions, solve};
use grundy::catalogue::{BuildLimits, build_with};
use grundy::family::Part;
use grundy::game::Convention;
use grundy::lang::parse_with_limits;
use grundy::sums::position::{Compound, Position};
use grundy::sums::remoteness::remotenesses;
use num_bigint::BigUint;
use serde::Serialize;
use serde_json::Value;

use super::view::{DrawingView, Integer, Target, target};
use crate::commands::solve::answer_json;
use crate::failure::Failure;

/// What one request may spend.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    /// The most positions a search may store (`--max-states`).
    pub max_states: usize,
    /// The most decimal digits of an integer (`--max-digits`).
    pub max_digits: usize,
    /// The work and memory allowed for heap values (`--max-work`, `--max-memory`).
    pub build: BuildLimits,
    /// The most moves listed with their values (`--max-options`).
    pub max_options: usize,
    /// When the request must be answered.
    pub deadline: Instant,
    /// The time allowed, for messages (`--request-time`).
    pub time: Duration,
}

/// The payload of the panic by which the progress hook stops a search whose
/// deadline has passed; caught around the solve (see `serve::compute`).
#[derive(Debug)]
pub struct TimeUp;

impl Budget {
    /// The failure of a request that ran out of time.
    pub fn time_up(&self) -> Failure {
        Failure::Limit(format!(
            "error: the request took longer than {} s (the time limit); the server's --request-time SECONDS raises it",
            self.time.as_secs_f64()
        ))
    }

    fn check_time(&self) -> Result<(), Failure> {
        if Instant::now() > self.deadline {
            Err(self.time_up())
        } else {
            Ok(())
        }
    }

    /// Solve options within the budget; the search stops (by a [`TimeUp`]
    /// panic) once the deadline has passed.
    fn options(&self, winning_moves: bool) -> SolveOptions {
        let deadline = self.deadline;
        let hook: ProgressHook = Arc::new(move |_| {
            if Instant::now() > deadline {
                std::panic::panic_any(TimeUp);
            }
        });
        SolveOptions {
            max_states: self.max_states,
            max_memory: self.build.bytes,
            progress: Some(hook),
            winning_moves,
            ..Default::default()
        }
    }
}

/// Positions naming files (`@PATH`, `script[@g.rhai]`) are refused: the server
/// must not read its own files for whoever asks.
pub fn refuse_files(source: &str) -> Result<(), Failure> {
    if source.contains('@') {
        return Err(Failure::Input(
            "error: positions read from files (`@PATH`) are not accepted by the web server; \
             write the position out in full"
                .to_owned(),
        ));
    }
    Ok(())
}

/// A position parsed, built and answered.
struct Solved {
    position: Position,
    answer: Answer,
}

fn solve_source(source: &str, budget: &Budget) -> Result<Solved, Failure> {
    refuse_files(source)?;
    let sum =
        parse_with_limits(source, budget.max_digits).map_err(|e| Failure::language(&e, source))?;
    let position = build_with(&sum, budget.build).map_err(|e| Failure::language(&e, source))?;
    budget.check_time()?;
    let answer = solve(&position, &budget.options(true)).map_err(|e| Failure::search(&e))?;
    Ok(Solved { position, answer })
}

/// One available move and the value of the position it leads to.
struct Option_ {
    to: String,
    /// The term the changed component becomes (`nim(4)`), as in `solve --json`'s compact form.
    component_to: String,
    description: String,
    term: usize,
    component: usize,
    /// The answer after the move; `None` when it could not be found in budget.
    after: Result<(bool, Option<BigUint>), String>,
    /// Moves the opponent has after it (the engine's measure of length when
    /// remoteness is out of reach).
    replies: usize,
    /// The position after the move.
    position_after: Position,
    /// What a click on the component's picture plays this move, if anything.
    target: Option<Target>,
}

impl Option_ {
    /// Whether the move wins: it leaves the opponent a lost position.
    fn wins(&self) -> Option<bool> {
        self.after.as_ref().ok().map(|(next_wins, _)| !next_wins)
    }

    /// The move as the page reads it.
    fn view(&self) -> MoveView {
        let (outcome, nimber, error) = match &self.after {
            Ok((next_wins, nimber)) => (
                Some(if *next_wins { "N" } else { "P" }),
                nimber.as_ref().map(Integer::from),
                None,
            ),
            Err(message) => (None, None, Some(message.clone())),
        };
        MoveView {
            to: self.to.clone(),
            component_to: Some(self.component_to.clone()),
            description: self.description.clone(),
            term: self.term,
            component: self.component,
            outcome,
            nimber,
            wins: self.wins(),
            error,
            target: self.target.clone(),
        }
    }
}

/// One move as the page reads it: where it leads, its value, and what a click
/// on the drawing plays it.
#[derive(Clone, Debug, Serialize)]
pub struct MoveView {
    /// The whole position after the move.
    to: String,
    /// The term the moved component becomes (`nim(4)`); absent for a move
    /// the solver gave without listing the component's moves.
    #[serde(skip_serializing_if = "Option::is_none")]
    component_to: Option<String>,
    /// The move for people: "take 2 from the heap of 7".
    #[serde(rename = "move")]
    description: String,
    /// The index of the term (group) the move is made in.
    term: usize,
    /// The index of the component within its term.
    component: usize,
    /// Who wins after the move: `"N"` (the player then to move) or `"P"`;
    /// null when it could not be found within the budget.
    outcome: Option<&'static str>,
    /// The nimber after the move, where known.
    nimber: Option<Integer>,
    /// Whether the move wins, where known.
    wins: Option<bool>,
    /// Why the value after the move is not known.
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    /// What a click on the component's drawing plays this move, if a single
    /// thing drawn stands for it.
    target: Option<Target>,
}

/// Every move of `solved` (a plain sum) with its value, at most
/// `budget.max_options`; the flag says whether all were listed.
fn options(solved: &Solved, budget: &Budget) -> Result<(Vec<Option_>, bool), Failure> {
    let position = &solved.position;
    let mut found = Vec::new();
    let mut complete = true;
    // The moves of each component, counted once: the moves after a move are
    // these but for the component moved, replaced by what it leaves.
    let count = |part: &Part| {
        part.moves(budget.max_options)
            .map_or(budget.max_options, |moves| moves.len())
    };
    let counts: Vec<Vec<usize>> = position
        .groups
        .iter()
        .map(|group| group.parts.iter().map(count).collect())
        .collect();
    let total: usize = counts.iter().flatten().sum();
    for (g, group) in position.groups.iter().enumerate() {
        for (i, part) in group.parts.iter().enumerate() {
            let drawing = part.drawing();
            let room = budget.max_options.saturating_sub(found.len());
            let moves = match part.moves(room) {
                Ok(moves) if moves.len() <= room => moves,
                _ => {
                    complete = false;
                    continue;
                }
            };
            for leaves in moves {
                budget.check_time()?;
                let after = Position {
                    convention: position.convention,
                    compound: Compound::Sum,
                    groups: position.groups_after(g, i, &leaves),
                };
                let value = solve(&after, &budget.options(false))
                    .map(|answer| (answer.outcome.first_player_wins(), answer.nimber))
                    .map_err(|e| message_of(Failure::search(&e)));
                found.push(Option_ {
                    to: solved.answer.position.replacing(g, i, &leaves),
                    component_to: group.term_with(&leaves),
                    description: part.describe_move(&leaves),
                    term: g,
                    component: i,
                    after: value,
                    replies: total - counts[g][i] + leaves.iter().map(count).sum::<usize>(),
                    position_after: after,
                    target: drawing.as_ref().and_then(|before| target(before, &leaves)),
                });
            }
        }
    }
    Ok((found, complete))
}

/// A failure's message without its `error: ` prefix.
pub fn message_of(failure: Failure) -> String {
    let text = match failure {
        Failure::Input(text) | Failure::Limit(text) => text,
        Failure::Output(error) => error.to_string(),
        Failure::Reported(code) => format!("failed with exit code {code}"),
    };
    text.strip_prefix("error: ").unwrap_or(&text).to_owned()
}

/// One component of the sum: its term, where it stands, its nimber alone
/// under normal play and its picture.
#[derive(Debug, Serialize)]
pub struct PartView {
    /// The component as a term of its own: `nim(5)`.
    term: String,
    /// The index of its term (group) in the sum.
    group: usize,
    /// Its index within the term.
    component: usize,
    /// Its nimber under normal play, where known.
    nimber: Option<Integer>,
    /// Its picture, if its family draws it.
    drawing: Option<DrawingView>,
}

/// Each component alone with its nimber under normal play, and the nim-sum
/// of them all when every one is known.
fn parts(
    position: &Position,
    budget: &Budget,
) -> Result<(Vec<PartView>, Option<BigUint>), Failure> {
    let mut parts = Vec::new();
    let mut nim_sum = Some(BigUint::default());
    for (g, group) in position.groups.iter().enumerate() {
        for (i, part) in group.parts.iter().enumerate() {
            budget.check_time()?;
            let nimber = part_nimber(group, part, budget);
            nim_sum = match (nim_sum, &nimber) {
                (Some(sum), Some(nimber)) => Some(sum ^ nimber),
                _ => None,
            };
            parts.push(PartView {
                term: group.term_with(std::slice::from_ref(part)),
                group: g,
                component: i,
                nimber: nimber.as_ref().map(Integer::from),
                drawing: part.drawing().as_ref().map(DrawingView::from),
            });
        }
    }
    Ok((parts, nim_sum))
}

fn part_nimber(
    group: &grundy::sums::position::Group,
    part: &Part,
    budget: &Budget,
) -> Option<BigUint> {
    if let Some((nimber, _)) = part.nimber_by_theory() {
        return Some(nimber);
    }
    let alone = Position::sum(
        Convention::Normal,
        vec![group.with_parts(vec![part.clone()])],
    );
    solve(&alone, &budget.options(false)).ok()?.nimber
}

/// The playground's answer: the `solve --json` object with `parts` (each
/// component, its nimber and its drawing), `nim_sum`, `moves` (every move with
/// the outcome and nimber after it, whether it wins and what a click on the
/// drawing plays it) and `moves_complete`.
#[derive(Debug, Serialize)]
pub struct Analysis {
    /// The `solve --json` object, its fields first.
    #[serde(flatten)]
    answer: Value,
    /// Each component alone.
    parts: Vec<PartView>,
    /// The nim-sum of the parts' nimbers, when all are known.
    nim_sum: Option<Integer>,
    /// Every move listed, with its value.
    moves: Vec<MoveView>,
    /// Whether every move is listed.
    moves_complete: bool,
    /// Why moves are missing, when they are.
    #[serde(skip_serializing_if = "Option::is_none")]
    play_note: Option<String>,
}

/// Answers `source` for the playground: see [`Analysis`].
pub fn analyse(source: &str, budget: &Budget) -> Result<Analysis, Failure> {
    let solved = solve_source(source, budget)?;
    let answer = answer_json(&solved.answer, &solved.position);
    if solved.position.compound != Compound::Sum {
        return Ok(Analysis {
            answer,
            parts: Vec::new(),
            nim_sum: None,
            moves: Vec::new(),
            moves_complete: false,
            play_note: Some(
                "the playground lists the moves of plain sums only (not every(...) or rounds[k](...))"
                    .to_owned(),
            ),
        });
    }
    let (parts, nim_sum) = parts(&solved.position, budget)?;
    let (moves, complete) = options(&solved, budget)?;
    Ok(Analysis {
        answer,
        parts,
        nim_sum: nim_sum.as_ref().map(Integer::from),
        moves: moves.iter().map(Option_::view).collect(),
        moves_complete: complete,
        play_note: (!complete).then(|| {
            format!(
                "not every move is listed: a component has too many moves (the server lists at most {}; --max-options raises it)",
                budget.max_options
            )
        }),
    })
}

/// The most positions (and components) the engine's remoteness search stores; past
/// it the engine falls back on counting the opponent's replies.
const REMOTENESS_LIMIT: usize = 50_000;

/// The remoteness after each listed move (`grundy::sums::remoteness`), when the
/// sum is a plain normal-play sum whose graph fits the limit.
fn remoteness_after(moves: &[Option_], budget: &Budget) -> Option<Vec<u32>> {
    let positions: Vec<Position> = moves.iter().map(|m| m.position_after.clone()).collect();
    let limit = budget.max_states.min(REMOTENESS_LIMIT);
    remotenesses(&positions, limit).ok().flatten()
}

/// The engine's answer: its move and why.
#[derive(Debug, Serialize)]
pub struct EngineReply {
    /// The position the engine moves from.
    position: String,
    /// Who wins it: `"N"` or `"P"`.
    outcome: String,
    /// The move, as in [`Analysis`]'s moves; null when there is none.
    #[serde(rename = "move")]
    chosen: Option<MoveView>,
    /// `"winning"`, `"prolonging"`, or why there is no move.
    reason: &'static str,
    /// How many moves the game lasts after the engine's move under perfect
    /// play, when the remoteness was found.
    remoteness: Option<u32>,
    /// How the move was chosen: `"remoteness"` or `"replies"`.
    by: &'static str,
}

/// The engine's move from `source`:
/// `{"position", "outcome", "move", "reason", "remoteness", "by"}`.
///
/// A perfect player's move when the sum's graph is small enough to search whole
/// (normal play; `by`: `"remoteness"`): the winning move that wins quickest, or in a
/// lost position the move that makes the loss slowest, so that the opponent must keep
/// finding winning moves as long as possible (Steinhaus's and Smith's remoteness,
/// Winning Ways ch. 9). `remoteness` is then how many moves the game lasts after the
/// engine's move under such play. Otherwise (`by`: `"replies"`): the first winning
/// move, or the move that leaves the opponent the most moves of their own (ties: the
/// largest nimber after it, then the first listed). `move` is null when there is no
/// move (the player to move has lost).
pub fn engine_move(source: &str, budget: &Budget) -> Result<EngineReply, Failure> {
    let solved = solve_source(source, budget)?;
    let answer = &solved.answer;
    let outcome = answer.outcome.letter().to_string();
    let (moves, _) = if solved.position.compound == Compound::Sum {
        options(&solved, budget)?
    } else {
        (Vec::new(), false)
    };
    budget.check_time()?;
    let remoteness = remoteness_after(&moves, budget);
    let mut by = if remoteness.is_some() {
        "remoteness"
    } else {
        "replies"
    };
    let remoteness_of = |index: usize| remoteness.as_ref().map(|r| r[index]);
    // The quickest win: a winning move (the solver's word) to the least remoteness,
    // which is even (a P-position) exactly when the move wins.
    let winning = moves
        .iter()
        .enumerate()
        .filter(|(_, m)| m.wins() == Some(true))
        .min_by_key(|&(index, _)| remoteness_of(index));
    let (chosen, reason) = if let Some((index, winning)) = winning {
        (Some((winning.view(), remoteness_of(index))), "winning")
    } else if let Some(first) = answer.winning_moves.first() {
        // Moves not listed (a huge component): the solver's first winning move.
        let to = answer.target(first);
        by = "replies";
        (
            Some((
                MoveView {
                    to,
                    component_to: None,
                    description: first.description.clone(),
                    term: first.group,
                    component: first.part,
                    outcome: Some("P"),
                    nimber: Some(Integer::Small(0)),
                    wins: Some(true),
                    error: None,
                    target: None,
                },
                None,
            )),
            "winning",
        )
    } else {
        let nimber = |m: &Option_| m.after.as_ref().ok().and_then(|(_, n)| n.clone());
        let longest = moves.iter().enumerate().max_by(|&(ia, a), &(ib, b)| {
            remoteness_of(ia)
                .cmp(&remoteness_of(ib))
                .then_with(|| a.replies.cmp(&b.replies))
                .then_with(|| nimber(a).cmp(&nimber(b)))
                .then_with(|| ib.cmp(&ia))
        });
        match longest {
            Some((index, chosen)) => (Some((chosen.view(), remoteness_of(index))), "prolonging"),
            None if answer.outcome.first_player_wins() => (None, "no move listed"),
            None => (None, "no move: the player to move has lost"),
        }
    };
    let (chosen, remoteness) = chosen.unzip();
    Ok(EngineReply {
        position: answer.position.as_str().to_owned(),
        outcome,
        chosen,
        reason,
        remoteness: remoteness.flatten(),
        by,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The playground's answer as the page reads it.
    fn analysed(source: &str, budget: &Budget) -> Value {
        serde_json::to_value(analyse(source, budget).unwrap()).unwrap()
    }

    /// The engine's answer as the page reads it.
    fn engine_answer(source: &str, budget: &Budget) -> Value {
        serde_json::to_value(engine_move(source, budget).unwrap()).unwrap()
    }

    fn budget() -> Budget {
        Budget {
            max_states: 100_000,
            max_digits: 100,
            build: BuildLimits::default(),
            max_options: 50,
            deadline: Instant::now() + Duration::from_secs(60),
            time: Duration::from_secs(60),
        }
    }

    #[test]
    fn files_are_refused_and_messages_lose_their_prefix() {
        assert!(refuse_files("nim(3, 5)").is_ok());
        let refused = refuse_files("nim(@heaps.txt)").unwrap_err();
        assert!(message_of(refused).starts_with("positions read from files"));
    }

    #[test]
    fn every_move_is_valued_and_the_engine_prolongs_a_lost_game() {
        let answer = analysed("nim(1, 2) + bash[2](3)", &budget());
        // G(1) ^ G(2) ^ G_bash2(3) = 1 ^ 2 ^ 0.
        assert_eq!(answer["nim_sum"], 3);
        assert_eq!(answer["moves"].as_array().unwrap().len(), 1 + 2 + 2);
        let engine = engine_answer("nim(1, 2) + bash[2](3)", &budget());
        assert_eq!(engine["reason"], "winning");
        assert_eq!(engine["move"]["to"], "nim(1, 1) + bash[2](3)");
        // Lost: the move leaving the most moves takes one token from the heap of 2.
        let engine = engine_answer("nim(2, 2)", &budget());
        assert_eq!(engine["reason"], "prolonging");
        assert_eq!(engine["move"]["to"], "nim(1, 2)");
    }

    /// The remoteness of a position in the playground's text.
    fn remoteness(source: &str) -> u32 {
        let position = build_with(
            &parse_with_limits(source, 100).unwrap(),
            BuildLimits::default(),
        );
        remotenesses(&[position.unwrap()], 100_000)
            .unwrap()
            .unwrap()[0]
    }

    #[test]
    fn the_engine_wins_quickest_and_loses_slowest() {
        for source in [
            "nim(3, 5, 6, 7)",
            "nim(2, 3) + kayles(5)",
            "wythoff(4, 9)",
            "sub[1, 2](5) + nim(1, 4)",
            "nim(2, 2)",
            "nim(1, 2, 3) + kayles(4)",
            "wythoff(3, 5) + nim(1, 1)",
        ] {
            let engine = engine_answer(source, &budget());
            assert_eq!(engine["by"], "remoteness", "{source}");
            let analysis = analysed(source, &budget());
            let moves = analysis["moves"].as_array().unwrap();
            let after: Vec<(u32, bool)> = moves
                .iter()
                .map(|m| (remoteness(m["to"].as_str().unwrap()), m["wins"] == true))
                .collect();
            let chosen = remoteness(engine["move"]["to"].as_str().unwrap());
            assert_eq!(engine["remoteness"], chosen, "{source}");
            if analysis["outcome"] == "N" {
                // The quickest win: the least remoteness among the winning moves,
                // and winning moves are exactly those to an even remoteness.
                assert_eq!(engine["reason"], "winning");
                let quickest = after
                    .iter()
                    .filter(|(_, wins)| *wins)
                    .map(|(r, _)| *r)
                    .min();
                assert_eq!(Some(chosen), quickest, "{source}");
                assert!(
                    after.iter().all(|&(r, wins)| wins == (r % 2 == 0)),
                    "{source}"
                );
            } else {
                assert_eq!(engine["reason"], "prolonging");
                let slowest = after.iter().map(|(r, _)| *r).max();
                assert_eq!(Some(chosen), slowest, "{source}");
            }
        }
    }

    #[test]
    fn past_the_remoteness_limit_the_engine_counts_replies() {
        let mut small = budget();
        small.max_states = 20;
        let engine = engine_answer("nim(6, 6, 6)", &small);
        assert_eq!(engine["by"], "replies");
        assert_eq!(engine["remoteness"], Value::Null);
        assert_eq!(engine["reason"], "winning");
    }

    #[test]
    fn parts_are_drawn_and_moves_say_what_a_click_plays() {
        let answer = analysed("nim(3) + wythoff(1, 2) + turtles(\"ht\")", &budget());
        let parts = answer["parts"].as_array().unwrap();
        assert_eq!(
            parts[0]["drawing"],
            serde_json::json!({"kind": "heaps", "heaps": [3]})
        );
        assert_eq!(
            parts[1]["drawing"],
            serde_json::json!({"kind": "wythoff", "x": 1, "y": 2})
        );
        assert_eq!(
            parts[2]["drawing"],
            serde_json::json!({"kind": "coins", "heads": [true, false]})
        );
        let target = |to: &str| {
            answer["moves"]
                .as_array()
                .unwrap()
                .iter()
                .find(|m| m["to"] == to)
                .map(|m| m["target"].clone())
                .unwrap_or_else(|| panic!("no move to {to}"))
        };
        assert_eq!(
            target("nim(1) + wythoff(1, 2) + turtles(\"ht\")"),
            serde_json::json!({"kind": "heap", "heap": 0, "level": 1})
        );
        assert_eq!(
            target("nim(3) + wythoff(0, 1) + turtles(\"ht\")"),
            serde_json::json!({"kind": "square", "x": 0, "y": 1})
        );
        assert_eq!(
            target("nim(3) + wythoff(1, 2) + turtles(\"tt\")"),
            serde_json::json!({"kind": "coin", "coin": 0})
        );
        // A split leaves no single thing drawn to click; the move is listed.
        let split = analysed("kayles(3)", &budget());
        let split = split["moves"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["to"] == "kayles(1, 1)")
            .unwrap()
            .clone();
        assert_eq!(split["target"], Value::Null);
        // Games without a drawing have none.
        let words = analysed("prefix_game([\"ab\"])", &budget());
        assert_eq!(words["parts"][0]["drawing"], Value::Null);
    }

    #[test]
    fn a_passed_deadline_is_the_time_limit() {
        let mut late = budget();
        late.deadline = Instant::now() - Duration::from_secs(1);
        let failure = analyse("nim(3, 5, 7)", &late).unwrap_err();
        assert!(message_of(failure).contains("(the time limit)"));
    }
}
