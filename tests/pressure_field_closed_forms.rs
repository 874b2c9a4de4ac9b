//! Pressure field contact against closed forms: the Hertz-like sphere on a half space, and
//! hydrostatics.

mod common;
use common::*;
use contactlab::contact::pressure_field::{QueryOptions, evaluate_pair};
use contactlab::geometry::Shape;
use contactlab::math::{Point3, Vector3};
use std::f64::consts::PI;

const R: f64 = 0.1;
const E: f64 = 1e5;
const D: f64 = 0.01;

/// F = (π/3)·E·d²·(3 − 2d/R) for p0 = E(1 − r/R) pressed d into a rigid plane.
fn sphere_force(d: f64) -> f64 {
    PI / 3.0 * E * d * d * (3.0 - 2.0 * d / R)
}

/// U = ∫₀^d F = π·E·d³/3 − π·E·d⁴/(6R).
fn sphere_energy(d: f64) -> f64 {
    PI * E * d.powi(3) / 3.0 - PI * E * d.powi(4) / (6.0 * R)
}

/// The ball meshed on purpose (its tets' field integrated; by default a sphere on a half space
/// takes its analytic field's exact integral, tests/sphere_plane.rs).
fn sphere_on_rigid_ground(resolution: f64) -> (f64, f64, Vector3) {
    let ball = compliant(Shape::Sphere { radius: R }, E, resolution).with_meshed_field();
    let ground = rigid(Shape::HalfSpace, None);
    let a = at(&ball, pose([0.0, 0.0, R - D], [0.0, 0.0, 0.0]));
    let b = at(&ground, pose([0.0, 0.0, 0.0], [0.0, 0.0, 0.0]));
    let w = wrench(a, b);
    (w.force.z, energy(a, b), w.force)
}

#[test]
fn sphere_on_half_space_matches_closed_form_and_converges() {
    let exact = sphere_force(D);
    assert!((exact - 29.3215).abs() < 1e-3, "closed form {exact}");
    let mut last = f64::INFINITY;
    for res in [0.01, 0.005, 0.0025] {
        let (f, u, force) = sphere_on_rigid_ground(res);
        let err = (f - exact).abs() / exact;
        let uerr = (u - sphere_energy(D)).abs() / sphere_energy(D);
        eprintln!(
            "resolution {res}: force {f:.6} N (error {:.3}%), energy {u:.6e} J (error {:.3}%)",
            err * 100.0,
            uerr * 100.0
        );
        assert!(err < last, "error must fall under refinement: {err} after {last}");
        // The ball is centred over the origin: no lateral force.
        assert!(force.xy().norm() < 1e-9 * f);
        last = err;
    }
    assert!(last <= 0.01, "error at resolution 0.0025 is {:.3}%", last * 100.0);
}

/// Area and centroid (in the y–z plane) of the part of the rectangle |y| ≤ hy, |z| ≤ hz,
/// rotated by `angle` about x and shifted up by `height`, that lies below z = 0.
fn submerged_section(hy: f64, hz: f64, angle: f64, height: f64) -> (f64, [f64; 2]) {
    let (s, c) = angle.sin_cos();
    let corners =
        [[-hy, -hz], [hy, -hz], [hy, hz], [-hy, hz]].map(|[y, z]| [c * y - s * z, s * y + c * z + height]);
    // Clip the polygon to z ≤ 0 (Sutherland–Hodgman in 2D), then shoelace.
    let mut out: Vec<[f64; 2]> = Vec::new();
    for i in 0..4 {
        let (p, q) = (corners[i], corners[(i + 1) % 4]);
        if p[1] <= 0.0 {
            out.push(p);
        }
        if (p[1] < 0.0) != (q[1] < 0.0) {
            let t = p[1] / (p[1] - q[1]);
            out.push([p[0] + t * (q[0] - p[0]), 0.0]);
        }
    }
    let (mut a, mut cy, mut cz) = (0.0, 0.0, 0.0);
    for i in 0..out.len() {
        let (p, q) = (out[i], out[(i + 1) % out.len()]);
        let cross = p[0] * q[1] - q[0] * p[1];
        a += cross / 2.0;
        cy += (p[0] + q[0]) * cross / 6.0;
        cz += (p[1] + q[1]) * cross / 6.0;
    }
    (a, [cy / a, cz / a])
}

#[test]
fn rigid_box_in_compliant_half_space_is_hydrostatic() {
    let (e, slab) = (2e5, 0.05);
    let size = [0.2, 0.1, 0.06];
    let block = rigid(Shape::Box { size }, None);
    let pool = compliant_half_space(e, slab);
    for (angle, height) in [(0.0, 0.01), (0.3, 0.0), (-0.7, 0.02), (1.2, -0.01)] {
        let a = at(&block, pose([0.0, 0.0, height], [angle, 0.0, 0.0]));
        let b = at(&pool, pose([0.0, 0.0, 0.0], [0.0, 0.0, 0.0]));
        let w = wrench(a, b);
        let (area, [cy, cz]) = submerged_section(size[1] / 2.0, size[2] / 2.0, angle, height);
        let volume = area * size[0];
        let force = Vector3::new(0.0, 0.0, e / slab * volume);
        assert!(rel(&w.force, &force, force.norm()) < 1e-12, "angle {angle}: {:?} vs {force:?}", w.force);
        // Buoyancy acts through the centre of the submerged volume.
        let torque = Point3::new(0.0, cy, cz).coords.cross(&force);
        assert!(
            rel(&w.torque, &torque, force.norm() * 0.1) < 1e-12,
            "angle {angle}: {:?} vs {torque:?}",
            w.torque
        );
        // Energy: ∫ E·depth/slab over the submerged volume = (E/slab)·V·(−z_c).
        let u = energy(a, b);
        let exact_u = e / slab * volume * (-cz);
        assert!((u - exact_u).abs() <= 1e-12 * exact_u.abs().max(1e-9), "angle {angle}: {u} vs {exact_u}");
    }
}

