//! The constrained models of the catalogue written as mechanisms ([`Mechanism`]), for
//! the augmented and state-space formulations, with the map from each native state to
//! body coordinates and the native model's named outputs computed from (q, q̇).
//!
//! - `double-pendulum-stiff` (Gil, Sanfelice & Nikravesh (LLM) §2): already in body coordinates; the same two links,
//!   ground joint at link 1's end, joint between the links, gravity and the stiff
//!   torsional spring (an RSDA with θ0 = 0). Native outputs: energy, ‖Φ‖, ‖Φ_q q̇‖.
//! - `double-pendulum-rsda` (Negrut et al. 2003 §3.1): body 1 hinged at the origin at body-frame point
//!   (−L1, 0), the joint to body 2 at (L1, 0) on body 1 and (−L2, 0) on body 2; RSDA 1
//!   between the ground and body 1 (k1, c1, α1⁰), RSDA 2 between the bodies (k2, c2,
//!   α2⁰). The absolute angles φ1, φ2 are the native θ1, θ2. Native outputs: energy,
//!   x2, y2, ẋ2, ẏ2.
//! - `pendulum-particle` (Gil, Sanfelice & Nikravesh 2013 Fig. 6, eqs. 63–64 — the paper's own body-coordinate form
//!   with the hinge as a constraint): the bar hinged at body-frame point (0, L/2) to the
//!   origin, the particle a second body joined to the bar's tip (0, −L/2) by a
//!   zero-rest-length spring k. The particle has no rotation in the paper; here it is a
//!   body whose angle is decoupled (no torque acts on it) with inertia m2 (any positive
//!   value gives the same motion), so φ2 stays at 0. Native output: energy.
//!
//! - `vehicle-stiff` (Negrut et al. 2003 §3.2): the half-car of `src/model/vehicle_stiff.rs` rebuilt
//!   the way the paper's HMMWV is built, with bodies and joints: the chassis "c" (mass m,
//!   CM at the paper's settled height H = 0.71 m) and two unsprung bodies "f", "r", each
//!   held to the chassis by a translational joint (it slides along the chassis' vertical
//!   axis through the axle point (a, Rw − H) or (−b, Rw − H), relative angle locked);
//!   one suspension TSDA per side (a zero-rest-length spring-damper ks, cs from the
//!   chassis' axle point to the unsprung body's centre, along the slide) and one
//!   vertical tyre TSDA per side (kt, ct, rest height Rw) on the road with the
//!   half-cylinder bump. The vehicle really drives: ẋ = v at the start and the road
//!   height is read at each wheel's x, so the input is w(x), not w(t) (autonomous: ∂f/∂t
//!   = 0). As in the native model, coordinates are taken about static equilibrium and
//!   gravity drops out with the spring preloads. 9 coordinates, 4 constraints, 5 degrees
//!   of freedom (the native 4 plus the forward position x_c); the state-space default
//!   independent coordinates are (x_c, y_c, φ_c, y_f, y_r). The unsprung bodies turn
//!   with the chassis (the joint locks their angle), so they carry 1e-3 J each of the
//!   pitch inertia and the chassis the rest: the total is J. With exact rotations
//!   instead of the native z + aθ, the two models differ by O(θ²) (θ < 1e-2 rad).

use super::mechanism::{Anchor, Body, Force, Joint, Mechanism, Revolute, Road};
use crate::error::OdeError;
use crate::model::{self, ModelInfo};
use std::collections::BTreeMap;

/// The native model's named outputs from (q, q̇).
pub type NamedOutputs = Box<dyn Fn(&Mechanism, &[f64], &[f64], &mut [f64])>;

/// A catalogue model as a mechanism.
pub struct Description {
    /// The native model's catalogue entry.
    pub native: ModelInfo,
    pub mechanism: Mechanism,
    pub q0: Vec<f64>,
    pub qd0: Vec<f64>,
    /// The state-space formulation's independent coordinates when the spec names none
    /// (None: chosen by LU of Φ_q, Negrut et al. 2003 Algorithm 1 step 1).
    pub independent: Option<Vec<String>>,
    /// Names of the native outputs that [`Description::named`] computes.
    pub named_outputs: Vec<String>,
    pub named: NamedOutputs,
}

