//! A stiff planar vehicle driving over a bump, after the HMMWV test of Negrut et al. 2003 §3.2
//! (Fig. 4): suspension TSDAs of 2e7 N/m and 2e6 N·s/m, tyres of 296 325 N/m and
//! 3502 N·s/m, 10 mph (4.4704 m/s) over a half-cylinder bump of diameter 0.1 m, front
//! wheels on the bump at 0.5 s and rear wheels at 1.2 s, simulated for 5 s, the
//! chassis settling at ≈ 0.71 m. The paper's model has 14 bodies and 98 coordinates;
//! it is not reproducible from the paper. This is the smallest model with the same
//! stiff elements and the same excitation; the issue's purpose is the stiff/explicit
//! cost comparison, which depends on the dominant eigenvalue (001: ≈ −2.6e5, real).
//!
//! **Model: a half-car (one side of the vehicle, "bicycle" model), 4 degrees of
//! freedom.** The chassis (half the sprung mass m, pitch inertia J) heaves (z, up) and
//! pitches (θ, nose up, small angles: the bump lifts the body by millimetres, θ stays
//! below 1e-2 rad); a front and a rear unsprung mass mu (zf, zr, up) hang under it on
//! one suspension TSDA each (ks, cs) and stand on one tyre each (kt, ct), all with the
//! seed's per-element values. Coordinates are deviations from the static equilibrium,
//! where spring preloads balance gravity, so g drops out (linear springs). With
//! z_f = z + aθ and z_r = z − bθ the body points above the axles,
//!
//! ```text
//! Ff = −ks (z + aθ − zf) − cs (ż + aθ̇ − żf)          Fr = −ks (z − bθ − zr) − cs (ż − bθ̇ − żr)
//! m z̈ = Ff + Fr          J θ̈ = a Ff − b Fr
//! mu z̈f = −Ff − kt (zf − wf(t)) − ct (żf − ẇf(t))   (same for the rear with wr)
//! ```
//!
//! **Road input.** A rigid wheel of radius Rw rolling over a half-cylinder of radius
//! R = D/2 lifts its centre by w(s) = √((Rw + R)² − s²) − Rw for |s| < sₑ =
//! √((Rw + R)² − Rw²) and 0 elsewhere, s the horizontal distance from the bump's axis
//! (the wheel envelopes the bump; a point follower would see an infinite slope at the
//! bump's edges). The front wheel's s = v(t − t_hit) − sₑ, the rear's lags by the
//! wheelbase a + b. Defaults put a + b = 0.7 s × v = 3.129 m so the rear wheel hits at
//! 1.2 s as in the paper. w is continuous with a kink at ±sₑ, so f (through the tyre
//! damper ct ẇ) jumps when a wheel meets or leaves the bump: the model is
//! piecewise smooth, and ∂f/∂t = (kt ẇ + ct ẅ)/mu (ẇ = v w′(s), ẅ = v² w″(s)) is given
//! analytically on each piece.
//!
//! **Choices** (parameters): m = 1030 kg and J = 1700 kg·m² (half of a HMMWV's ≈ 2060 kg
//! sprung mass, pitch inertia of that half), a = b = 1.5646 m, Rw = 0.47 m (HMMWV tyre),
//! mu = 7.7 kg: the mass the stiff TSDA moves directly in the paper's model is an upper
//! control arm, and 7.7 kg puts the dominant eigenvalue at ≈ −2.6e5 as the paper reports
//! (a whole wheel assembly, ≈ 60 kg, would give ≈ −3.3e4).
//!
//! **Chassis height.** z is measured from the static equilibrium, and the height of that
//! equilibrium is computed from the masses and the spring preloads ([`settled_height`]):
//! each tyre carries its share of the chassis plus one unsprung mass and is compressed
//! by that load over kt, each suspension spring by the chassis share over ks, so the
//! chassis' centre of mass settles at Rw + hs minus both sags, hs the chassis CM's height
//! above the wheel centres with every spring unloaded. hs = 0.2576 m is odelab's choice
//! (the paper gives no geometry): with the default masses the loads sag the tyres by
//! 17.3 mm and the suspension by 0.25 mm, and the chassis settles at 0.7100 m, the
//! paper's "approximately 0.71 m" (Negrut et al. 2003 §3.2, Fig. 4). A heavier chassis
//! settles lower.
//!
//! The Jacobian is constant (linear model). Outputs: chassis height, energy relative to
//! equilibrium (kinetic + springs; not conserved: damping and the road input), and the
//! two road inputs wf, wr.

