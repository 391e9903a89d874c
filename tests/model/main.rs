//! Tests of the models, one file per model, mirroring `src/model/`.

#[path = "../common/mod.rs"]
mod common;

mod bouncing_balls;
mod catalog;
mod mass_spring_damper;
mod pendulum;
