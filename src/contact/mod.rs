//! Contact models. Each turns geometry + poses (+ velocities) into contact results.

pub mod hertz;
pub mod model;
pub mod pressure_field;
pub mod volume6d;
