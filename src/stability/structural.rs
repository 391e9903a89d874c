//! The analysis of integrators for second-order systems on the undamped oscillator
//! q'' = −ω²q, against Ω = ωh (Hilber, Hughes & Taylor 1977 §3; Chung & Hulbert 1993
//! Figs. 1–3): the spectral radius ρ of the amplification matrix, the numerical damping
//! ratio ξ̄ and the relative period error (T̄ − T)/T of its principal roots.
//!
//! One step maps the state X_n to X_{n+1} = A(Ω) X_n. Its principal roots, the
//! complex pair that approximates e^{±iΩ}, are written λ = e^{Ω̄(−ξ̄ ± i)}
//! (Hilber, Hughes & Taylor 1977 eq. 20), so
//!
//! ```text
//! ξ̄ = −ln|λ| / Ω̄,    Ω̄ = arg λ,    (T̄ − T)/T = Ω/Ω̄ − 1.
//! ```
//!
//! Where the principal roots are real (no oscillation is left, e.g. generalized-α with
//! ρ∞ = 0 at large Ω, or an explicit method past its limit), ξ̄ and the period error are
//! undefined: NaN (a gap in the plot); ρ is always defined.
//!
//! The amplification of each method, from its own formulas:
//!
//! - generalized-α, HHT-α, Newmark (`crate::method::generalized_alpha`): the 3 × 3 matrix
//!   on X = (q, h v, h² a) derived in [`alpha_matrix`] (Chung & Hulbert 1993 eq. 11
//!   with v̇_n = −ω²q_n, a the acceleration-like variable), its characteristic cubic
//!   solved in closed form with a Newton polish; the limit ωh → ∞ in closed form
//!   ([`alpha_at_infinity`]);
//! - midpoint2 (Schwab & Delhaes §7.4) and Störmer–Verlet (Hairer, Lubich & Wanner,
//!   Geometric Numerical Integration, 2006, §I.1.4): 2 × 2 matrices on (q, h v);
//! - one-step methods on the first-order form y = (q, v), whose eigenvalues ±iω give
//!   the principal roots R(±iΩ): the explicit Runge–Kutta, Rosenbrock/W and Radau
//!   tableaux of the stability lab (`amplification.rs`), implicit midpoint
//!   R = (1 + z/2)/(1 − z/2), and LLM's e^z (exact: ρ = 1, no period error).

use super::amplification::Amplification;
use super::rational::Rational;
use super::spec::StabilitySpec;
use crate::error::OdeError;
use crate::math;
use crate::method::generalized_alpha::amplification::{self, quadratic_roots, roots_3, Roots};
use crate::method::generalized_alpha::{Coefficients, GENERALIZED_ALPHA, HHT_ALPHA, NEWMARK};
use crate::method::MethodParams;
use nalgebra::Complex;
use serde::Deserialize;

type C = Complex<f64>;

/// The most Ω values one request may ask for.
pub const MAX_POINTS: usize = 100_000;

/// The default Ω grid: 10^-2 … 10^3, 40 points a decade.
pub const DEFAULT_FROM: f64 = 1e-2;
pub const DEFAULT_TO: f64 = 1e3;
pub const DEFAULT_PER_DECADE: usize = 40;

/// The methods this analysis knows.
pub const IDS: &[&str] = &[
    "generalized-alpha",
    "hht-alpha",
    "newmark",
    "midpoint2",
    "stormer-verlet",
    "implicit-midpoint",
    "euler",
    "heun",
    "rk4",
    "bs23",
    "dp45",
    "backward-euler",
    "ros4",
    "w2",
    "radau5",
    "llm",
];

/// `structuralAnalysis` input (JS field names in camelCase).
#[derive(Debug, Clone, Default, PartialEq, Deserialize, tsify::Tsify)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StructuralSpec {
    /// One of [`IDS`].
    pub method: String,
    /// generalized-alpha's ρ∞, HHT's α, Newmark's β and γ (as a run's `methodParams`).
    #[serde(default)]
    #[tsify(optional)]
    pub method_params: Option<MethodParams>,
    /// The Ω = ωh values, each > 0 (default: [`DEFAULT_FROM`] … [`DEFAULT_TO`],
    /// [`DEFAULT_PER_DECADE`] a decade).
    #[serde(default)]
    #[tsify(optional)]
    pub omega_h: Option<Vec<f64>>,
}

