//! A simple solid inside a shape (the shape itself where it is simple), for the question "is
//! this ball wholly inside the shape?" asked of two bodies that may have passed into each other.
//! The answer errs towards "no": a shape without a simple inner solid has none.

use super::Shape;
use crate::math::Vector3;

/// A solid contained in a shape, in the shape's frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Interior {
    /// A ball of this radius about the origin.
    Ball { radius: f64 },
    /// A box of these half sizes about the origin.
    Box { half: [f64; 3] },
    /// A flat-ended cylinder along z: radius and half length.
    Cylinder { radius: f64, half_length: f64 },
    /// The points within `radius` of the segment z ∈ [−half_length, half_length].
    Capsule { radius: f64, half_length: f64 },
}

impl Interior {
    /// The interior of `shape` (the shape itself for spheres, boxes, cylinders and capsules;
    /// the largest centred ball of an ellipsoid; the core box of a beam); `None` for the other
    /// shapes.
    pub fn of(shape: &Shape) -> Option<Interior> {
        Some(match shape {
            Shape::Sphere { radius } => Interior::Ball { radius: *radius },
            Shape::Box { size } => Interior::Box { half: size.map(|s| 0.5 * s) },
            Shape::Cylinder { radius, length } => {
                Interior::Cylinder { radius: *radius, half_length: 0.5 * length }
            }
            Shape::Capsule { radius, length } => {
                Interior::Capsule { radius: *radius, half_length: 0.5 * length }
            }
            Shape::Ellipsoid { radii } => {
                Interior::Ball { radius: radii.iter().copied().fold(f64::INFINITY, f64::min) }
            }
            Shape::Beam { length, width, thickness } => {
                Interior::Box { half: [0.5 * length, 0.5 * width, 0.5 * thickness] }
            }
            Shape::Cone { .. }
            | Shape::HalfSpace
            | Shape::Convex { .. }
            | Shape::Mesh { .. }
            | Shape::Compound { .. }
            | Shape::Polygon { .. } => return None,
        })
    }

    /// The radius of the largest ball it contains: a smaller body's bounding sphere fits
    /// inside only if its radius is at most this.
    pub fn inradius(&self) -> f64 {
        match *self {
            Interior::Ball { radius } | Interior::Capsule { radius, .. } => radius,
            Interior::Box { half } => half[0].min(half[1]).min(half[2]),
            Interior::Cylinder { radius, half_length } => radius.min(half_length),
        }
    }

    /// Whether the ball of `radius` about `centre` (shape frame) lies wholly inside.
    pub fn contains_ball(&self, centre: &Vector3, radius: f64) -> bool {
        match *self {
            Interior::Ball { radius: r } => centre.norm() + radius <= r,
            Interior::Box { half } => (0..3).all(|i| centre[i].abs() + radius <= half[i]),
            Interior::Cylinder { radius: r, half_length } => {
                centre.x.hypot(centre.y) + radius <= r && centre.z.abs() + radius <= half_length
            }
            Interior::Capsule { radius: r, half_length } => {
                let along = centre.z.clamp(-half_length, half_length);
                (centre - Vector3::new(0.0, 0.0, along)).norm() + radius <= r
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ball_is_inside_only_when_all_of_it_is() {
        let cube = Interior::of(&Shape::Box { size: [1.0, 1.0, 1.0] }).unwrap();
        assert!(cube.contains_ball(&Vector3::new(0.1, 0.0, 0.0), 0.4));
        assert!(!cube.contains_ball(&Vector3::new(0.2, 0.0, 0.0), 0.4));
        let capsule = Interior::of(&Shape::Capsule { radius: 0.5, length: 2.0 }).unwrap();
        assert!(capsule.contains_ball(&Vector3::new(0.0, 0.0, 1.2), 0.3));
        assert!(!capsule.contains_ball(&Vector3::new(0.0, 0.0, 1.3), 0.3));
        let cylinder = Interior::of(&Shape::Cylinder { radius: 0.5, length: 2.0 }).unwrap();
        assert!(cylinder.contains_ball(&Vector3::new(0.3, 0.0, 0.0), 0.2));
        assert!(!cylinder.contains_ball(&Vector3::new(0.0, 0.0, 0.9), 0.2));
        let ellipsoid = Interior::of(&Shape::Ellipsoid { radii: [1.0, 0.5, 2.0] }).unwrap();
        assert!(ellipsoid.contains_ball(&Vector3::zeros(), 0.5));
        assert!(!ellipsoid.contains_ball(&Vector3::zeros(), 0.6));
        assert!(Interior::of(&Shape::HalfSpace).is_none());
    }
}