/// The ids that [`describe`] knows (the model catalogue's list).
pub use crate::model::CONSTRAINED;

/// The model `id` with parameter overrides as a mechanism, started from `y0` (native
/// layout) or the model's default state.
pub fn describe(
    id: &str,
    overrides: &BTreeMap<String, f64>,
    y0: Option<&[f64]>,
) -> Result<Description, OdeError> {
    let (native, model) = model::build(id, overrides)?;
    if !CONSTRAINED.contains(&id) {
        return Err(OdeError::BadSpec {
            message: format!(
                "model \"{id}\" has no augmented or state-space formulation; the models \
                 that do are {}",
                CONSTRAINED
                    .iter()
                    .map(|m| format!("\"{m}\""))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        });
    }
    let p: Vec<f64> = native
        .params
        .iter()
        .map(|p| overrides.get(&p.name).copied().unwrap_or(p.value))
        .collect();
    let y = match y0 {
        Some(y0) if y0.len() != native.dim => {
            return Err(OdeError::WrongLength {
                what: format!("initial state y0 of model \"{id}\" (native layout)"),
                expected: native.dim,
                got: y0.len(),
            })
        }
        Some(y0) => y0.to_vec(),
        None => model.default_y0().unwrap_or_else(|| native.y0.clone()),
    };
    for v in &y {
        crate::error::finite(*v, "initial value")?;
    }
    let desc = match id {
        "double-pendulum-stiff" => stiff(native, &p, &y),
        "double-pendulum-rsda" => rsda(native, &p, &y),
        "vehicle-stiff" => vehicle(native, &p, &y),
        _ => particle(native, &p, &y),
    };
    Ok(desc)
}

fn drift_free_named(native: &ModelInfo) -> Vec<String> {
    native
        .outputs
        .iter()
        .filter(|o| !o.starts_with("constraint") && !o.starts_with("velocity constraint"))
        .cloned()
        .collect()
}

/// Two bodies in a chain: body 1 hinged to the ground at its local (−r1, 0), body 2
/// hinged to body 1's (r1, 0) at its own (−r2, 0) — both double pendulums' layout.
fn two_links(mass: [f64; 2], inertia: [f64; 2], r1: f64, r2: f64) -> (Vec<Body>, Vec<Joint>) {
    let bodies = vec![
        Body {
            name: "1",
            mass: mass[0],
            inertia: inertia[0],
        },
        Body {
            name: "2",
            mass: mass[1],
            inertia: inertia[1],
        },
    ];
    let joints = vec![
        Joint::Revolute(Revolute {
            a: Anchor::Body(0, [-r1, 0.0]),
            b: Anchor::Ground([0.0, 0.0]),
        }),
        Joint::Revolute(Revolute {
            a: Anchor::Body(0, [r1, 0.0]),
            b: Anchor::Body(1, [-r2, 0.0]),
        }),
    ];
    (bodies, joints)
}

fn stiff(native: ModelInfo, p: &[f64], y: &[f64]) -> Description {
    let (a1, a2) = (0.5 * p[2], 0.5 * p[3]);
    let (bodies, joints) = two_links([p[0], p[1]], [p[4], p[5]], a1, a2);
    let mechanism = Mechanism {
        bodies,
        joints,
        forces: vec![
            Force::Gravity { g: p[8] },
            Force::Rsda {
                i: Some(0),
                j: 1,
                k: p[6].to_degrees(),
                c: p[7],
                theta0: 0.0,
            },
        ],
    };
    Description {
        independent: None,
        named_outputs: drift_free_named(&native),
        native,
        mechanism,
        q0: y[..6].to_vec(),
        qd0: y[6..].to_vec(),
        named: Box::new(|m, q, qd, out| out[0] = m.energy(q, qd)),
    }
}

fn rsda(native: ModelInfo, p: &[f64], y: &[f64]) -> Description {
    let (l1, l2) = (p[2], p[3]);
    let (bodies, joints) = two_links([p[0], p[1]], [p[4], p[5]], l1, l2);
    let mechanism = Mechanism {
        bodies,
        joints,
        forces: vec![
            Force::Gravity { g: p[12] },
            Force::Rsda {
                i: None,
                j: 0,
                k: p[6],
                c: p[8],
                theta0: p[10],
            },
            Force::Rsda {
                i: Some(0),
                j: 1,
                k: p[7],
                c: p[9],
                theta0: p[11],
            },
        ],
    };
    let (t1, t2, w1, w2) = (y[0], y[1], y[2], y[3]);
    let (s1, c1) = crate::math::sin_cos(t1);
    let (s2, c2) = crate::math::sin_cos(t2);
    let q0 = vec![
        l1 * c1,
        l1 * s1,
        t1,
        2.0 * l1 * c1 + l2 * c2,
        2.0 * l1 * s1 + l2 * s2,
        t2,
    ];
    let qd0 = vec![
        -l1 * s1 * w1,
        l1 * c1 * w1,
        w1,
        -2.0 * l1 * s1 * w1 - l2 * s2 * w2,
        2.0 * l1 * c1 * w1 + l2 * c2 * w2,
        w2,
    ];
    Description {
        independent: None,
        named_outputs: drift_free_named(&native),
        native,
        mechanism,
        q0,
        qd0,
        named: Box::new(|m, q, qd, out| {
            out[0] = m.energy(q, qd);
            out[1] = q[3];
            out[2] = q[4];
            out[3] = qd[3];
            out[4] = qd[4];
        }),
    }
}

fn particle(native: ModelInfo, p: &[f64], y: &[f64]) -> Description {
    let (m1, j1, l, m2, k, g) = (p[0], p[1], p[2], p[3], p[4], p[5]);
    let h = 0.5 * l;
    let mechanism = Mechanism {
        bodies: vec![
            Body {
                name: "1",
                mass: m1,
                inertia: j1,
            },
            Body {
                name: "2",
                mass: m2,
                inertia: m2,
            },
        ],
        joints: vec![Joint::Revolute(Revolute {
            a: Anchor::Body(0, [0.0, h]),
            b: Anchor::Ground([0.0, 0.0]),
        })],
        forces: vec![
            Force::Gravity { g },
            Force::Spring {
                a: Anchor::Body(0, [0.0, -h]),
                b: Anchor::Body(1, [0.0, 0.0]),
                k,
                c: 0.0,
            },
        ],
    };
    let (th, w) = (y[0], y[1]);
    let (s, c) = crate::math::sin_cos(th);
    let q0 = vec![h * s, -h * c, th, y[2], y[3], 0.0];
    let qd0 = vec![h * c * w, h * s * w, w, y[4], y[5], 0.0];
    Description {
        independent: None,
        named_outputs: drift_free_named(&native),
        native,
        mechanism,
        q0,
        qd0,
        named: Box::new(|m, q, qd, out| out[0] = m.energy(q, qd)),
    }
}

/// Chassis CM height of the body-coordinate vehicle at static equilibrium (Negrut et al. 2003 §3.2:
/// "the chassis height stabilizes at approximately z1 = 0.71 m").
pub const VEHICLE_HEIGHT: f64 = 0.71;

fn vehicle(native: ModelInfo, p: &[f64], y: &[f64]) -> Description {
    let (m, j, a, b, mu) = (p[0], p[1], p[2], p[3], p[4]);
    let (ks, cs, kt, ct, v) = (p[5], p[6], p[7], p[8], p[9]);
    let (radius, rw, t_hit) = (0.5 * p[10], p[11], p[12]);
    let unsprung_inertia = 1e-3 * j;
    let body = |name, mass, inertia| Body {
        name,
        mass,
        inertia,
    };
    let bodies = vec![
        body("c", m, j - 2.0 * unsprung_inertia),
        body("f", mu, unsprung_inertia),
        body("r", mu, unsprung_inertia),
    ];
    // Axle points on the chassis, in its frame; the unsprung centres slide through them.
    let axle = [[a, rw - VEHICLE_HEIGHT], [-b, rw - VEHICLE_HEIGHT]];
    let slider = |w: usize| Joint::Translational {
        i: 0,
        j: w,
        si: axle[w - 1],
        sj: [0.0, 0.0],
        axis: [0.0, 1.0],
        phi0: 0.0,
    };
    // The front wheel meets the bump at t_hit (the native model's timing): its centre
    // starts at x = a and touches the bump when it is sₑ before the bump's axis.
    let se = ((rw + radius) * (rw + radius) - rw * rw).sqrt();
    let road = Road::Bump {
        x_axis: a + v * t_hit + se,
        radius,
        wheel: rw,
    };
    let mut forces = Vec::new();
    for w in 1..=2 {
        forces.push(Force::Spring {
            a: Anchor::Body(0, axle[w - 1]),
            b: Anchor::Body(w, [0.0, 0.0]),
            k: ks,
            c: cs,
        });
        forces.push(Force::Tyre {
            body: w,
            k: kt,
            c: ct,
            rest: rw,
            road,
        });
    }
    let mechanism = Mechanism {
        bodies,
        joints: vec![slider(1), slider(2)],
        forces,
    };
    // Native state (z, θ, zf, zr, ż, θ̇, żf, żr) → body coordinates: the slide σ of each
    // unsprung body along the chassis axis puts its centre at height Rw + z_w.
    let (z, th, wz, wzd) = (y[0], y[1], [y[2], y[3]], [y[6], y[7]]);
    let (zd, thd) = (y[4], y[5]);
    let (s, c) = crate::math::sin_cos(th);
    let mut q0 = vec![0.0, VEHICLE_HEIGHT + z, th];
    let mut qd0 = vec![v, zd, thd];
    for w in 0..2 {
        let [px, py] = axle[w];
        let sigma = (rw + wz[w] - VEHICLE_HEIGHT - z - px * s) / c - py;
        let ly = py + sigma; // the centre in the chassis frame: (px, ly)
                             // ẏ = ż + (px c − ly s) θ̇ + σ̇ c.
        let sigma_dot = (wzd[w] - zd - (px * c - ly * s) * thd) / c;
        q0.extend([px * c - ly * s, VEHICLE_HEIGHT + z + px * s + ly * c, th]);
        qd0.extend([v - (px * s + ly * c) * thd - sigma_dot * s, wzd[w], thd]);
    }
    Description {
        independent: Some(["xc", "yc", "φc", "yf", "yr"].map(String::from).to_vec()),
        named_outputs: drift_free_named(&native),
        native,
        mechanism,
        q0,
        qd0,
        named: Box::new(move |mech, q, qd, out| {
            out[0] = q[1];
            out[1] = mech.energy_in_frame(q, qd, [v, 0.0]);
            out[2] = road.profile(q[3]).0;
            out[3] = road.profile(q[6]).0;
        }),
    }
}

/// The outputs both formulations report: the native named outputs, the drift
/// ‖Φ(q)‖₂ and ‖Φ_q q̇‖₂, and every body coordinate and rate as `q:<name>` (`q:x1`, …, `q:φ̇2`).
pub fn output_names(desc: &Description) -> Vec<String> {
    let mut names = desc.named_outputs.clone();
    names.push("constraint |Φ|".into());
    names.push("velocity constraint |Φq q̇|".into());
    let coords = desc.mechanism.coordinate_names();
    names.extend(coords.iter().map(|n| format!("q:{n}")));
    names.extend(coords.iter().map(|n| format!("q:{}", dot(n))));
    names
}

/// Writes [`output_names`]' values at (q, q̇).
pub fn write_outputs(desc: &Description, q: &[f64], qd: &[f64], out: &mut [f64]) {
    let k = desc.named_outputs.len();
    (desc.named)(&desc.mechanism, q, qd, &mut out[..k]);
    let m = &desc.mechanism;
    out[k] = m.phi(q).norm();
    out[k + 1] = (m.phi_q(q) * nalgebra::DVector::from_row_slice(qd)).norm();
    let n = q.len();
    out[k + 2..k + 2 + n].copy_from_slice(q);
    out[k + 2 + n..k + 2 + 2 * n].copy_from_slice(qd);
}

/// "φ1" → "φ̇1" (combining dot after the coordinate letter).
pub(crate) fn dot(name: &str) -> String {
    let mut chars = name.chars();
    match chars.next() {
        Some(c) => format!("{c}\u{307}{}", chars.as_str()),
        None => String::new(),
    }
}
