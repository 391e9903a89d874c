//! Tests of the methods, one file per method, mirroring `src/method/`.

#[path = "../common/mod.rs"]
mod common;

mod euler;
mod explicit_rk;
mod rk4;
