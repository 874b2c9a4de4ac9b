//! Errors of the Hertz model's geometry and narrow phase.

/// A shape that cannot take part in collision detection. Messages say how to fix it.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum HertzGeometryError {
    #[error("{what} of a {shape} must be a positive finite number (m), got {value}")]
    NonPositive { shape: &'static str, what: &'static str, value: f64 },
    #[error("{what} of a {shape} must be a finite number ≥ 0 (m), got {value}")]
    Negative { shape: &'static str, what: &'static str, value: f64 },
    #[error(
        "smoothing radius {smoothing} m of a {shape} exceeds 10% of its smallest dimension ({smallest} m); use at most {limit} m or `with_default_smoothing`"
    )]
    SmoothingTooLarge { shape: &'static str, smoothing: f64, smallest: f64, limit: f64 },
    #[error("a cone's top radius {top} m must not exceed its base radius {base} m; flip the cone instead")]
    TopWiderThanBase { top: f64, base: f64 },
    #[error("convex hull points are unusable: {reason}")]
    BadHull { reason: String },
    #[error("a {shape} cannot be used by the hertz model: {hint}")]
    Unsupported { shape: &'static str, hint: &'static str },
}

/// Which body of a pair an error is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Body {
    A,
    B,
}

impl std::fmt::Display for Body {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Body::A => "a",
            Body::B => "b",
        })
    }
}

/// A narrow-phase query that produced no usable answer.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum MprError {
    #[error("shape of body {body}: {source}")]
    Shape { body: Body, source: HertzGeometryError },
    #[error("pose of body {body} is unusable: {reason}; give a finite translation and a unit quaternion")]
    Pose { body: Body, reason: &'static str },
    /// Round-off or non-finite support points (e.g. NaN hull points) spoiled every estimate.
    #[error(
        "collision detection produced no finite result ({stage}); check the shapes for NaN or huge values"
    )]
    NonFinite { stage: &'static str },
}
