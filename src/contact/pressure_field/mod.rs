//! Pressure field contact (Elandt et al. 2019).

mod surface;

pub use surface::{ContactPolygon, ContactSurface};
