//! The spectrum of ∂f/∂y at a state: the eigenvalues λᵢ whose products hλᵢ the
//! stability view draws over a method's region (Gil, Sanfelice & Nikravesh 2013 §4: why RK4 fails at h = 0.005
//! on the pendulum-plus-particle system). Eigenvalues come from nalgebra's real Schur
//! decomposition, with an iteration cap so no matrix can hang or panic the core.

use crate::error::OdeError;
use crate::model::Model;
use nalgebra::{Complex, DMatrix, Schur};

/// Most dimensions a spectrum is computed for (the Schur form is O(n³)).
pub const MAX_DIM: usize = 400;

/// Eigenvalues of `jacobian`, sorted by decreasing modulus.
pub fn eigenvalues(jacobian: DMatrix<f64>) -> Result<Vec<Complex<f64>>, OdeError> {
    let n = jacobian.nrows();
    if n > MAX_DIM {
        return Err(OdeError::OutOfRange {
            what: "the number of states whose eigenvalues the ξ-plane computes".into(),
            value: n as f64,
            allowed: format!(
                "at most {MAX_DIM} (a dense eigenvalue computation costs n³; a smaller N \
                 shows the same pattern)"
            ),
        });
    }
    // nalgebra's Schur decomposition underflows an index on a 0 × 0 matrix.
    if n == 0 {
        return Ok(Vec::new());
    }
    if jacobian.iter().any(|v| !v.is_finite()) {
        return Err(OdeError::NotFinite {
            what: "the Jacobian at this state".into(),
        });
    }
    let schur = Schur::try_new(jacobian, f64::EPSILON, 100 * n.max(1)).ok_or_else(|| {
        OdeError::BadSpec {
            message: "the eigenvalue iteration did not converge for this Jacobian".into(),
        }
    })?;
    let mut values: Vec<Complex<f64>> = schur.complex_eigenvalues().iter().copied().collect();
    values.sort_by(|a, b| b.norm().total_cmp(&a.norm()));
    Ok(values)
}

/// Eigenvalues of the model's Jacobian at (t, y).
pub fn of_model(model: &dyn Model, t: f64, y: &[f64]) -> Result<Vec<Complex<f64>>, OdeError> {
    if y.len() != model.dim() {
        return Err(OdeError::WrongLength {
            what: "state y".into(),
            expected: model.dim(),
            got: y.len(),
        });
    }
    let jacobian = model.jacobian(t, y).ok_or_else(|| OdeError::BadSpec {
        message: "this model has no Jacobian ∂f/∂y, so its eigenvalues cannot be shown".into(),
    })?;
    // A constrained formulation that cannot recover or solve at y says why.
    if let Some(failure) = model.take_failure() {
        return Err(failure.at(t, 0.0));
    }
    eigenvalues(jacobian)
}

/// What `spectrum()` in JS asks for: a model (or system text) and a state.
#[derive(Debug, Clone, Default, serde::Deserialize, tsify::Tsify)]
#[tsify(hashmap_as_object)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SpectrumSpec {
    #[serde(default, deserialize_with = "crate::spec::or_default")]
    pub model: String,
    #[serde(default)]
    #[tsify(optional)]
    pub system: Option<String>,
    #[serde(default, deserialize_with = "crate::spec::or_default")]
    pub params: std::collections::BTreeMap<String, f64>,
    #[serde(default, deserialize_with = "crate::spec::or_default")]
    pub t: f64,
    /// The state; the model's default initial state when absent.
    #[serde(default)]
    #[tsify(optional)]
    pub y: Option<Vec<f64>>,
    /// A constrained model's formulation ("augmented", "state-space"): the eigenvalues
    /// are then those of that formulation's ODE in its own coordinates (y in its
    /// layout), e.g. the state-space ODE whose dominant eigenvalue Negrut et al. 2003 §3.2 quotes.
    #[serde(default)]
    #[tsify(optional, type = "'native' | 'augmented' | 'state-space'")]
    pub formulation: Option<String>,
    /// The state-space formulation's independent coordinates y is written in (after a
    /// re-partition they differ from the default ones).
    #[serde(default)]
    #[tsify(optional)]
    pub independent: Option<Vec<String>>,
    /// The augmented formulation's stabilisation ("baumgarte" changes the ODE and so its
    /// eigenvalues; "projection" acts between steps and does not), with α, β.
    #[serde(default)]
    #[tsify(optional, type = "'none' | 'baumgarte' | 'projection'")]
    pub stabilization: Option<String>,
    #[serde(default)]
    #[tsify(optional)]
    pub baumgarte_alpha: Option<f64>,
    #[serde(default)]
    #[tsify(optional)]
    pub baumgarte_beta: Option<f64>,
    /// One diagonal block of ∂f/∂y instead of the whole: "slow" (∂f_x/∂x, whose λ_s
    /// define ξ = hλ_s of the slow/fast map, Gil, Sanfelice & Nikravesh 2013, eq. 51) or
    /// "fast" (∂g/∂z, integrated by its matrix exponential).
    #[serde(default)]
    #[tsify(optional, type = "'slow' | 'fast'")]
    pub block: Option<String>,
    /// The fast states of that partition (default: the model's own, `ModelInfo.fast`).
    #[serde(default)]
    #[tsify(optional)]
    pub fast: Option<Vec<usize>>,
}

