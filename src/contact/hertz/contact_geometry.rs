//! Contact-sphere geometry of the Modia3D force law: every shape is approximated by a sphere of
//! radius `r_contact` (the paper's table of default radii), and a pair of such spheres gives the
//! geometry factor `μ_r,geo`.
//!
//! Inputs are plain numbers so this module does not depend on the geometry layer's shape types.

/// Why a contact geometry was rejected.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum GeometryError {
    #[error("contact shape {shape}: `{key}` must be a positive finite length in m, got {value}")]
    NotPositive { shape: &'static str, key: &'static str, value: f64 },
    #[error("contact shape {shape}: `{key}` must be a finite length ≥ 0 in m, got {value}")]
    Negative { shape: &'static str, key: &'static str, value: f64 },
    #[error("contact sphere radius must be a positive finite length in m, got {0}")]
    BadRadius(f64),
}

/// Shape data the contact-sphere table needs. Lengths are full extents (diameters, edge lengths)
/// in m, as in the paper's table.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ContactShapeKind {
    Sphere {
        diameter: f64,
    },
    /// Full axis lengths (x, y, z).
    Ellipsoid {
        lengths: [f64; 3],
    },
    /// Edge lengths (x, y, z).
    Box {
        lengths: [f64; 3],
    },
    Cylinder {
        diameter: f64,
        length: f64,
    },
    /// `top_diameter = 0` is a pointed cone.
    Cone {
        diameter: f64,
        top_diameter: f64,
    },
    Capsule {
        diameter: f64,
    },
    Beam {
        length: f64,
        width: f64,
        thickness: f64,
    },
    /// A (convex hull of a) triangle mesh, described by its shortest edge.
    Mesh {
        shortest_edge: f64,
    },
}

impl ContactShapeKind {
    /// Default contact-sphere radius `r_contact` (m), the paper's table.
    pub fn contact_radius(&self) -> f64 {
        match *self {
            Self::Sphere { diameter } | Self::Capsule { diameter } => diameter / 2.0,
            Self::Ellipsoid { lengths } | Self::Box { lengths } => min3(lengths) / 2.0,
            Self::Cylinder { diameter, length } => diameter.min(length) / 2.0,
            Self::Cone { diameter, top_diameter } => (diameter + top_diameter) / 4.0,
            Self::Beam { length, width, thickness } => min3([length, width, thickness]) / 2.0,
            Self::Mesh { shortest_edge } => shortest_edge / 2.0,
        }
    }

    /// Whether the paper treats the shape as flat (Box and Beam): a flat shape's radius only
    /// matters when it touches another flat shape.
    pub fn is_flat(&self) -> bool {
        matches!(self, Self::Box { .. } | Self::Beam { .. })
    }

    fn name(&self) -> &'static str {
        match self {
            Self::Sphere { .. } => "Sphere",
            Self::Ellipsoid { .. } => "Ellipsoid",
            Self::Box { .. } => "Box",
            Self::Cylinder { .. } => "Cylinder",
            Self::Cone { .. } => "Cone",
            Self::Capsule { .. } => "Capsule",
            Self::Beam { .. } => "Beam",
            Self::Mesh { .. } => "Mesh",
        }
    }

    /// Checks every length, so `contact_radius` is positive and finite.
    pub fn validate(&self) -> Result<(), GeometryError> {
        let shape = self.name();
        let pos = |key: &'static str, value: f64| {
            if value.is_finite() && value > 0.0 {
                Ok(())
            } else {
                Err(GeometryError::NotPositive { shape, key, value })
            }
        };
        match *self {
            Self::Sphere { diameter } | Self::Capsule { diameter } => pos("diameter", diameter),
            Self::Ellipsoid { lengths } | Self::Box { lengths } => {
                pos("lengths[0]", lengths[0])?;
                pos("lengths[1]", lengths[1])?;
                pos("lengths[2]", lengths[2])
            }
            Self::Cylinder { diameter, length } => {
                pos("diameter", diameter)?;
                pos("length", length)
            }
            Self::Cone { diameter, top_diameter } => {
                pos("diameter", diameter)?;
                if top_diameter.is_finite() && top_diameter >= 0.0 {
                    Ok(())
                } else {
                    Err(GeometryError::Negative { shape, key: "top_diameter", value: top_diameter })
                }
            }
            Self::Beam { length, width, thickness } => {
                pos("length", length)?;
                pos("width", width)?;
                pos("thickness", thickness)
            }
            Self::Mesh { shortest_edge } => pos("shortest_edge", shortest_edge),
        }
    }

    /// The validated contact sphere of this shape.
    pub fn contact_sphere(&self) -> Result<ContactSphere, GeometryError> {
        self.validate()?;
        ContactSphere::new(self.contact_radius(), self.is_flat())
    }
}

fn min3(v: [f64; 3]) -> f64 {
    v[0].min(v[1]).min(v[2])
}

/// A shape's contact sphere: radius `r_contact` (m) and the isFlat flag.
///
/// Built from a [`ContactShapeKind`], or directly when a solid sets its own `contactSphereRadius`
/// (which the paper says replaces the default).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ContactSphere {
    radius: f64,
    is_flat: bool,
}

impl ContactSphere {
    /// Rejects a radius that is not positive and finite.
    pub fn new(radius: f64, is_flat: bool) -> Result<Self, GeometryError> {
        if radius.is_finite() && radius > 0.0 {
            Ok(Self { radius, is_flat })
        } else {
            Err(GeometryError::BadRadius(radius))
        }
    }

    /// Contact-sphere radius `r_contact` (m).
    pub fn radius(&self) -> f64 {
        self.radius
    }

    /// The paper's isFlat flag.
    pub fn is_flat(&self) -> bool {
        self.is_flat
    }
}

/// Geometry factor `μ_r,geo` (m) of two contact spheres (the paper's flat/non-flat table):
/// the reduced radius `r1·r2/(r1 + r2)` unless exactly one shape is flat, in which case the
/// radius of the non-flat one.
pub fn mu_r_geo(s1: &ContactSphere, s2: &ContactSphere) -> f64 {
    let (r1, r2) = (s1.radius, s2.radius);
    match (s1.is_flat, s2.is_flat) {
        (false, true) => r1,
        (true, false) => r2,
        _ => r1 * r2 / (r1 + r2),
    }
}
