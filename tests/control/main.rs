//! Tests of step-size control, one file per concept, mirroring `src/control/`.

#[path = "../common/mod.rs"]
mod common;

mod controller;
mod initial_step;
mod norm;
mod predictive;
mod tolerance;
