//! The traction integral of a pair whose polygons all lie in one plane with one normal (a
//! compliant mesh on a rigid half space), in the plane's own 2D coordinates.
//!
//! The same three-point rule and tractions as [`super::traction::integrate_polygon`], with each
//! point's quantities written in the plane's basis (e1, e2, n̂) about a point o of the plane:
//! the relative velocity v = u + w × x is affine in the point's coordinates (s, t), so each
//! point costs a few multiply-adds instead of cross products, and the rule's points are never
//! built in 3D. Sums stay in plane coordinates until the query ends. (Rigid half spaces carry
//! every anchor scene; at rest this is most of a step.) The results equal the 3D path's up to
//! round-off.

use super::polygon_rule::{plane_basis, rule_in_plane};
use super::traction::{Accumulator, Kinetics, PlaneSums, add_derivatives};
use crate::field::LinearField;
use crate::math::{Plane, Point3, Vector3};

/// The rule points a [`PlaneQuadrature`] keeps until its query ends: (s, t, p0 there, weight).
pub type RulePoints = smallvec::SmallVec<[(f64, f64, f64, f64); 64]>;

/// Per-query constants and the running sums in plane coordinates.
pub struct PlaneQuadrature<'a> {
    /// The plane's point o (the primary's origin projected on it) and basis, e1 × e2 = n̂.
    origin: Point3,
    e1: Vector3,
    e2: Vector3,
    n: Vector3,
    /// The relative velocity (components along e1, e2, n̂) at o, and its change per unit s
    /// and per unit t.
    v0: Vector3,
    vs: Vector3,
    vt: Vector3,
    /// The rule points of the polygons added so far, (s, t, p0 there, weight), integrated when
    /// the query ends: one tight loop whose points' square roots and divisions overlap (per
    /// polygon, each waited on the last). Borrowed from the caller, who keeps it on its stack:
    /// held inline, its 2 kB were copied with every move of this value.
    points: &'a mut RulePoints,
    /// Sums in plane components: force; torque about o; ∫p0 dA and ∫(s, t) p0 dA; dissipated
    /// power; area; polygons.
    force: Vector3,
    torque: Vector3,
    int_p: f64,
    int_xp: (f64, f64),
    power: f64,
    area: f64,
    polygons: usize,
}

