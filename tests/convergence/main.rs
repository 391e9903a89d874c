//! Tests of the convergence lab, mirroring `src/convergence/`.

mod fit;
mod global;
mod local;
mod spec;
