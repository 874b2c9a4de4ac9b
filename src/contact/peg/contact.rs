//! A contact between a feature of one body and a feature of another, and the sets of contacts
//! the time stepper turns into complementarity rows.

use crate::math::{Point3, Vector3};

/// A potential contact at the start of a step (world frame).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contact {
    /// The body that owns the vertex (or the first edge).
    pub body1: usize,
    /// The body that owns the edge or face (or the second edge).
    pub body2: usize,
    /// The point on body 1 (the vertex, or the closest point of its edge).
    pub point: Point3,
    /// Unit normal from body 1 into body 2 (minus the outward normal of body 2's feature).
    pub normal: Vector3,
    /// Signed gap ψ (m): > 0 apart, < 0 penetrating; body 2's point is `point + gap·normal`.
    pub gap: f64,
    /// Relaxed applicability: ≥ 0 when body 2's feature normal lies in the normal cone of body
    /// 1's feature (classical applicability); slightly negative values are still accepted.
    pub applicability: f64,
}

impl Contact {
    /// The point on body 2.
    pub fn point2(&self) -> Point3 {
        self.point + self.gap * self.normal
    }
}

/// A set of contacts the stepper turns into rows.
#[derive(Clone, Debug, PartialEq)]
pub enum ConstraintSet {
    /// One contact with no competitor: 0 ≤ p ⟂ ψ⁺ ≥ 0.
    Unilateral(Contact),
    /// Contacts of which at least one must hold (the largest end-of-step gap ≥ 0), with one
    /// force, on the primary. `force` marks the members that may carry it (relaxed
    /// applicability above the threshold); the stepper chooses the primary among them (the
    /// largest predicted gap). Inter-contact sets (one feature against several) and
    /// cross-contact sets (contacts of both bodies' vertices) both take this form.
    Inter { members: Vec<Contact>, force: Vec<bool> },
}

impl ConstraintSet {
    /// The bodies of the set's contacts (all members of a set join the same two bodies).
    pub fn bodies(&self) -> (usize, usize) {
        let c = match self {
            ConstraintSet::Unilateral(c) => c,
            ConstraintSet::Inter { members, .. } => &members[0],
        };
        (c.body1, c.body2)
    }
}
