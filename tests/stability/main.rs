//! Tests of the stability analysis, mirroring `src/stability/`.

mod contour;
mod facts;
mod map;
mod midpoint2;
mod multistep;
mod order_star;
mod rational;
mod rk;
mod slowfast;
mod spec;
mod structural;
