use odelab::spec::{SolveSpec, Tol};

fn spec(model: &str, formulation: Option<&str>, method: &str, tol: f64) -> SolveSpec {
    SolveSpec {
        model: model.into(),
        method: method.into(),
        formulation: formulation.map(Into::into),
        rtol: Some(Tol::Scalar(tol)),
        atol: Some(Tol::Scalar(tol)),
        ..SolveSpec::default()
    }
}

fn output<'a>(run: &'a odelab::Solution, name: &str) -> &'a [f64] {
    &run.outputs.iter().find(|(n, _)| n == name).unwrap().1
}

#[test]
fn smoke() {
    for f in [None, Some("augmented"), Some("state-space")] {
        let run = odelab::solve(&spec("double-pendulum-rsda", f, "ros4", 1e-6)).unwrap();
        let last = run.t.len() - 1;
        println!(
            "{f:?} names {:?} stopped {:?} stats {:?} report {:?}",
            run.names, run.stopped_by, run.stats, run.constraint
        );
        println!("  y_end {:?}", &run.y[last * run.dim..]);
        if f.is_some() {
            let phi = output(&run, "constraint |Φ|");
            let vel = output(&run, "velocity constraint |Φq q̇|");
            println!(
                "  drift {:e} {:e}, phi1 {}",
                phi.iter().cloned().fold(0.0, f64::max),
                vel.iter().cloned().fold(0.0, f64::max),
                output(&run, "q:φ1")[last]
            );
        }
    }
}
