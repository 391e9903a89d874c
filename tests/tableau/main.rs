//! Tests of a user's Butcher tableau ("Your own method"), mirroring
//! `src/tableau/`: the analysis of known tableaux, the method in `solve`, bad input.

#[path = "../common/mod.rs"]
mod common;

mod analysis;
mod convergence;
mod dirk;
mod errors;
mod exact;
mod known;
mod solve;
