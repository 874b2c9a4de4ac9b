//! The contact layer's errors: a query that failed, a model that could not be built.

use super::hertz::pair::HertzPairError;
use super::pressure_field::{BodyBuildError, PressureFieldError};

/// A contact query failed.
#[derive(Debug, thiserror::Error)]
pub enum ContactError {
    #[error(transparent)]
    PressureField(#[from] PressureFieldError),
    #[error(transparent)]
    Hertz(#[from] HertzPairError),
    #[error(transparent)]
    Volume6d(#[from] super::volume6d::body::Volume6dPairError),
}

/// A scene's contact model could not be built.
#[derive(Debug, thiserror::Error)]
pub enum ModelSetupError {
    #[error(transparent)]
    PressureField(#[from] BodyBuildError),
    #[error("{0:#}")]
    Hertz(anyhow::Error),
    #[error(transparent)]
    Volume6d(#[from] super::volume6d::model::Volume6dSetupError),
    #[error(transparent)]
    Peg(#[from] super::peg::model::PegSetupError),
}