/// The curves of one method.
#[derive(Debug, Clone, PartialEq)]
pub struct StructuralCurves {
    pub omega_h: Vec<f64>,
    /// ρ(A(Ω)): the largest root modulus.
    pub spectral_radius: Vec<f64>,
    /// ξ̄ = −ln|λ|/Ω̄ of the principal roots; NaN where they are real.
    pub damping_ratio: Vec<f64>,
    /// (T̄ − T)/T = Ω/Ω̄ − 1; NaN where the principal roots are real.
    pub period_error: Vec<f64>,
    /// lim ρ as Ω → ∞ (+∞ for an explicit method).
    pub spectral_radius_at_infinity: f64,
}

/// What a method's amplification is made of.
#[derive(Debug, Clone)]
pub enum Scheme {
    /// The generalized-α family's 3 × 3 matrix.
    Alpha(Coefficients),
    /// A 2 × 2 matrix on (q, h v).
    TwoByTwo(fn(f64) -> [[f64; 2]; 2]),
    /// R(iΩ) of a one-step method on the first-order form.
    Rational(Rational),
    /// e^{iΩ} (LLM: exact on linear systems).
    Exp,
}

/// midpoint2 on (q, h q') without damping: `crate::stability::midpoint2`'s matrix at ξ = iΩ.
fn midpoint2_matrix(w: f64) -> [[f64; 2]; 2] {
    crate::method::midpoint2::matrix(C::new(0.0, w))
}

/// Störmer–Verlet (velocity form): v_{½} = v − (h/2)ω²q, q' = q + h v_{½},
/// v' = v_{½} − (h/2)ω²q'; on (q, h v), with w = Ω.
fn stormer_verlet_matrix(w: f64) -> [[f64; 2]; 2] {
    let w2 = w * w;
    [
        [1.0 - 0.5 * w2, 1.0],
        [-w2 * (1.0 - 0.25 * w2), 1.0 - 0.5 * w2],
    ]
}

/// The amplification matrix of the generalized-α family on the undamped q'' = −ω²q,
/// X = (q, hv, h²a): [`amplification::matrix`] without damping.
pub fn alpha_matrix(c: &Coefficients, w: f64) -> [[f64; 3]; 3] {
    amplification::matrix(c, w * w, 0.0)
}

/// lim ρ(A(Ω)) as Ω → ∞ of the generalized-α family, in closed form. The limit matrix
/// is block lower triangular: row 1 is [−α_f/(1 − α_f), 0, 0], and rows 2–3, columns 2–3
/// are [[1 − γ/β, 1 − γ − γ(½ − β)/β], [−1/β, −(½ − β)/β]], of trace T = 2 − s/β and
/// determinant 1 + (½ − γ)/β, s = γ + ½, whose discriminant T²/4 − det is
/// (s² − 4β)/(4β²): a double root 1 − 2/s when β = s²/4. With Chung & Hulbert's
/// parameters every root is −ρ∞. β = 0 (explicit) has no limit: +∞.
pub fn alpha_at_infinity(c: &Coefficients) -> f64 {
    let Coefficients {
        alpha_f,
        beta,
        gamma,
        ..
    } = *c;
    if beta <= 0.0 {
        return f64::INFINITY;
    }
    let first = (alpha_f / (1.0 - alpha_f)).abs();
    let s = gamma + 0.5;
    let half_trace = 1.0 - s / (2.0 * beta);
    let det = 1.0 + (0.5 - gamma) / beta;
    let disc = (s * s - 4.0 * beta) / (4.0 * beta * beta);
    let block = if disc >= 0.0 {
        half_trace.abs() + disc.sqrt()
    } else {
        det.sqrt()
    };
    first.max(block)
}

/// The roots of a real 2 × 2 matrix.
fn roots_2(m: [[f64; 2]; 2]) -> Roots {
    let half = 0.5 * (m[0][0] + m[1][1]);
    let det = m[0][0] * m[1][1] - m[0][1] * m[1][0];
    quadratic_roots(half, det)
}

impl Scheme {
    /// The scheme of `method` with its parameters.
    pub fn of(method: &str, params: Option<&MethodParams>) -> Result<Self, OdeError> {
        if !IDS.contains(&method) {
            return Err(OdeError::UnknownMethod {
                id: method.to_string(),
                known: IDS.iter().map(|s| s.to_string()).collect(),
            });
        }
        let family = [&GENERALIZED_ALPHA, &HHT_ALPHA, &NEWMARK]
            .iter()
            .any(|m| m.id == method);
        if family {
            let c = Coefficients::from_params(method, params.unwrap_or(&MethodParams::default()))?;
            return Ok(Scheme::Alpha(c));
        }
        if params.is_some() {
            return Err(OdeError::BadSpec {
                message: format!(
                    "methodParams are read by generalized-alpha, hht-alpha and newmark \
                     only, not by \"{method}\""
                ),
            });
        }
        Ok(match method {
            "midpoint2" => Scheme::TwoByTwo(midpoint2_matrix),
            "stormer-verlet" => Scheme::TwoByTwo(stormer_verlet_matrix),
            "implicit-midpoint" => Scheme::Rational(Rational {
                num: vec![1.0, 0.5],
                den: vec![1.0, -0.5],
            }),
            "llm" => Scheme::Exp,
            _ => {
                let spec = StabilitySpec {
                    method: method.to_string(),
                    ..Default::default()
                };
                match Amplification::from_spec(&spec)? {
                    Amplification::Rational(r) => Scheme::Rational(r),
                    _ => {
                        return Err(OdeError::BadSpec {
                            message: format!("no one-step amplification for \"{method}\""),
                        })
                    }
                }
            }
        })
    }