use super::{strings, Model, ModelInfo, ParamInfo};
use crate::math::{self, Scalar};
use crate::problem::System;
use nalgebra::{DMatrix, DVector};

const MPH_10: f64 = 4.4704;
const WHEELBASE: f64 = 0.7 * MPH_10;

pub fn info() -> ModelInfo {
    ModelInfo {
        id: "vehicle-stiff".into(),
        name: "Half-car over a bump (stiff suspension)".into(),
        dim: 8,
        names: strings(&["z", "θ", "zf", "zr", "ż", "θ̇", "żf", "żr"]),
        params: vec![
            ParamInfo::new("m", 1030.0, "kg", "chassis mass, one side (odelab's choice: half a HMMWV)").above(0.0),
            ParamInfo::new("J", 1700.0, "kg·m²", "chassis pitch inertia, one side (odelab's choice: half a HMMWV)").above(0.0),
            ParamInfo::new("a", 0.5 * WHEELBASE, "m", "CM to front axle (odelab's choice: rear hits at 1.2 s)").above(0.0),
            ParamInfo::new("b", 0.5 * WHEELBASE, "m", "CM to rear axle (odelab's choice)").above(0.0),
            ParamInfo::new("mu", 7.7, "kg", "unsprung mass per wheel (odelab's choice: puts λ at −2.6e5)").above(0.0),
            ParamInfo::new(
                "ks",
                2e7,
                "N/m",
                "suspension TSDA stiffness (Negrut et al. 2003, §3.2)",
            ),
            ParamInfo::new(
                "cs",
                2e6,
                "N·s/m",
                "suspension TSDA damping (Negrut et al. 2003, §3.2)",
            ),
            ParamInfo::new(
                "kt",
                296_325.0,
                "N/m",
                "tyre stiffness (Negrut et al. 2003, §3.2)",
            ),
            ParamInfo::new(
                "ct",
                3502.0,
                "N·s/m",
                "tyre damping (Negrut et al. 2003, §3.2)",
            ),
            ParamInfo::new("v", MPH_10, "m/s", "forward speed, 10 mph (§3.2)").above(0.0),
            ParamInfo::new("D", 0.1, "m", "bump diameter, half-cylinder (§3.2)").above(0.0),
            ParamInfo::new("Rw", 0.47, "m", "wheel radius (odelab's choice: HMMWV tyre)").above(0.0),
            ParamInfo::new("tHit", 0.5, "s", "time the front wheel meets the bump (§3.2)"),
            ParamInfo::new("g", 9.81, "m/s²", "gravity, sets the spring preloads (standard value)"),
            ParamInfo::new(
                "hs",
                0.2576,
                "m",
                "chassis CM above the wheel centres, springs unloaded (odelab's choice: settles at 0.71 m)",
            ),
        ],
        y0: vec![0.0; 8],
        t0: 0.0,
        t1: 5.0,
        source: "after Negrut et al. 2003, §3.2, Fig. 4 (a half-car stand-in for the HMMWV); y0: at rest in static equilibrium (odelab's choice)".into(),
        outputs: strings(&["chassis height", "energy", "road front", "road rear"]),
        exact: false,
        fast: vec![],
        formulations: vec![],
        second_order: true,
        events: vec![],
    }
}

