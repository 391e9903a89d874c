//! constrained multibody formulations (augmented, state-space), Table 2 ros4.

mod comparison;
mod formulations;
mod index3;
mod published_mechanism;
mod typed;
mod typed_texts;
mod vehicle;
