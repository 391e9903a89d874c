//! Tests of the methods, one file per method, mirroring `src/method/`.

#[path = "../common/mod.rs"]
mod common;

mod bs23;
mod dp45;
mod euler;
mod explicit_rk;
mod heun;
mod midpoint2;
mod rk4;
mod ros4;
mod stiff_common;
mod llm;
mod backward_euler;
mod bdf2;
mod w2;
mod ab3;
mod am_pece;
mod slowfast;
mod stiff_vdp;
mod stiff_runs;