pub fn build(p: &[f64]) -> Box<dyn Model> {
    let (rw, r) = (p[11], 0.5 * p[10]);
    let rho = rw + r;
    Box::new(Vehicle {
        m: p[0],
        j: p[1],
        a: p[2],
        b: p[3],
        mu: p[4],
        ks: p[5],
        cs: p[6],
        kt: p[7],
        ct: p[8],
        v: p[9],
        rw,
        radius: r,
        se: (rho * rho - rw * rw).sqrt(),
        t_hit: p[12],
        height: settled_height(p),
    })
}

/// The chassis CM's height at static equilibrium for the parameters `p` (in
/// [`info`]'s order): the wheel centres sit at Rw less the tyre's sag under its load
/// (the chassis share plus one unsprung mass), the chassis' axle points hs higher less
/// the suspension's sag under the chassis share, and the CM between the axle points at
/// b/(a + b) of the front one's height. Linear springs: the deviations z, θ, zf, zr of
/// the model are measured from this equilibrium, so gravity and the preloads cancel
/// in f and only the height depends on them.
pub fn settled_height(p: &[f64]) -> f64 {
    let (m, a, b, mu, ks, kt, rw) = (p[0], p[2], p[3], p[4], p[5], p[7], p[11]);
    let (g, hs) = (p[13], p[14]);
    let share = |arm: f64| m * g * arm / (a + b);
    // A spring of no stiffness carries no load in this model (its deviations are still
    // taken about the unloaded geometry), so it has no sag rather than an infinite one.
    let sag = |load: f64, k: f64| if k > 0.0 { load / k } else { 0.0 };
    let axle = |load: f64| rw - sag(load + mu * g, kt) + hs - sag(load, ks);
    let (front, rear) = (axle(share(b)), axle(share(a)));
    (b * front + a * rear) / (a + b)
}

/// The height w(s) of the centre of a rigid wheel of radius `wheel` above the flat road
/// as it rolls over a half-cylinder bump of radius `radius`, s the horizontal distance
/// from the bump's axis, with dw/ds and d²w/ds² (0 off the bump; one-sided at the kinks
/// s = ±sₑ). Shared with the body-coordinate vehicle (`src/multibody/mechanism.rs`).
pub fn bump_profile<T: Scalar>(s: T, wheel: f64, radius: f64) -> (T, T, T) {
    let rho = wheel + radius;
    let se = (rho * rho - wheel * wheel).sqrt();
    if s.abs() >= T::of(se) {
        return (T::zero(), T::zero(), T::zero());
    }
    let q = T::of(rho * rho) - s * s;
    let root = q.sqrt();
    (
        root - T::of(wheel),
        -s / root,
        -T::of(rho * rho) / (q * root),
    )
}

struct Vehicle {
    m: f64,
    j: f64,
    a: f64,
    b: f64,
    mu: f64,
    ks: f64,
    cs: f64,
    kt: f64,
    ct: f64,
    v: f64,
    rw: f64,
    /// R = D/2, the bump's radius.
    radius: f64,
    /// Half-width of the bump as the wheel centre sees it.
    se: f64,
    t_hit: f64,
    /// The chassis CM's height at static equilibrium, [`settled_height`].
    height: f64,
}

impl Vehicle {
    /// (w, dw/dt, d²w/dt²) for the wheel that trails the front one by `lag` metres.
    fn road(&self, t: f64, lag: f64) -> (f64, f64, f64) {
        let s = self.v * (t - self.t_hit) - self.se - lag;
        let (w, dw, ddw) = bump_profile(s, self.rw, self.radius);
        (w, self.v * dw, self.v * self.v * ddw)
    }

    fn roads(&self, t: f64) -> [(f64, f64, f64); 2] {
        [self.road(t, 0.0), self.road(t, self.a + self.b)]
    }

