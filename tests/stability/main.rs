//! Tests of the stability analysis, mirroring `src/stability/`.

mod contour;
mod eigen;
mod facts;
mod map;
mod midpoint2;
mod multistep;
mod rational;
mod rk;
mod slowfast;
mod spec;