    /// The roots at Ω = w > 0.
    pub fn roots(&self, w: f64) -> Roots {
        match self {
            Scheme::Alpha(c) => roots_3(alpha_matrix(c, w)),
            Scheme::TwoByTwo(m) => roots_2(m(w)),
            Scheme::Rational(r) => {
                let v = r.eval(C::new(0.0, w));
                let modulus = math::hypot(v.re, v.im);
                let arg = math::atan2(v.im, v.re);
                Roots {
                    spectral_radius: modulus,
                    principal: (arg > 0.0).then_some((modulus, arg)),
                }
            }
            Scheme::Exp => Roots {
                spectral_radius: 1.0,
                // e^{iΩ}: Ω̄ = Ω (modulo 2π, which a period does not see).
                principal: Some((1.0, w)),
            },
        }
    }

    /// lim ρ as Ω → ∞.
    pub fn at_infinity(&self) -> f64 {
        match self {
            Scheme::Alpha(c) => alpha_at_infinity(c),
            Scheme::TwoByTwo(_) => f64::INFINITY,
            Scheme::Rational(r) => {
                if r.is_polynomial() {
                    f64::INFINITY
                } else {
                    // |R(iy)| → |num_top / den_top| of the same degree.
                    r.modulus_at_infinity()
                }
            }
            Scheme::Exp => 1.0,
        }
    }
}

/// ξ̄ and (T̄ − T)/T of the principal roots at Ω = w (NaN, NaN where they are real).
pub fn damping_and_period(roots: &Roots, w: f64) -> (f64, f64) {
    match roots.principal {
        Some((modulus, arg)) if arg > 0.0 => (-math::ln(modulus) / arg, w / arg - 1.0),
        _ => (f64::NAN, f64::NAN),
    }
}

/// The default Ω grid.
pub fn default_grid() -> Vec<f64> {
    let decades = math::log10(DEFAULT_TO / DEFAULT_FROM);
    let n = (decades * DEFAULT_PER_DECADE as f64).round() as usize;
    (0..=n)
        .map(|k| DEFAULT_FROM * math::powf(10.0, k as f64 / DEFAULT_PER_DECADE as f64))
        .collect()
}

/// `structuralAnalysis`: the three curves of one method over its Ω values.
pub fn structural_analysis(spec: &StructuralSpec) -> Result<StructuralCurves, OdeError> {
    let scheme = Scheme::of(&spec.method, spec.method_params.as_ref())?;
    let omega_h = match &spec.omega_h {
        None => default_grid(),
        Some(ws) => {
            if ws.len() > MAX_POINTS {
                return Err(OdeError::OutOfRange {
                    what: "omegaH, the number of ωh values,".into(),
                    value: ws.len() as f64,
                    allowed: format!("at most {MAX_POINTS}"),
                });
            }
            for (i, &w) in ws.iter().enumerate() {
                let w = crate::error::finite(w, &format!("omegaH[{i}]"))?;
                if w <= 0.0 || w > 1e150 {
                    return Err(OdeError::OutOfRange {
                        what: format!("omegaH[{i}] (ωh)"),
                        value: w,
                        allowed: "a positive number, at most 1e150".into(),
                    });
                }
            }
            ws.clone()
        }
    };
    let mut out = StructuralCurves {
        spectral_radius: Vec::with_capacity(omega_h.len()),
        damping_ratio: Vec::with_capacity(omega_h.len()),
        period_error: Vec::with_capacity(omega_h.len()),
        spectral_radius_at_infinity: scheme.at_infinity(),
        omega_h,
    };
    for &w in &out.omega_h {
        let roots = scheme.roots(w);
        let (xi, period) = damping_and_period(&roots, w);
        out.spectral_radius.push(roots.spectral_radius);
        out.damping_ratio.push(xi);
        out.period_error.push(period);
    }
    Ok(out)
}
