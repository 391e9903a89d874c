//! Tests of event location, mirroring `src/event/`.

#[path = "../common/mod.rs"]
mod common;

mod detector;
mod root;
