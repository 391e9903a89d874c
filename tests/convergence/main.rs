//! Tests of the convergence lab, mirroring `src/convergence/`.

mod budget;
mod fit;
mod global;
mod local;
mod spec;
