//! The JSON object of a misère quotient, as `grundy quotient --json` prints it
//! and Python's `grundy.quotient` returns it: one report for every front end.

use serde_json::{Value, json};

use super::MisereQuotient;

/// Whether the quotient holds for heaps of every size (its heap map's period
/// proven by the periodicity theorem for misère quotients), and the proof or
/// the reason in words.
#[must_use]
pub fn proof_text(quotient: &MisereQuotient) -> (bool, String) {
    match quotient.periodicity() {
        Some(period) => (true, period.proof()),
        None => (
            false,
            format!(
                "holds for heaps <= {} only: no period of the heap map is proven within them",
                quotient.heaps()
            ),
        ),
    }
}

/// The report of `quotient`, the quotient of the rule written `rule`: its
/// order, presentation, elements, P-portion, heap map, the orders of the
/// quotients of fewer heaps, whether it is proven (and how), and its table.
#[must_use]
pub fn to_json(quotient: &MisereQuotient, rule: &str) -> Value {
    let presentation = quotient.presentation();
    let (proven, proof) = proof_text(quotient);
    let elements: Vec<String> = (0..quotient.order() as u32)
        .map(|e| presentation.element(e))
        .collect();
    json!({
        "rule": rule,
        "n": quotient.heaps(),
        "order": quotient.order(),
        "presentation": {
            "generators": presentation.generators.iter()
                .map(|(name, heap, element)| json!({"name": name, "heap": heap, "element": element}))
                .collect::<Vec<_>>(),
            "relations": presentation.relation_texts(),
        },
        "elements": elements,
        "p_portion": quotient.p_portion(),
        "heap_map": quotient.heap_map(),
        "orders": quotient.orders(),
        "proven": proven,
        "proof": proof,
        "period": quotient.periodicity().map(|p| json!({"preperiod": p.preperiod, "period": p.period})),
        "table": quotient.table(),
    })
}
