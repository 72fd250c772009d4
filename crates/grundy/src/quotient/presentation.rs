//! A presentation of a quotient: generators named `a, b, c, ...` (the class of
//! the first heap outside the monoid generated so far), every element written
//! as its least monomial (degree first, then `a > b > c`, a monomial order), and
//! the relations `u = v` for each least monomial `u` that is not the normal form
//! of its element though every divisor of it is. These relations rewrite any
//! monomial to its normal form (the normal forms are closed under division, as
//! in a Gröbner staircase), so they present the monoid.

use rustc_hash::FxHashMap;

use super::MisereQuotient;

/// Generators, normal forms and relations of a quotient.
#[derive(Clone, Debug)]
pub struct Presentation {
    /// Each generator: its name, the first heap of its class, and the class.
    pub generators: Vec<(String, u64, u32)>,
    /// The least monomial of each element (exponents of the generators).
    pub normal_forms: Vec<Vec<u32>>,
    /// The relations `left = right`, monomials.
    pub relations: Vec<(Vec<u32>, Vec<u32>)>,
}

fn name(index: usize) -> String {
    let letters = b"abcdefghijklmnopqrstuvwxyz";
    if index < letters.len() {
        (letters[index] as char).to_string()
    } else {
        format!("g{index}")
    }
}

/// Degree first, then more of an earlier generator first.
fn order_key(monomial: &[u32]) -> (u32, Vec<std::cmp::Reverse<u32>>) {
    (
        monomial.iter().sum(),
        monomial.iter().map(|&e| std::cmp::Reverse(e)).collect(),
    )
}

impl Presentation {
    pub(crate) fn of(quotient: &MisereQuotient) -> Self {
        let order = quotient.order();
        // Generators: heap classes in heap order, each one not yet generated.
        let mut generators: Vec<(String, u64, u32)> = Vec::new();
        let mut generated = vec![false; order];
        generated[0] = true;
        for (heap, &class) in quotient.heap_map().iter().enumerate() {
            if generated[class as usize] {
                continue;
            }
            generators.push((name(generators.len()), heap as u64, class));
            // The closure of the monoid under every generator so far.
            let mut stack: Vec<u32> = (0..order as u32)
                .filter(|&e| generated[e as usize])
                .collect();
            while let Some(e) = stack.pop() {
                for &(_, _, g) in &generators {
                    let to = quotient.times(e, g);
                    if !generated[to as usize] {
                        generated[to as usize] = true;
                        stack.push(to);
                    }
                }
            }
        }
        let g = generators.len();
        let mut normal_forms: Vec<Option<Vec<u32>>> = vec![None; order];
        normal_forms[0] = Some(vec![0; g]);
        let mut is_normal: FxHashMap<Vec<u32>, u32> = FxHashMap::default();
        is_normal.insert(vec![0; g], 0);
        let mut frontier = vec![0u32];
        let mut relations = Vec::new();
        while !frontier.is_empty() {
            let mut candidates: Vec<(Vec<u32>, u32)> = Vec::new();
            for &x in &frontier {
                let base = normal_forms[x as usize].clone().unwrap_or_default();
                for (i, &(_, _, generator)) in generators.iter().enumerate() {
                    let mut monomial = base.clone();
                    monomial[i] += 1;
                    candidates.push((monomial, quotient.times(x, generator)));
                }
            }
            candidates.sort_by_key(|(m, _)| order_key(m));
            candidates.dedup_by(|a, b| a.0 == b.0);
            let mut next = Vec::new();
            for (monomial, element) in candidates {
                match &normal_forms[element as usize] {
                    None => {
                        normal_forms[element as usize] = Some(monomial.clone());
                        is_normal.insert(monomial, element);
                        next.push(element);
                    }
                    Some(normal) if *normal != monomial => {
                        let minimal = (0..g).filter(|&j| monomial[j] > 0).all(|j| {
                            let mut divisor = monomial.clone();
                            divisor[j] -= 1;
                            is_normal.contains_key(&divisor)
                        });
                        if minimal {
                            relations.push((monomial, normal.clone()));
                        }
                    }
                    Some(_) => {}
                }
            }
            frontier = next;
        }
        Self {
            generators,
            normal_forms: normal_forms
                .into_iter()
                .map(Option::unwrap_or_default)
                .collect(),
            relations,
        }
    }

    /// A monomial as text: `1`, `a`, `a^2 b`.
    pub fn monomial(&self, monomial: &[u32]) -> String {
        let parts: Vec<String> = monomial
            .iter()
            .enumerate()
            .filter(|&(_, &e)| e > 0)
            .map(|(i, &e)| {
                let name = &self.generators[i].0;
                if e == 1 {
                    name.clone()
                } else {
                    format!("{name}^{e}")
                }
            })
            .collect();
        if parts.is_empty() {
            "1".to_owned()
        } else {
            parts.join(" ")
        }
    }

    /// An element as text: its normal form.
    pub fn element(&self, element: u32) -> String {
        self.monomial(&self.normal_forms[element as usize])
    }

    /// The relations as text: `a^2 = 1`.
    pub fn relation_texts(&self) -> Vec<String> {
        self.relations
            .iter()
            .map(|(left, right)| format!("{} = {}", self.monomial(left), self.monomial(right)))
            .collect()
    }
}
