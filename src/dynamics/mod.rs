//! Dynamics: bodies, the world, integrators.

pub mod ode;