/// ∫ g dy and ∫ g² dy over the strip |y| ≤ a where a cylinder of radius `r` lying `d` deep
/// meets the plane, g = r − √(y² + h²) the depth below the surface at lateral offset y
/// (h = r − d, a = √(r² − h²)).
fn strip_integrals(r: f64, d: f64) -> (f64, f64) {
    let h = r - d;
    let a = (r * r - h * h).sqrt();
    let log = ((a + r) / h).ln();
    let g1 = a * r - h * h * log;
    let g2 = 2.0 * a * (r * r + h * h) + 2.0 * a.powi(3) / 3.0 - 2.0 * r * (a * r + h * h * log);
    (g1, g2)
}

/// A compliant cylinder (R 0.05, length 2L, E 1e5) lying `d` = 5 mm deep on a rigid plane, its
/// field ε = min(R − ρ, L − |z|)/R: at lateral offset y the pressure integrates along the axis to
/// (E/R)·(2gL − g²), so F = (E/R)·(2L·∫g − ∫g²) (56.3575 N for L = 0.1, issue 14's case). The
/// side's elements run the cylinder's length, so a cylinder four times as long cuts the same
/// polygons, and the error at a given resolution does not depend on the length.
#[test]
fn a_cylinder_on_its_side_cuts_as_few_polygons_at_any_length() {
    let (r, d) = (0.05, 0.005);
    let exact = |half: f64| {
        let (g1, g2) = strip_integrals(r, d);
        E / r * (2.0 * half * g1 - g2)
    };
    assert!((exact(0.1) - 56.3575).abs() < 1e-4, "closed form {}", exact(0.1));
    let ground = rigid(Shape::HalfSpace, None);
    let lying = |half: f64, res: f64| {
        let body = compliant(Shape::Cylinder { radius: r, length: 2.0 * half }, E, res);
        let a = at(&body, pose([0.0, 0.0, r - d], [std::f64::consts::FRAC_PI_2, 0.0, 0.0]));
        let b = at(&ground, pose([0.0; 3], [0.0; 3]));
        let result = evaluate_pair(a, b, &QueryOptions::default()).expect("pair evaluates");
        (result.wrench.force.z, result.faces)
    };
    let mut last = f64::INFINITY;
    for res in [0.01, 0.005] {
        let (short, faces_short) = lying(0.1, res);
        let (long, faces_long) = lying(0.4, res);
        let (err_short, err_long) = ((short / exact(0.1) - 1.0).abs(), (long / exact(0.4) - 1.0).abs());
        eprintln!(
            "resolution {res}: {short:.5} N ({:.4}%, {faces_short} polygons), 4× longer {long:.5} N ({:.4}%, {faces_long} polygons)",
            err_short * 100.0,
            err_long * 100.0
        );
        assert_eq!(faces_short, faces_long, "at {res}");
        assert!(err_short <= 0.0011 && err_long <= err_short, "at {res}: {err_short}, {err_long}");
        assert!(err_short < last, "the error must fall under refinement: {err_short} after {last}");
        last = err_short;
    }
    // Few polygons: 25 rings along a 0.2 m side at resolution 0.01 gave 400.
    assert!(lying(0.1, 0.01).1 <= 80);
}

/// The same for a capsule (its segment 2L long, field 1 − dist(x, segment)/R): the two
/// hemispheres make one sphere's force, (π/3)·E·d²·(3 − 2d/R), the side (E/R)·2L·∫g.
#[test]
fn a_capsule_on_its_side_matches_its_closed_form_at_any_length() {
    let (r, d, res) = (0.05, 0.005, 0.005);
    let exact =
        |half: f64| E / r * 2.0 * half * strip_integrals(r, d).0 + PI / 3.0 * E * d * d * (3.0 - 2.0 * d / r);
    let ground = rigid(Shape::HalfSpace, None);
    let lying = |half: f64| {
        let body = compliant(Shape::Capsule { radius: r, length: 2.0 * half }, E, res);
        let a = at(&body, pose([0.0, 0.0, r - d], [std::f64::consts::FRAC_PI_2, 0.0, 0.0]));
        let b = at(&ground, pose([0.0; 3], [0.0; 3]));
        let result = evaluate_pair(a, b, &QueryOptions::default()).expect("pair evaluates");
        (result.wrench.force.z, result.faces)
    };
    let (short, faces_short) = lying(0.1);
    let (long, faces_long) = lying(0.4);
    eprintln!("capsule: {short:.5} N vs {:.5}, 4× longer {long:.5} vs {:.5}", exact(0.1), exact(0.4));
    assert_eq!(faces_short, faces_long);
    assert!((short / exact(0.1) - 1.0).abs() < 2e-3 && (long / exact(0.4) - 1.0).abs() < 2e-3);
}
