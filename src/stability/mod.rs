//! Linear stability analysis: the stability function R(z) of a method on the test
//! equation y' = λy (seed 002 eq. 7.10), z = hλ, and where |R| = 1 crosses the axes.

pub mod rk;