/// Eigenvalues of ∂f/∂y for a spectrum spec, sorted by decreasing modulus.
pub fn of_spec(spec: &SpectrumSpec) -> Result<Vec<Complex<f64>>, OdeError> {
    let solve_spec = crate::spec::SolveSpec {
        model: spec.model.clone(),
        system: spec.system.clone(),
        params: spec.params.clone(),
        formulation: spec.formulation.clone(),
        independent: spec.independent.clone(),
        stabilization: spec.stabilization.clone(),
        baumgarte_alpha: spec.baumgarte_alpha,
        baumgarte_beta: spec.baumgarte_beta,
        ..Default::default()
    };
    let (info, model) = crate::driver::build_model(&solve_spec)?;
    let y = match &spec.y {
        Some(y) => y.clone(),
        None => model.default_y0().unwrap_or(info.y0),
    };
    crate::spec::finite(spec.t, "time t")?;
    for v in &y {
        crate::spec::finite(*v, "the state y")?;
    }
    let Some(block) = &spec.block else {
        return of_model(model.as_ref(), spec.t, &y);
    };
    let fast = spec.fast.clone().unwrap_or(info.fast);
    let rows = partition(block, &fast, y.len())?;
    if y.len() != model.dim() {
        return Err(OdeError::WrongLength {
            what: "state y".into(),
            expected: model.dim(),
            got: y.len(),
        });
    }
    let jacobian = model
        .jacobian(spec.t, &y)
        .ok_or_else(|| OdeError::BadSpec {
            message: "this model has no Jacobian, so its eigenvalues cannot be shown".into(),
        })?;
    if let Some(failure) = model.take_failure() {
        return Err(failure.at(spec.t, 0.0));
    }
    eigenvalues(jacobian.select_rows(&rows).select_columns(&rows))
}

/// The states of one block of a slow/fast partition: "fast" the given indices, "slow"
/// the others, in increasing order.
fn partition(block: &str, fast: &[usize], dim: usize) -> Result<Vec<usize>, OdeError> {
    for (k, &i) in fast.iter().enumerate() {
        if i >= dim || fast[..k].contains(&i) {
            return Err(OdeError::BadSpec {
                message: format!(
                    "fast[{k}] = {i} is not a state index of its own (the system has {dim} states)"
                ),
            });
        }
    }
    if fast.is_empty() {
        return Err(OdeError::BadSpec {
            message: "this model declares no fast states: give their indices, e.g. fast: [1] \
                      (a typed system names them in a line such as fast v)"
                .into(),
        });
    }
    match block {
        "fast" => {
            let mut rows = fast.to_vec();
            rows.sort_unstable();
            Ok(rows)
        }
        "slow" => Ok((0..dim).filter(|i| !fast.contains(i)).collect()),
        other => Err(OdeError::BadSpec {
            message: format!("block must be \"slow\" or \"fast\", not \"{other}\""),
        }),
    }
}
