//! The catalogue's answers for random sums against an independent brute force:
//! the rules written again from scratch, the whole sum searched as ONE game
//! (no splitting), under both conventions.
//!
//! This checks the Sprague-Grundy theorem in practice (the nimber of a sum is
//! the nim-sum of its parts' nimbers), the misère search, the exact count of
//! winning moves, and that every listed winning move leads to a P-position.

use grundy::catalogue::build;
use grundy::lang::parse;
use grundy::sums::analysis::{Answer, SolveOptions, solve};
use grundy::theory::game::{ImpartialGame, Outcome};
use grundy::theory::solver::Solver;
use proptest::prelude::*;

#[derive(Clone, Debug)]
enum Rule {
    Nim,
    Bash(u32),
    Subtraction(Vec<u32>),
}

impl Rule {
    fn takes(&self, heap: u32) -> Vec<u32> {
        match self {
            Self::Nim => (1..=heap).collect(),
            Self::Bash(m) => (1..=heap.min(*m)).collect(),
            Self::Subtraction(set) => set.iter().copied().filter(|&s| s <= heap).collect(),
        }
    }

    fn head(&self) -> String {
        match self {
            Self::Nim => "nim".to_owned(),
            Self::Bash(m) => format!("bash[{m}]"),
            Self::Subtraction(set) => {
                format!(
                    "sub[{}]",
                    set.iter()
                        .map(u32::to_string)
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            }
        }
    }
}

/// A sum of heaps, each with its own rule, searched as one game.
struct WholeSum(Vec<Rule>);

impl ImpartialGame for WholeSum {
    type Position = Vec<u32>;
    fn moves(&self, heaps: &Vec<u32>, moves: &mut Vec<Vec<u32>>) {
        for (i, (&heap, rule)) in heaps.iter().zip(&self.0).enumerate() {
            for take in rule.takes(heap) {
                let mut next = heaps.clone();
                next[i] -= take;
                moves.push(next);
            }
        }
    }
}

fn rule_strategy() -> impl Strategy<Value = Rule> {
    prop_oneof![
        Just(Rule::Nim),
        (1u32..5).prop_map(Rule::Bash),
        prop::collection::btree_set(1u32..7, 1..4)
            .prop_map(|s| Rule::Subtraction(s.into_iter().collect())),
    ]
}

fn expression(rules: &[Rule], heaps: &[u32], misere: bool) -> String {
    let terms: Vec<String> = rules
        .iter()
        .zip(heaps)
        .map(|(rule, heap)| format!("{}({heap})", rule.head()))
        .collect();
    let sum = terms.join(" + ");
    if misere {
        format!("misere({sum})")
    } else {
        sum
    }
}

fn answer(text: &str) -> Answer {
    let position = build(&parse(text).unwrap()).unwrap();
    solve(&position, &SolveOptions::default()).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn sums_agree_with_searching_the_whole_sum(
        parts in prop::collection::vec((rule_strategy(), 0u32..9), 1..4),
        misere in any::<bool>(),
    ) {
        let (rules, heaps): (Vec<Rule>, Vec<u32>) = parts.into_iter().unzip();
        let game = WholeSum(rules.clone());
        let mut solver = Solver::new(&game);
        let text = expression(&rules, &heaps, misere);
        let answer = answer(&text);
        let (outcome, winning) = if misere {
            (solver.misere_outcome(&heaps).unwrap(), solver.winning_moves_under(grundy::theory::game::Convention::Misere, &heaps).unwrap())
        } else {
            let nimber = solver.nimber(&heaps).unwrap();
            prop_assert_eq!(answer.nimber.clone(), Some(nimber.into()), "{}", text);
            (Outcome::from_nimber(nimber.into()), solver.winning_moves(&heaps).unwrap())
        };
        prop_assert_eq!(answer.outcome, outcome, "{}", text);
        prop_assert_eq!(answer.winning_move_count.clone(), winning.len().into(), "{}", text);
        prop_assert!(!answer.truncated);
        // The listed moves are exactly the brute force's, in order.
        let canonical = |text: String| build(&parse(&text).unwrap()).unwrap().to_string();
        let expected: Vec<String> =
            winning.iter().map(|next| canonical(expression(&rules, next, misere))).collect();
        let listed: Vec<String> = answer.winning_moves.iter().map(|m| answer.target(m)).collect();
        prop_assert_eq!(&listed, &expected);
        for target in &listed {
            prop_assert_eq!(self::answer(target).outcome, Outcome::PreviousPlayerWins, "{} -> {}", text, target);
        }
        // The canonical text parses back to the same position.
        let reparsed = self::answer(answer.position.as_str());
        prop_assert_eq!(reparsed.position.as_str(), answer.position.as_str());
    }
}
