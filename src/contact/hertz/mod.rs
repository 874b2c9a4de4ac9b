//! Hertz point contact with MPR collision detection (the Modia3D model).

pub mod contact_geometry;
pub mod force_law;
pub mod material;
