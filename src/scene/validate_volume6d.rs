//! `[model]` keys of the 6D model: checked, and refused under the other models.

use super::checks;
use super::raw::RawModel;
use super::{ModelKind, Place, SceneError, SpinLimit, Volume6dFormulation, Volume6dSpec};

/// The patch scale k a scene may give: the patch's semi-axes √(k·λ) stay within a factor of
/// about 30 of the uniform patch's (k = 3), beyond which the patch no longer describes the
/// contact (and a vanishing one leaves the spin bound undefined).
pub const PATCH_SCALE_RANGE: (f64, f64) = (1e-3, 1e3);

/// The 6D settings of `[model]`; an error names a key given to another model, or a value out
/// of range with the valid ones.
pub(super) fn volume6d_spec(kind: ModelKind, raw: &RawModel) -> Result<Volume6dSpec, SceneError> {
    let mut spec = Volume6dSpec::default();
    let place = Place::section("[model]");
    // `formulation` is the 6D model's and PEG's (each reads its own values).
    checks::model_keys(
        &[ModelKind::Volume6d, ModelKind::Peg],
        kind,
        &[("formulation", raw.formulation.is_some())],
    )?;
    let given = [
        ("patch_scale", raw.patch_scale.is_some()),
        ("iterations", raw.iterations.is_some()),
        ("tolerance", raw.tolerance.is_some()),
        ("warm_start", raw.warm_start.is_some()),
        ("spin_limit", raw.spin_limit.is_some()),
    ];
    checks::model_keys(&[ModelKind::Volume6d], kind, &given)?;
    if kind != ModelKind::Volume6d {
        return Ok(spec);
    }
    match raw.formulation.as_deref() {
        None | Some("6d") => {}
        Some("points") => spec.formulation = Volume6dFormulation::Points,
        Some(other) => {
            return Err(checks::invalid(
                &place,
                "formulation",
                format!("`{other}` is unknown"),
                "use \"6d\" (the default) or \"points\"".into(),
            ));
        }
    }
    if let Some(k) = raw.patch_scale {
        spec.patch_scale = checks::within(&place, "patch_scale", k, PATCH_SCALE_RANGE, "")?;
    }
    if let Some(n) = raw.iterations {
        if !(1..=100_000_000).contains(&n) {
            return Err(checks::invalid(
                &place,
                "iterations",
                format!("must be a whole number from 1 to 1e8, got {n}"),
                "give the most Gauss–Seidel sweeps per step, e.g. iterations = 100".into(),
            ));
        }
        spec.iterations = n as usize;
    }
    if let Some(t) = raw.tolerance {
        spec.tolerance = checks::positive(&place, "tolerance", t, "N·s")?;
    }
    if let Some(w) = raw.warm_start {
        spec.warm_start = w;
    }
    match raw.spin_limit.as_deref() {
        None | Some("uniform") => {}
        Some("corners") => spec.spin_limit = SpinLimit::Corners,
        Some(other) => {
            return Err(checks::invalid(
                &place,
                "spin_limit",
                format!("`{other}` is unknown"),
                "use \"uniform\" (the default) or \"corners\"".into(),
            ));
        }
    }
    Ok(spec)
}
