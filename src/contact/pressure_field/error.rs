use crate::geometry::GeometryError;

/// Errors of the pressure field model. Each says how to fix the input.
#[derive(Debug, thiserror::Error)]
pub enum PressureFieldError {
    #[error("`{key}` must be a positive finite number, got {value}")]
    NotPositive { key: &'static str, value: f64 },
    #[error("`{key}` must be a finite number ≥ 0, got {value}")]
    Negative { key: &'static str, value: f64 },
    #[error("missing `{key}`: {why}")]
    MissingKey { key: &'static str, why: &'static str },
    #[error(
        "two rigid bodies cannot touch under the pressure field model; make one of them compliant (contact.compliance = \"compliant\")"
    )]
    RigidRigid,
    #[error("two half spaces cannot be in contact; fix one of them or use another shape")]
    TwoHalfSpaces,
    #[error("a body without a shape touches nothing; give it a `shape` to put it in contact")]
    NoShape,
    #[error(transparent)]
    Geometry(#[from] GeometryError),
    #[error(transparent)]
    Field(#[from] crate::field::FieldError),
    #[error("the mesh file's `extent` is unusable: {reason}; remove it to compute a Laplace field instead")]
    BadExtent { reason: String },
}