    /// The constant matrix A of y' = A y + (road terms).
    fn matrix(&self) -> DMatrix<f64> {
        let (a, b, ks, cs, kt, ct) = (self.a, self.b, self.ks, self.cs, self.kt, self.ct);
        // Forces as rows over (z, θ, zf, zr) for the stiffness K and damping C.
        // Ff = −ks(z + aθ − zf) − cs(…), Fr = −ks(z − bθ − zr) − cs(…).
        let ff = [-1.0, -a, 1.0, 0.0];
        let fr = [-1.0, b, 0.0, 1.0];
        let mut k = [[0.0; 4]; 4];
        for i in 0..4 {
            k[0][i] = ks * (ff[i] + fr[i]) / self.m;
            k[1][i] = ks * (a * ff[i] - b * fr[i]) / self.j;
            k[2][i] = -ks * ff[i] / self.mu;
            k[3][i] = -ks * fr[i] / self.mu;
        }
        let mut jm = DMatrix::zeros(8, 8);
        for i in 0..4 {
            jm[(i, 4 + i)] = 1.0;
            for c in 0..4 {
                jm[(4 + i, c)] = k[i][c];
                jm[(4 + i, 4 + c)] = k[i][c] * cs / ks;
            }
        }
        jm[(6, 2)] -= kt / self.mu;
        jm[(7, 3)] -= kt / self.mu;
        jm[(6, 6)] -= ct / self.mu;
        jm[(7, 7)] -= ct / self.mu;
        jm
    }
}

impl System for Vehicle {
    fn dim(&self) -> usize {
        8
    }

    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
        let (a, b) = (self.a, self.b);
        let (z, th, zf, zr, vz, vth, vf, vr) = (y[0], y[1], y[2], y[3], y[4], y[5], y[6], y[7]);
        let ff = -self.ks * (z + a * th - zf) - self.cs * (vz + a * vth - vf);
        let fr = -self.ks * (z - b * th - zr) - self.cs * (vz - b * vth - vr);
        let [(wf, dwf, _), (wr, dwr, _)] = self.roads(t);
        dy[..4].copy_from_slice(&y[4..]);
        dy[4] = (ff + fr) / self.m;
        dy[5] = (a * ff - b * fr) / self.j;
        dy[6] = (-ff - self.kt * (zf - wf) - self.ct * (vf - dwf)) / self.mu;
        dy[7] = (-fr - self.kt * (zr - wr) - self.ct * (vr - dwr)) / self.mu;
    }

    fn jacobian(&self, _t: f64, _y: &[f64]) -> Option<DMatrix<f64>> {
        Some(self.matrix())
    }

    /// One-sided on the pieces of the road profile (see the module doc).
    fn dfdt(&self, t: f64, _y: &[f64]) -> Option<DVector<f64>> {
        let [(_, dwf, ddwf), (_, dwr, ddwr)] = self.roads(t);
        let mut d = DVector::zeros(8);
        d[6] = (self.kt * dwf + self.ct * ddwf) / self.mu;
        d[7] = (self.kt * dwr + self.ct * ddwr) / self.mu;
        Some(d)
    }
}

impl Model for Vehicle {
    fn outputs(&self, t: f64, y: &[f64], out: &mut [f64]) {
        let (a, b) = (self.a, self.b);
        let [(wf, _, _), (wr, _, _)] = self.roads(t);
        let sf = y[0] + a * y[1] - y[2];
        let sr = y[0] - b * y[1] - y[3];
        let kinetic = 0.5 * self.m * y[4] * y[4]
            + 0.5 * self.j * y[5] * y[5]
            + 0.5 * self.mu * (y[6] * y[6] + y[7] * y[7]);
        let springs = 0.5 * self.ks * (sf * sf + sr * sr)
            + 0.5 * self.kt * (math::powi(y[2] - wf, 2) + math::powi(y[3] - wr, 2));
        out[0] = self.height + y[0];
        out[1] = kinetic + springs;
        out[2] = wf;
        out[3] = wr;
    }
}
