//! Tests of the stability analysis, mirroring `src/stability/`.

mod rk;
