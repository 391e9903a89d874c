//! Tableaux from the literature, as a student would type them, for the tests.
#![allow(dead_code)]

use odelab::method;
use odelab::tableau::{Entry, TableauSpec};

fn texts(v: &[&str]) -> Vec<Entry> {
    v.iter().map(|&s| Entry::from(s)).collect()
}

/// A tableau typed as strings (fractions), rows of A given in full.
pub fn typed(a: &[&[&str]], b: &[&str], b_hat: Option<&[&str]>) -> TableauSpec {
    TableauSpec {
        a: a.iter().map(|r| texts(r)).collect(),
        b: texts(b),
        c: None,
        b_hat: b_hat.map(texts),
    }
}

/// A catalogue tableau as a full s × s matrix of numbers, with b̂ = b − E when the
/// method has error weights.
pub fn catalogue(id: &str) -> TableauSpec {
    let tab = method::tableau(id).expect("an explicit RK method");
    let s = tab.b.len();
    let a = tab
        .a
        .iter()
        .map(|row| {
            let mut full = row.to_vec();
            full.resize(s, 0.0);
            full
        })
        .collect();
    let mut spec = TableauSpec::from_numbers(a, tab.b.to_vec(), Some(tab.c.to_vec()));
    spec.b_hat = tab.error.map(|e| {
        tab.b
            .iter()
            .zip(e)
            .map(|(b, e)| Entry::Number(b - e))
            .collect()
    });
    spec
}

/// Classical RK4 typed as fractions.
pub fn rk4_typed() -> TableauSpec {
    typed(
        &[
            &["0", "0", "0", "0"],
            &["1/2", "0", "0", "0"],
            &["0", "1/2", "0", "0"],
            &["0", "0", "1", "0"],
        ],
        &["1/6", "1/3", "1/3", "1/6"],
        None,
    )
}

/// Kutta's 3/8 rule (Hairer–Nørsett–Wanner I, Table II.1.2, right).
pub fn three_eighths() -> TableauSpec {
    typed(
        &[
            &["0", "0", "0", "0"],
            &["1/3", "0", "0", "0"],
            &["-1/3", "1", "0", "0"],
            &["1", "-1", "1", "0"],
        ],
        &["1/8", "3/8", "3/8", "1/8"],
        None,
    )
}

/// Ralston's second-order method (a21 = 2/3, b = (1/4, 3/4)).
pub fn ralston() -> TableauSpec {
    typed(&[&["0", "0"], &["2/3", "0"]], &["1/4", "3/4"], None)
}

/// Bogacki–Shampine 3(2) typed with its embedded weights (HNW-style, FSAL).
pub fn bogacki_shampine() -> TableauSpec {
    typed(
        &[
            &["0", "0", "0", "0"],
            &["1/2", "0", "0", "0"],
            &["0", "3/4", "0", "0"],
            &["2/9", "1/3", "4/9", "0"],
        ],
        &["2/9", "1/3", "4/9", "0"],
        Some(&["7/24", "1/4", "1/3", "1/8"]),
    )
}
