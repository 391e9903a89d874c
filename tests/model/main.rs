//! Tests of the models, one file per model, mirroring `src/model/`.

#[path = "../common/mod.rs"]
mod common;

mod bouncing_balls;
mod catalog;
mod double_pendulum_rsda;
mod double_pendulum_stiff;
mod mass_spring_damper;
mod pendulum;
mod pendulum_particle;
mod robertson;
mod sin_inv_t;
mod slowfast_linear;
mod van_der_pol;
mod vehicle_stiff;
