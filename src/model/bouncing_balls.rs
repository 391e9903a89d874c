//! Two bouncing balls, Gil, Sanfelice & Nikravesh (LLM) §3, eqs. (19)–(21) and Figs. 3–4: two unit masses move
//! vertically under gravity; contact between the balls and with the ground is a penalty
//! spring of stiffness K (10⁵ N/m in the paper) that acts only while bodies overlap.
//!
//! State (eq. 20): y = (y1, y2, ẏ1, ẏ2), ball 1 above ball 2. Switching functions
//! (eq. 19): Ψ1 = 2R − (y1 − y2) (the balls overlap when > 0), Ψ2 = R − y2 (ball 2
//! penetrates the ground when > 0). Dynamics (eq. 21):
//! ÿ1 = −g + F1, ÿ2 = −g − F1 + F2, F1 = K Ψ1 if Ψ1 > 0 else 0, F2 = K Ψ2 if Ψ2 > 0
//! else 0. The paper's F2 conditions overlap at Ψ2 = 0 ("≥ 0" and "≤ 0"); both give 0
//! there, the force is continuous (the Sources panel's errata, Gil, Sanfelice & Nikravesh (LLM) eq. 21).
//!
//! f is continuous but its Jacobian jumps when a contact starts or ends: declaring Ψ1,
//! Ψ2 as events lets the driver cut the step there so each step sees one smooth regime.
//! A step cut exactly on a switch (Ψ = 0) takes the Jacobian of the regime the motion
//! leads into (contact if Ψ is growing): the linearising methods (LLM, Rosenbrock) then
//! integrate the next regime, and LLM is exact on it (Gil, Sanfelice & Nikravesh (LLM) §3: "without error").

use super::{strings, EventInfo, Model, ModelInfo, ParamInfo};
use crate::problem::System;
use nalgebra::DMatrix;

pub fn info() -> ModelInfo {
    ModelInfo {
        id: "bouncing-balls".into(),
        name: "Two bouncing balls (penalty contact)".into(),
        dim: 4,
        names: strings(&["y1", "y2", "v1", "v2"]),
        params: vec![
            ParamInfo::new("g", 9.81, "m/s²", "gravitational acceleration (standard value)"),
            ParamInfo::new("K", 1e5, "N/m", "penalty contact stiffness (10⁵ N/m in §3)").above(0.0),
            ParamInfo::new("R", 0.1, "m", "ball radius (odelab's choice: not in the paper)").above(0.0),
        ],
        // odelab's choice, said in `source`: the paper prints no initial state (§3 gives
        // only K); ball 1 at 1.0 m and ball 2 at 0.5 m, at rest, so ball 2 lands first and
        // ball 1 meets it on its rebound (they fall together until then).
        y0: vec![1.0, 0.5, 0.0, 0.0],
        t1: 3.0,
        source: "Gil, Sanfelice & Nikravesh (LLM), §3, eqs. (19)–(21); R and y0 (1 m, 0.5 m, at rest) are odelab's choice: the paper gives neither".into(),
        outputs: strings(&["energy"]),
        exact: false,
        second_order: true,
        t0: 0.0,
        fast: vec![],
        formulations: vec![],
        events: vec![
            EventInfo::new(
                "psi1",
                "Ψ1 = 2R − (y1 − y2), Gil, Sanfelice & Nikravesh (LLM), eq. (19): > 0 while the balls overlap",
            ),
            EventInfo::new(
                "psi2",
                "Ψ2 = R − y2, Gil, Sanfelice & Nikravesh (LLM), eq. (19): > 0 while the lower ball is in the ground",
            ),
        ],
    }
}

pub fn build(p: &[f64]) -> Box<dyn Model> {
    Box::new(BouncingBalls {
        g: p[0],
        k: p[1],
        r: p[2],
    })
}

struct BouncingBalls {
    g: f64,
    k: f64,
    r: f64,
}

impl BouncingBalls {
    /// Ψ1, Ψ2 of Gil, Sanfelice & Nikravesh, Local Linearization Method, eq. (19).
    fn psi(&self, y: &[f64]) -> (f64, f64) {
        (2.0 * self.r - (y[0] - y[1]), self.r - y[1])
    }

    /// Which penalty springs act in the regime at y: Ψ > 0, or Ψ = 0 with Ψ growing
    /// (dΨ1/dt = v2 − v1, dΨ2/dt = −v2), the regime a crossing there leads into.
    fn contacts(&self, y: &[f64]) -> (bool, bool) {
        let (psi1, psi2) = self.psi(y);
        let entering = |psi: f64, rate: f64| psi > 0.0 || (psi == 0.0 && rate > 0.0);
        (entering(psi1, y[3] - y[2]), entering(psi2, -y[3]))
    }
}

impl System for BouncingBalls {
    fn dim(&self) -> usize {
        4
    }

    /// Gil, Sanfelice & Nikravesh (LLM) eq. (21), unit masses.
    fn rhs(&self, _t: f64, y: &[f64], dy: &mut [f64]) {
        let (psi1, psi2) = self.psi(y);
        let f1 = if psi1 > 0.0 { self.k * psi1 } else { 0.0 };
        let f2 = if psi2 > 0.0 { self.k * psi2 } else { 0.0 };
        dy[0] = y[2];
        dy[1] = y[3];
        dy[2] = -self.g + f1;
        dy[3] = -self.g - f1 + f2;
    }

    fn jacobian(&self, _t: f64, y: &[f64]) -> Option<DMatrix<f64>> {
        let (c1, c2) = self.contacts(y);
        let k1 = if c1 { self.k } else { 0.0 };
        let k2 = if c2 { self.k } else { 0.0 };
        // ∂F1/∂y1 = −k1, ∂F1/∂y2 = k1, ∂F2/∂y2 = −k2.
        Some(DMatrix::from_row_slice(
            4,
            4,
            &[
                0.0,
                0.0,
                1.0,
                0.0,
                0.0,
                0.0,
                0.0,
                1.0,
                -k1,
                k1,
                0.0,
                0.0,
                k1,
                -k1 - k2,
                0.0,
                0.0,
            ],
        ))
    }

    fn autonomous(&self) -> bool {
        true
    }
}

impl Model for BouncingBalls {
    /// Total energy: kinetic + gravity + the penalty springs' ½ K Ψ² while in contact.
    /// Constant along exact solutions (there is no damping), so its drift measures the
    /// integration error (Gil, Sanfelice & Nikravesh (LLM) Fig. 5).
    fn outputs(&self, _t: f64, y: &[f64], out: &mut [f64]) {
        let (psi1, psi2) = self.psi(y);
        let spring = |psi: f64| {
            if psi > 0.0 {
                0.5 * self.k * psi * psi
            } else {
                0.0
            }
        };
        out[0] = 0.5 * (y[2] * y[2] + y[3] * y[3])
            + self.g * (y[0] + y[1])
            + spring(psi1)
            + spring(psi2);
    }

    fn event(&self, index: usize, _t: f64, y: &[f64]) -> f64 {
        let (psi1, psi2) = self.psi(y);
        match index {
            0 => psi1,
            1 => psi2,
            _ => f64::NAN,
        }
    }
}
