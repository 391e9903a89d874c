//! The seam through which a method with its own step-size policy (radau5: RADAU5's
//! predictive controller, keep-h band and Newton-failure factor) chooses its step
//! sizes: the driver asks `Stepper::step_control` and, when the method has one and the
//! spec names no `controller`, calls it where it would call the run's [`super::Controller`].

/// A method's own step-size policy, asked by the driver in place of the run's
/// controller when the spec names none (`Stepper::step_control`).
pub trait StepControl {
    /// The next step after an accepted step of size h with normalised error `err`
    /// (`after_reject`: an attempt of this step was rejected or failed before).
    fn after_accept(&mut self, h: f64, err: f64, after_reject: bool) -> f64;
    /// The retry after the error test rejected a step of size h with error `err` > 1.
    fn after_reject(&mut self, h: f64, err: f64) -> f64;
    /// The retry after a step of size h failed in its linear algebra or its Newton
    /// iteration.
    fn after_failure(&mut self, h: f64) -> f64;
}
