//! Property-style robustness: random and garbled texts never panic; they give a system
//! or a typed error, and a system evaluates (to numbers or NaN) without panicking.

use odelab::expr::{compile_expr, UserSystem};
use odelab::problem::System;

/// xorshift64*: a small deterministic generator (no dependency).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const SEED_TEXT: &str = "# spring\nparam k = 100, c = 0.5\nx' = v\nv' = -k*x - c*v + sin(t) + \
                         if(x < 0, -1e3*x, 0)\nF = x > 0 ? x^2 : -x\nx(0) = 1, v(0) = 0\n\
                         output energy = 0.5*v^2 + 0.5*k*x^2\nevent ground: x, falling";

const PIECES: &[&str] = &[
    "x", "v", "k", "t", "(", ")", "(", ")", "+", "-", "*", "/", "^", "**", "'", "=", ",", ":", "?",
    "<", "<=", "==", "!=", "&&", "||", "!", "\n", ";", " ", "#", "1", "0", "1e-3", "1e308", ".5",
    "sin", "atan2", "if", "min", "param", "event", "output", "θ", "−", "€", "\t", "x'", "x(0)",
    "0/0", "sqrt(-1)", "log(0)", "e", "pi",
];

fn exercise(text: &str) {
    if let Ok(sys) = UserSystem::new(text, &Default::default()) {
        let n = sys.dim();
        let y: Vec<f64> = (0..n).map(|i| 0.3 * i as f64 - 0.5).collect();
        let mut dy = vec![0.0; n];
        sys.rhs(0.1, &y, &mut dy);
        let _ = sys.jacobian(0.1, &y);
        let _ = sys.dfdt(0.1, &y);
        for ev in sys.events() {
            let _ = ev.expr.eval(0.1, &y);
        }
    }
    if let Ok(e) = compile_expr(text, &["x".into(), "v".into()], &[("k".into(), 1.0)]) {
        let _ = e.eval(0.0, &[1.0, 2.0]);
        let mut g = [0.0; 3];
        e.gradient(0.0, &[1.0, 2.0], &mut g);
    }
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for _ in 0..1500 {
        let len = rng.below(60);
        let bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        exercise(&String::from_utf8_lossy(&bytes));
    }
}

#[test]
fn random_token_soup_never_panics() {
    let mut rng = Rng(42);
    for _ in 0..3000 {
        let n = rng.below(40);
        let text: String = (0..n).map(|_| PIECES[rng.below(PIECES.len())]).collect();
        exercise(&text);
    }
}

#[test]
fn garbled_systems_never_panic() {
    let mut rng = Rng(7);
    let chars: Vec<char> = SEED_TEXT.chars().collect();
    for _ in 0..2000 {
        let mut c = chars.clone();
        for _ in 0..1 + rng.below(4) {
            let i = rng.below(c.len());
            match rng.below(3) {
                0 => {
                    c.remove(i);
                }
                1 => c.insert(
                    i,
                    PIECES[rng.below(PIECES.len())]
                        .chars()
                        .next()
                        .unwrap_or(' '),
                ),
                _ => {
                    let j = rng.below(c.len());
                    c.swap(i, j)
                }
            }
        }
        exercise(&c.into_iter().collect::<String>());
    }
}

#[test]
fn edge_texts_never_panic() {
    for text in [
        "",
        " ",
        "\n\n\n",
        "#",
        "'",
        "x'",
        "x' =",
        "x(",
        "x(0",
        "x(0)",
        "x(0) =",
        "param",
        "param k",
        "event",
        "event e:",
        "output",
        "(((((",
        ")))))",
        "x' = 1e308*1e308",
        "x' = -0",
        "\u{feff}x' = 1",
        "x' = 1\r\nv' = 2\r\n",
    ] {
        exercise(text);
    }
    exercise(&format!("x' = {}", "sin(".repeat(100)));
    exercise(&"x' = 1\n".repeat(20_000));
}