impl<'a> PlaneQuadrature<'a> {
    /// For polygons in `plane` (unit normal, pointing from the secondary into the primary), with
    /// `points` (emptied) to keep the rule points in.
    pub fn new(plane: &Plane, kin: &Kinetics, points: &'a mut RulePoints) -> PlaneQuadrature<'a> {
        let n = plane.normal;
        let (e1, e2) = plane_basis(&n, &kin.reference);
        let origin = Point3::from(n * plane.offset);
        let local = |v: Vector3| Vector3::new(v.dot(&e1), v.dot(&e2), v.dot(&n));
        PlaneQuadrature {
            origin,
            e1,
            e2,
            n,
            v0: local(kin.u + kin.w.cross(&origin.coords)),
            vs: local(kin.w.cross(&e1)),
            vt: local(kin.w.cross(&e2)),
            points: {
                points.clear();
                points
            },
            force: Vector3::zeros(),
            torque: Vector3::zeros(),
            int_p: 0.0,
            int_xp: (0.0, 0.0),
            power: 0.0,
            area: 0.0,
            polygons: 0,
        }
    }

    /// Adds one polygon (`points` in the plane, primary frame) with static pressure `p0`;
    /// derivatives, when `kin` asks for them, go straight into `acc`.
    #[inline]
    pub fn add(&mut self, points: &[Point3], p0: &LinearField, kin: &Kinetics, acc: &mut Accumulator) {
        let Some((area, rule)) = rule_in_plane(points, (&self.e1, &self.e2), &self.origin) else { return };
        let weight = area / 3.0;
        // p0 on the plane: affine in (s, t).
        let q = (p0.value(&self.origin), p0.gradient.dot(&self.e1), p0.gradient.dot(&self.e2));
        for &(s, t) in &rule {
            self.points.push((s, t, q.0 + q.1 * s + q.2 * t, weight));
        }
        self.area += area;
        self.polygons += 1;
        if kin.jacobian || kin.stiffness {
            let rule = rule.map(|(s, t)| self.origin + self.e1 * s + self.e2 * t);
            add_derivatives(&rule, weight, p0, &self.n, None, kin, acc);
        }
    }

    /// Integrates the tractions at the points kept, and adds the sums to `acc` in the primary's
    /// frame (torques about its origin).
    pub fn finish(mut self, kin: &Kinetics, acc: &mut Accumulator) {
        // The sums in locals (registers), added point by point in order as into the fields.
        let mut sums = PlaneSums {
            force: self.force,
            torque: self.torque,
            power: self.power,
            int_p: self.int_p,
            int_s: self.int_xp.0,
            int_t: self.int_xp.1,
        };
        let (v0, vs, vt) = (self.v0, self.vs, self.vt);
        for &(s, t, q0, weight) in self.points.iter() {
            sums.add(s, t, q0, &(v0 + vs * s + vt * t), weight, kin);
        }
        (self.force, self.torque, self.power, self.int_p, self.int_xp) =
            (sums.force, sums.torque, sums.power, sums.int_p, (sums.int_s, sums.int_t));
        let world = |v: &Vector3| self.e1 * v.x + self.e2 * v.y + self.n * v.z;
        let o = self.origin.coords;
        let force = world(&self.force);
        acc.force += force;
        acc.torque += o.cross(&force) + world(&self.torque);
        let elastic = self.n * self.int_p;
        acc.elastic_force += elastic;
        let arm = self.e1 * self.int_xp.0 + self.e2 * self.int_xp.1;
        acc.elastic_torque += o.cross(&elastic) + arm.cross(&self.n);
        acc.area += self.area;
        acc.polygons += self.polygons;
        acc.dissipation_power += self.power;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contact::pressure_field::polygon_rule::BasisCache;
    use crate::contact::pressure_field::traction::integrate_polygon;
    use crate::geometry::clip::TetSection;

    /// Polygons cut from random tets by a tilted plane, with pressures rising into the body,
    /// under a relative motion that slides, spins and separates (Hunt–Crossley's clamp bites
    /// at some points): the plane path and the 3D path agree to round-off in every sum and
    /// derivative.
    #[test]
    fn the_plane_path_matches_the_3d_path() {
        use proptest::prelude::RngExt;
        use proptest::test_runner::{RngAlgorithm, TestRng};
        let mut rng = TestRng::deterministic_rng(RngAlgorithm::ChaCha);
        let mut rnd = move || rng.random::<f64>() - 0.5;
        let n = Vector3::new(0.3, -0.2, 0.9).normalize();
        let plane = Plane::new(n, 0.4);
        for (u, w) in [
            (Vector3::new(0.2, -0.1, 0.05), Vector3::new(1.0, 2.0, -3.0)),
            (Vector3::new(1e-5, 2e-5, -1e-3), Vector3::new(0.0, 0.0, 1e-2)),
            (n * 0.8, Vector3::new(-2.0, 0.5, 4.0)),
        ] {
            let kin = Kinetics {
                u,
                w,
                dissipation: 1.5,
                friction: 0.5,
                stiction_speed: 1e-4,
                reference: Vector3::new(1.0, 2.0, 3.0).normalize(),
                jacobian: true,
                stiffness: true,
            };
            let (mut ours, mut theirs) = (Accumulator::default(), Accumulator::default());
            let mut points = RulePoints::new();
            let mut quadrature = PlaneQuadrature::new(&plane, &kin, &mut points);
            let mut bases = BasisCache::default();
            for _ in 0..200 {
                let centre = Point3::from(n * (0.4 + 0.05 * rnd()))
                    + Vector3::new(rnd(), rnd(), rnd()).cross(&n) * 0.2;
                let tet = [0, 1, 2, 3].map(|_| centre + Vector3::new(rnd(), rnd(), rnd()) * 0.1);
                let section = TetSection::new(&tet, &plane);
                let field = LinearField {
                    gradient: -n * 1e6 + Vector3::new(rnd(), rnd(), rnd()) * 3e5,
                    offset: 4e5 + rnd() * 1e5,
                };
                quadrature.add(section.points(), &field, &kin, &mut ours);
                integrate_polygon(section.points(), &field, &n, None, &kin, (&mut theirs, &mut bases));
            }
            quadrature.finish(&kin, &mut ours);
            assert!(theirs.polygons > 100 && ours.polygons == theirs.polygons);
            let close = |a: f64, b: f64, scale: f64, what: &str| {
                assert!((a - b).abs() <= 1e-11 * scale, "{what}: {a} vs {b}");
            };
            let scale = theirs.force.norm();
            for k in 0..3 {
                close(ours.force[k], theirs.force[k], scale, "force");
                close(ours.torque[k], theirs.torque[k], scale, "torque");
                close(ours.elastic_force[k], theirs.elastic_force[k], scale, "elastic force");
                close(ours.elastic_torque[k], theirs.elastic_torque[k], scale, "elastic torque");
            }
            close(ours.area, theirs.area, theirs.area, "area");
            close(ours.dissipation_power, theirs.dissipation_power, scale * (u.norm() + w.norm()), "power");
            let (j, k) = (theirs.jacobian.norm(), theirs.stiffness.norm());
            assert!(j > 0.0 && k > 0.0);
            assert!((ours.jacobian - theirs.jacobian).norm() <= 1e-11 * j);
            assert!((ours.stiffness - theirs.stiffness).norm() <= 1e-11 * k);
        }
    }
}
