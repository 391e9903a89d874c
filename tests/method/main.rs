//! Tests of the methods, one file per method, mirroring `src/method/`.

#[path = "../common/mod.rs"]
mod common;

mod ab3;
mod am_pece;
mod backward_euler;
mod bdf;
mod bdf2;
mod bs23;
mod dp45;
mod euler;
mod explicit_rk;
mod generalized_alpha;
mod heun;
mod implicit_midpoint;
mod llm;
mod llm_stiff;
mod midpoint2;
mod ode23s;
mod radau5;
mod registry;
mod rk4;
mod rn4;
mod rodas;
mod ros4;
mod ros4_t2;
mod slowfast;
mod stiff_common;
mod stiff_runs;
mod stiff_smoke;
mod stiff_vdp;
mod verlet;
mod w2;
