//! Narrow and broad phase of the hertz model: exact answers, parry3d-f64 as an independent
//! oracle, degenerate input, broad phase against brute force.

use contactlab::contact::hertz::{
    ConvexShape, MprError, MprStats, MprTolerances, Quality, broad_phase, signed_distance,
};
use contactlab::math::{Isometry3, Point3, Quaternion, Translation3, UnitQuaternion, Vector3};
use parry3d_f64::query;
use parry3d_f64::shape as ps;

/// SplitMix64: a tiny seeded generator so runs are reproducible without a dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * ((self.next() >> 11) as f64 / (1u64 << 53) as f64)
    }
    fn vector(&mut self, r: f64) -> Vector3 {
        Vector3::new(self.uniform(-r, r), self.uniform(-r, r), self.uniform(-r, r))
    }
    fn rotation(&mut self) -> UnitQuaternion {
        loop {
            let q = Quaternion::new(
                self.uniform(-1.0, 1.0),
                self.uniform(-1.0, 1.0),
                self.uniform(-1.0, 1.0),
                self.uniform(-1.0, 1.0),
            );
            let n = q.norm();
            if n > 0.1 && n < 1.0 {
                return UnitQuaternion::from_quaternion(q);
            }
        }
    }
    fn pose(&mut self, r: f64) -> Isometry3 {
        Isometry3::from_parts(Translation3::from(self.vector(r)), self.rotation())
    }
    fn unit(&mut self) -> Vector3 {
        loop {
            let v = self.vector(1.0);
            let n = v.norm();
            if n > 0.1 && n < 1.0 {
                return v / n;
            }
        }
    }
}

fn tol() -> MprTolerances {
    MprTolerances::default()
}

fn angle(a: &Vector3, b: &Vector3) -> f64 {
    a.cross(b).norm().atan2(a.dot(b))
}

/// Support value of `A − B` along unit `n` from the shapes' own support functions.
fn support_value(a: &ConvexShape, pa: &Isometry3, b: &ConvexShape, pb: &Isometry3, n: &Vector3) -> f64 {
    let sa = pa * a.support(&(pa.rotation.inverse() * n));
    let sb = pb * b.support(&(pb.rotation.inverse() * -n));
    (sa - sb).dot(n)
}

/// Tally of one comparison run.
#[derive(Default, Debug)]
struct Tally {
    cases: usize,
    separated: usize,
    penetrating: usize,
    /// Normal differs from the oracle's but both achieve the same depth: not unique.
    nonunique_normal: usize,
    max_dist_err: f64,
    max_normal_err: f64,
}

/// Compares our answer with an oracle's `(distance, normal from a to b)`. Distances must agree
/// within 1e-9 m + 1e-6 relative; normals within `normal_tol` rad unless both normals are
/// minimal translation directions of the same depth (non-unique answer, counted).
fn compare(
    t: &mut Tally,
    what: &str,
    (a, pa): (&ConvexShape, &Isometry3),
    (b, pb): (&ConvexShape, &Isometry3),
    oracle: (f64, Vector3),
    normal_tol: f64,
) {
    let c = signed_distance(a, pa, b, pb, &tol()).unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(c.is_converged(), "{what}: {:?} at {pa:?} {pb:?} {a:?} {b:?}", c.quality);
    let (d, n) = oracle;
    let err = (c.distance - d).abs();
    assert!(err <= 1e-9 + 1e-6 * d.abs(), "{what}: distance {} vs oracle {d} at {pa:?} {pb:?}", c.distance);
    t.cases += 1;
    if d > 0.0 {
        t.separated += 1;
    } else {
        t.penetrating += 1;
    }
    t.max_dist_err = t.max_dist_err.max(err);
    // Witness points: pa − pb = −distance · normal.
    let gap = (c.point_a - c.point_b) + c.distance * c.normal;
    assert!(
        gap.norm() <= 1e-8,
        "{what}: witness points inconsistent by {} {c:?} {a:?} {b:?} {pa:?} {pb:?}",
        gap.norm()
    );
    let e = angle(&c.normal, &n);
    if e > normal_tol {
        // Both normals must be optimal for the answer to be non-unique.
        let depth = -c.distance;
        let h_ours = support_value(a, pa, b, pb, &c.normal);
        let h_theirs = support_value(a, pa, b, pb, &n);
        assert!(
            d < 0.0 && (h_ours - depth).abs() <= 1e-8 && (h_theirs - depth).abs() <= 1e-8,
            "{what}: normal {:?} vs oracle {n:?} ({e} rad), distance {} at {pa:?} {pb:?}",
            c.normal,
            c.distance
        );
        t.nonunique_normal += 1;
    } else {
        t.max_normal_err = t.max_normal_err.max(e);
    }
}

fn parry_oracle(pa: &Isometry3, ga: &dyn ps::Shape, pb: &Isometry3, gb: &dyn ps::Shape) -> (f64, Vector3) {
    let c = query::contact(pa, ga, pb, gb, 1e3).expect("parry supports the pair").expect("within prediction");
    (c.dist, c.normal1.into_inner())
}

/// Parry's cylinders run along y, ours along z.
fn y_to_z() -> Isometry3 {
    Isometry3::rotation(Vector3::x() * std::f64::consts::FRAC_PI_2)
}

#[test]
fn sphere_sphere_matches_closed_form_and_parry() {
    let mut rng = Rng(1);
    let mut t = Tally::default();
    for _ in 0..400 {
        let (ra, rb) = (rng.uniform(0.05, 0.5), rng.uniform(0.05, 0.5));
        let (pa, pb) = (rng.pose(0.6), rng.pose(0.6));
        let (a, b) = (ConvexShape::Sphere { radius: ra }, ConvexShape::Sphere { radius: rb });
        let d = pb.translation.vector - pa.translation.vector;
        let exact = (d.norm() - ra - rb, d.normalize());
        compare(&mut t, "sphere-sphere exact", (&a, &pa), (&b, &pb), exact, 1e-12);
        let oracle = parry_oracle(&pa, &ps::Ball::new(ra), &pb, &ps::Ball::new(rb));
        compare(&mut t, "sphere-sphere parry", (&a, &pa), (&b, &pb), oracle, 1e-9);
    }
    assert!(t.separated > 100 && t.penetrating > 100, "{t:?}");
}

#[test]
fn sphere_box_matches_parry() {
    let mut rng = Rng(2);
    let mut t = Tally::default();
    for i in 0..600 {
        let r = rng.uniform(0.05, 0.3);
        let half = Vector3::new(rng.uniform(0.1, 0.4), rng.uniform(0.1, 0.4), rng.uniform(0.1, 0.4));
        let pa = rng.pose(0.1);
        let pb = rng.pose(if i % 3 == 0 { 0.25 } else { 0.7 });
        let a = ConvexShape::Sphere { radius: r };
        let b = ConvexShape::Box { half, smoothing: 0.0 };
        let oracle = parry_oracle(&pa, &ps::Ball::new(r), &pb, &ps::Cuboid::new(half));
        compare(&mut t, "sphere-box", (&a, &pa), (&b, &pb), oracle, 1e-6);
        // Swapped order: same distance, opposite normal.
        compare(&mut t, "box-sphere", (&b, &pb), (&a, &pa), (oracle.0, -oracle.1), 1e-6);
    }
    eprintln!("sphere-box {t:?}");
    assert!(t.separated > 200 && t.penetrating > 200, "{t:?}");
}

/// Rotation taking the body diagonal (1,1,1) to −z: a box corner points straight down.
fn corner_down() -> UnitQuaternion {
    UnitQuaternion::rotation_between(&Vector3::new(1.0, 1.0, 1.0), &-Vector3::z()).unwrap_or_default()
}

#[test]
fn box_box_matches_parry_in_every_configuration() {
    let mut rng = Rng(3);
    let mut t = Tally::default();
    let b45 = UnitQuaternion::from_euler_angles(std::f64::consts::FRAC_PI_4, 0.0, 0.0);
    let e45 = UnitQuaternion::from_euler_angles(0.0, std::f64::consts::FRAC_PI_4, 0.0);
    for i in 0..1000 {
        let ha = Vector3::new(rng.uniform(0.1, 0.4), rng.uniform(0.1, 0.4), rng.uniform(0.1, 0.4));
        let hb = Vector3::new(rng.uniform(0.1, 0.4), rng.uniform(0.1, 0.4), rng.uniform(0.1, 0.4));
        let gap = rng.uniform(-0.05, 0.1);
        let wobble = UnitQuaternion::from_scaled_axis(rng.vector(0.2));
        let (pa, pb, what) = match i % 4 {
            // Face–face: b above a, tilted slightly so the contact is a face against a corner.
            0 => {
                let pa = Isometry3::from_parts(Translation3::from(rng.vector(0.05)), wobble);
                let top = pa * Point3::new(0.0, 0.0, ha.z);
                let rot = wobble * UnitQuaternion::from_scaled_axis(rng.vector(0.05));
                let low = hb.z * (rot * Vector3::z()).z.abs();
                let c = top + Vector3::new(rng.uniform(-0.05, 0.05), rng.uniform(-0.05, 0.05), low + gap);
                (pa, Isometry3::from_parts(Translation3::from(c.coords), rot), "face-face")
            }
            // Edge–edge: crossed edges, a's top edge along x, b's bottom edge along y.
            1 => {
                let ra = b45 * UnitQuaternion::from_scaled_axis(rng.vector(0.1));
                let rb = UnitQuaternion::from_euler_angles(0.0, 0.0, std::f64::consts::FRAC_PI_2)
                    * e45
                    * UnitQuaternion::from_scaled_axis(rng.vector(0.1));
                let pa = Isometry3::from_parts(Translation3::identity(), ra);
                let za = ha.y.hypot(ha.z) + hb.x.hypot(hb.z) + gap;
                (pa, Isometry3::from_parts(Translation3::new(0.0, 0.0, za), rb), "edge-edge")
            }
            // Vertex–face: b's corner points down onto a's top face.
            2 => {
                let pa = Isometry3::identity();
                let rb = corner_down() * UnitQuaternion::from_scaled_axis(rng.vector(0.1));
                let low = (0..8)
                    .map(|k| {
                        let s = |bit: i32| if k & bit != 0 { 1.0 } else { -1.0 };
                        (rb * Vector3::new(s(1) * hb.x, s(2) * hb.y, s(4) * hb.z)).z
                    })
                    .fold(f64::INFINITY, f64::min);
                let c = Vector3::new(rng.uniform(-0.05, 0.05), rng.uniform(-0.05, 0.05), ha.z - low + gap);
                (pa, Isometry3::from_parts(Translation3::from(c), rb), "vertex-face")
            }
            _ => (rng.pose(0.1), rng.pose(0.6), "random"),
        };
        let a = ConvexShape::Box { half: ha, smoothing: 0.0 };
        let b = ConvexShape::Box { half: hb, smoothing: 0.0 };
        let oracle = parry_oracle(&pa, &ps::Cuboid::new(ha), &pb, &ps::Cuboid::new(hb));
        compare(&mut t, what, (&a, &pa), (&b, &pb), oracle, 1e-6);
    }
    eprintln!("box-box {t:?}");
    assert!(t.separated > 200 && t.penetrating > 200, "{t:?}");
}

/// Closest points of segments `p + s u` (|s| ≤ hp) and `q + t w` (|t| ≤ hq): a golden-section
/// search over `s` with the optimal clamped `t`, independent of the library's algorithms.
fn segment_distance(p: Vector3, u: Vector3, hp: f64, q: Vector3, w: Vector3, hq: f64) -> (f64, Vector3) {
    let at = |s: f64| {
        let x = p + u * s;
        let t = (w.dot(&(x - q))).clamp(-hq, hq);
        (x, q + w * t)
    };
    let f = |s: f64| {
        let (x, y) = at(s);
        (x - y).norm()
    };
    let (mut lo, mut hi) = (-hp, hp);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..200 {
        let m1 = hi - g * (hi - lo);
        let m2 = lo + g * (hi - lo);
        if f(m1) < f(m2) { hi = m2 } else { lo = m1 }
    }
    let (x, y) = at((lo + hi) / 2.0);
    ((x - y).norm(), y - x)
}

#[test]
fn capsule_capsule_matches_exact_segments_and_parry() {
    let mut rng = Rng(4);
    let mut t = Tally::default();
    let mut skipped_crossing = 0;
    for _ in 0..500 {
        let (ra, rb) = (rng.uniform(0.05, 0.2), rng.uniform(0.05, 0.2));
        let (la, lb) = (rng.uniform(0.0, 0.4), rng.uniform(0.0, 0.4));
        let (pa, pb) = (rng.pose(0.1), rng.pose(0.45));
        let a = ConvexShape::Capsule { radius: ra, half_length: la };
        let b = ConvexShape::Capsule { radius: rb, half_length: lb };
        let (ua, ub) = (pa.rotation * Vector3::z(), pb.rotation * Vector3::z());
        let (sd, dir) = segment_distance(pa.translation.vector, ua, la, pb.translation.vector, ub, lb);
        if sd < 1e-4 {
            // Crossing axes: the exact depth is ra + rb but the normal is not unique.
            skipped_crossing += 1;
            continue;
        }
        compare(&mut t, "capsule exact", (&a, &pa), (&b, &pb), (sd - ra - rb, dir / sd), 1e-6);
        // Parry's capsule queries run GJK on the rounded shapes with its own looser tolerance
        // (distances off by ~1e-5 m), so the oracle is parry's exact segment–segment closest
        // points minus the radii.
        let seg = |h: f64| ps::Segment::new(Point3::new(0.0, 0.0, -h), Point3::new(0.0, 0.0, h));
        let oracle = match query::closest_points(&pa, &seg(la), &pb, &seg(lb), 10.0) {
            Ok(query::ClosestPoints::WithinMargin(p1, p2)) => {
                let d = p2 - p1;
                (d.norm() - ra - rb, d.normalize())
            }
            other => panic!("parry segment query: {other:?}"),
        };
        compare(&mut t, "capsule parry", (&a, &pa), (&b, &pb), oracle, 1e-6);
    }
    eprintln!("capsule-capsule {t:?}, crossing axes skipped {skipped_crossing}");
    assert!(t.separated > 200 && t.penetrating > 200, "{t:?}");
}

/// Lowest z of a rounded cylinder with centre `c`, unit axis `u`, radius `r`, half length `h`
/// rounded by `s`: the core's lowest rim point minus `s`.
fn cylinder_lowest_z(c: &Vector3, u: &Vector3, r: f64, h: f64, s: f64) -> f64 {
    c.z - (h - s) * u.z.abs() - (r - s) * (1.0 - u.z * u.z).max(0.0).sqrt() - s
}

#[test]
fn cylinder_on_big_box_matches_plane_distance_and_parry() {
    let mut rng = Rng(5);
    let mut t = Tally::default();
    let mut parry_t = Tally::default();
    let half = Vector3::new(10.0, 10.0, 1.0);
    let ground = ConvexShape::Box { half, smoothing: 0.0 };
    let pg = Isometry3::identity();
    for i in 0..600 {
        let (r, h) = (rng.uniform(0.03, 0.2), rng.uniform(0.03, 0.3));
        let smoothing = if i % 2 == 0 { 0.0 } else { 0.1 * (2.0 * r.min(h)) * rng.uniform(0.0, 1.0) };
        let rot = match i % 5 {
            0 => UnitQuaternion::from_scaled_axis(rng.vector(1e-3)), // standing
            1 => UnitQuaternion::from_euler_angles(std::f64::consts::FRAC_PI_2, 0.0, rng.uniform(0.0, 6.0)), // lying
            _ => rng.rotation(),
        };
        let u = rot * Vector3::z();
        let gap = rng.uniform(-0.02, 0.05);
        let mut c = Vector3::new(rng.uniform(-1.0, 1.0), rng.uniform(-1.0, 1.0), 0.0);
        c.z = half.z + gap - cylinder_lowest_z(&Vector3::zeros(), &u, r, h, smoothing);
        let pc = Isometry3::from_parts(Translation3::from(c), rot);
        let cyl = ConvexShape::Cylinder { radius: r, half_length: h, smoothing };
        compare(&mut t, "cylinder-plane exact", (&ground, &pg), (&cyl, &pc), (gap, Vector3::z()), 1e-6);
        if smoothing == 0.0 {
            let oracle =
                parry_oracle(&pg, &ps::Cuboid::new(half), &(pc * y_to_z()), &ps::Cylinder::new(h, r));
            // Parry's own tolerance on curved shapes is the looser one here.
            let c = signed_distance(&ground, &pg, &cyl, &pc, &tol()).unwrap();
            let err = (c.distance - oracle.0).abs();
            assert!(err < 1e-6, "cylinder parry: {} vs {}", c.distance, oracle.0);
            parry_t.cases += 1;
            parry_t.max_dist_err = parry_t.max_dist_err.max(err);
        }
    }
    eprintln!("cylinder-box {t:?}; against parry {parry_t:?}");
    assert!(t.separated > 200 && t.penetrating > 100, "{t:?}");
}

#[test]
fn smoothed_shapes_are_offsets_of_their_cores() {
    // A rounded box against a sphere: distance = core box distance − smoothing − radius.
    let mut rng = Rng(6);
    for _ in 0..300 {
        let half = Vector3::new(rng.uniform(0.1, 0.3), rng.uniform(0.1, 0.3), rng.uniform(0.1, 0.3));
        let s = 0.2 * half.min() * rng.uniform(0.0, 1.0);
        let r = rng.uniform(0.05, 0.2);
        let (pa, pb) = (rng.pose(0.1), rng.pose(0.6));
        let rounded = ConvexShape::Box { half, smoothing: s };
        let core = ConvexShape::Box { half: half.add_scalar(-s), smoothing: 0.0 };
        let ball = ConvexShape::Sphere { radius: r };
        let fat = ConvexShape::Sphere { radius: r + s };
        let x = signed_distance(&rounded, &pa, &ball, &pb, &tol()).unwrap();
        let y = signed_distance(&core, &pa, &fat, &pb, &tol()).unwrap();
        assert!((x.distance - y.distance).abs() < 1e-12, "{} vs {}", x.distance, y.distance);
        assert!(angle(&x.normal, &y.normal) < 1e-9 || x.distance < -r);
    }
}

#[test]
fn ellipsoid_witness_points_lie_on_the_surface_and_distance_matches_scaled_sphere() {
    let mut rng = Rng(7);
    for _ in 0..200 {
        let radii = Vector3::new(rng.uniform(0.1, 0.3), rng.uniform(0.1, 0.3), rng.uniform(0.1, 0.3));
        let e = ConvexShape::Ellipsoid { radii };
        let s = ConvexShape::Sphere { radius: rng.uniform(0.05, 0.2) };
        let (pa, pb) = (rng.pose(0.1), rng.pose(0.8));
        let c = signed_distance(&e, &pa, &s, &pb, &tol()).unwrap();
        let local = pa.inverse() * c.point_a;
        let level = (local.coords.component_div(&radii)).norm();
        assert!((level - 1.0).abs() < 1e-12, "witness off the ellipsoid surface: {level}");
        if c.distance > 0.0 {
            // Closest point condition: the ellipsoid normal at the witness is parallel to n.
            let grad = pa.rotation * local.coords.component_div(&radii.component_mul(&radii));
            assert!(angle(&grad, &c.normal) < 1e-5, "normal {:?} vs gradient {grad:?}", c.normal);
        }
    }
}

#[test]
fn support_functions_match_closed_forms() {
    let mut rng = Rng(8);
    for _ in 0..300 {
        let d = rng.unit() * rng.uniform(0.1, 10.0);
        let u = d.normalize();
        let rxy = u.x.hypot(u.y);
        let check = |shape: ConvexShape, expected: f64| {
            let got = shape.support(&d).coords.dot(&u);
            assert!((got - expected).abs() < 1e-12, "{shape:?} along {u:?}: {got} vs {expected}");
        };
        let s = 0.01;
        check(
            ConvexShape::Box { half: Vector3::new(0.1, 0.2, 0.3), smoothing: s },
            0.09 * u.x.abs() + 0.19 * u.y.abs() + 0.29 * u.z.abs() + s,
        );
        check(
            ConvexShape::Cylinder { radius: 0.1, half_length: 0.2, smoothing: s },
            0.09 * rxy + 0.19 * u.z.abs() + s,
        );
        check(ConvexShape::Capsule { radius: 0.1, half_length: 0.2 }, 0.2 * u.z.abs() + 0.1);
        check(
            ConvexShape::Ellipsoid { radii: Vector3::new(0.1, 0.2, 0.3) },
            (0.01 * u.x * u.x + 0.04 * u.y * u.y + 0.09 * u.z * u.z).sqrt(),
        );
        check(
            ConvexShape::Beam { length: 0.4, width: 0.1, thickness: 0.05, smoothing: s },
            0.2 * u.x.abs() + 0.04 * rxy + 0.015 * u.z.abs() + s,
        );
        // Sharp frustum: the better of its two rims.
        check(
            ConvexShape::Cone { base_radius: 0.2, top_radius: 0.05, length: 0.3, smoothing: 0.0 },
            (0.2 * rxy).max(0.05 * rxy + 0.3 * u.z),
        );
    }
}

#[test]
fn rounded_cone_stays_inside_the_sharp_cone() {
    let mut rng = Rng(9);
    let sharp = ConvexShape::Cone { base_radius: 0.2, top_radius: 0.0, length: 0.3, smoothing: 0.0 };
    let round = ConvexShape::Cone { base_radius: 0.2, top_radius: 0.0, length: 0.3, smoothing: 0.02 };
    round.validate().unwrap();
    for _ in 0..500 {
        let d = rng.unit();
        let (hs, hr) = (sharp.support(&d).coords.dot(&d), round.support(&d).coords.dot(&d));
        assert!(hr <= hs + 1e-12, "rounded cone pokes out along {d:?}");
    }
    // Flat faces are kept: base along −z and the side's normal direction.
    assert!((round.support(&-Vector3::z()).z - 0.0).abs() < 1e-12);
    let side = Vector3::new(0.3, 0.0, 0.2).normalize();
    assert!((round.support(&side).coords.dot(&side) - sharp.support(&side).coords.dot(&side)).abs() < 1e-12);
}

#[test]
fn aabb_bounds_supports_and_matches_rotated_box() {
    let mut rng = Rng(10);
    for _ in 0..100 {
        let half = Vector3::new(rng.uniform(0.1, 0.3), rng.uniform(0.1, 0.3), rng.uniform(0.1, 0.3));
        let pose = rng.pose(1.0);
        let (lo, hi) = ConvexShape::Box { half, smoothing: 0.0 }.aabb(&pose);
        let r = pose.rotation.to_rotation_matrix().into_inner().abs() * half;
        let c = pose.translation.vector;
        assert!((hi.coords - (c + r)).norm() < 1e-12 && (lo.coords - (c - r)).norm() < 1e-12);
    }
}

#[test]
fn default_smoothing_is_clamped_and_validated() {
    let tiny =
        ConvexShape::Box { half: Vector3::new(0.002, 0.1, 0.1), smoothing: 0.0 }.with_default_smoothing();
    assert!(matches!(tiny, ConvexShape::Box { smoothing, .. } if (smoothing - 0.0004).abs() < 1e-15));
    tiny.validate().unwrap();
    let big =
        ConvexShape::Cylinder { radius: 0.1, half_length: 0.1, smoothing: 0.0 }.with_default_smoothing();
    assert!(matches!(big, ConvexShape::Cylinder { smoothing, .. } if smoothing == 1e-3));
    let too_round = ConvexShape::Box { half: Vector3::new(0.01, 0.1, 0.1), smoothing: 0.003 };
    assert!(too_round.validate().is_err());
    assert!(ConvexShape::Sphere { radius: 0.0 }.validate().is_err());
    assert!(ConvexShape::Ellipsoid { radii: Vector3::new(0.1, f64::NAN, 0.1) }.validate().is_err());
    let flat = vec![
        Point3::origin(),
        Point3::new(1.0, 0.0, 0.0),
        Point3::new(0.0, 1.0, 0.0),
        Point3::new(1.0, 1.0, 0.0),
    ];
    assert!(ConvexShape::hull(&flat, 0.0).is_err());
}

#[test]
fn hull_of_box_corners_equals_box() {
    let mut rng = Rng(11);
    let half = Vector3::new(0.1, 0.2, 0.15);
    let mut pts = Vec::new();
    for k in 0..8 {
        let s = |bit: i32| if k & bit != 0 { 1.0 } else { -1.0 };
        pts.push(Point3::new(s(1) * half.x, s(2) * half.y, s(4) * half.z));
    }
    pts.push(Point3::new(0.01, 0.02, -0.03)); // interior points are dropped
    let hull = ConvexShape::hull(&pts, 0.0).unwrap();
    let cube = ConvexShape::Box { half, smoothing: 0.0 };
    let other = ConvexShape::Capsule { radius: 0.05, half_length: 0.1 };
    for _ in 0..200 {
        let (pa, pb) = (rng.pose(0.1), rng.pose(0.5));
        let x = signed_distance(&hull, &pa, &other, &pb, &tol()).unwrap();
        let y = signed_distance(&cube, &pa, &other, &pb, &tol()).unwrap();
        assert!((x.distance - y.distance).abs() < 1e-9, "{} vs {}", x.distance, y.distance);
    }
}

#[test]
fn distance_is_continuous_through_contact_start() {
    // Sliding a rounded box down onto another: distance equals the height offset exactly.
    let a = ConvexShape::Box { half: Vector3::new(0.5, 0.5, 0.1), smoothing: 1e-3 };
    let b = ConvexShape::Cylinder { radius: 0.05, half_length: 0.05, smoothing: 1e-3 };
    let rot = UnitQuaternion::from_euler_angles(0.3, 0.2, 0.0);
    let u = rot * Vector3::z();
    let base = 0.1 - cylinder_lowest_z(&Vector3::zeros(), &u, 0.05, 0.05, 1e-3);
    for k in -50..=50 {
        let h = k as f64 * 1e-5;
        let pb = Isometry3::from_parts(Translation3::new(0.1, -0.2, base + h), rot);
        let c = signed_distance(&a, &Isometry3::identity(), &b, &pb, &tol()).unwrap();
        assert!((c.distance - h).abs() < 1e-12, "h = {h}: {}", c.distance);
    }
}

fn all_shapes(rng: &mut Rng, size: f64) -> Vec<ConvexShape> {
    let mut v = vec![
        ConvexShape::Sphere { radius: size },
        ConvexShape::Ellipsoid { radii: Vector3::new(size, 0.5 * size, 0.8 * size) },
        ConvexShape::Box { half: Vector3::new(size, 0.7 * size, 0.4 * size), smoothing: 0.0 },
        ConvexShape::Box { half: Vector3::new(size, 0.7 * size, 0.4 * size), smoothing: 0.05 * size },
        ConvexShape::Cylinder { radius: size, half_length: 0.6 * size, smoothing: 0.0 },
        ConvexShape::Cylinder { radius: size, half_length: 0.6 * size, smoothing: 0.1 * size },
        ConvexShape::Cone { base_radius: size, top_radius: 0.0, length: 1.5 * size, smoothing: 0.1 * size },
        ConvexShape::Cone { base_radius: size, top_radius: 0.3 * size, length: size, smoothing: 0.0 },
        ConvexShape::Capsule { radius: 0.5 * size, half_length: size },
        ConvexShape::Beam {
            length: 2.0 * size,
            width: 0.6 * size,
            thickness: 0.3 * size,
            smoothing: 0.02 * size,
        },
    ];
    let pts: Vec<Point3> = (0..30).map(|_| Point3::from(rng.unit() * size)).collect();
    v.push(ConvexShape::hull(&pts, 0.0).unwrap());
    v
}

#[test]
fn degenerate_configurations_give_finite_flagged_answers() {
    let mut rng = Rng(12);
    let stats = MprStats::default();
    let shapes = all_shapes(&mut rng, 0.1);
    let id = Isometry3::identity();
    for a in &shapes {
        for b in &shapes {
            // Coincident centres, identical orientation and deep penetration (b tiny inside a).
            let small: Vec<ConvexShape> = all_shapes(&mut rng, 0.01);
            for (bb, pb) in [(b, id), (&small[2], Isometry3::translation(0.001, 0.0, 0.0)), (&small[0], id)] {
                let r = signed_distance(a, &id, bb, &pb, &tol());
                stats.record(&r);
                let c = r.unwrap_or_else(|e| panic!("{a:?} vs {bb:?}: {e}"));
                assert!(c.distance < 0.0, "{} vs {}: {}", a.kind(), bb.kind(), c.distance);
                assert!((c.normal.norm() - 1.0).abs() < 1e-9);
            }
            // Exactly touching: move b back by its signed distance along the normal.
            let pb = Isometry3::from_parts(
                Translation3::new(0.3, 0.1, -0.05),
                UnitQuaternion::from_scaled_axis(Vector3::new(0.1, 0.7, 0.2)),
            );
            let c = signed_distance(a, &id, b, &pb, &tol()).unwrap();
            let touching = Isometry3::from_parts(
                Translation3::from(pb.translation.vector - c.distance * c.normal),
                pb.rotation,
            );
            let r = signed_distance(a, &id, b, &touching, &tol());
            stats.record(&r);
            let c = r.unwrap();
            assert!(c.distance.abs() < 1e-9, "{} touching {}: {}", a.kind(), b.kind(), c.distance);
        }
    }
    let counts = stats.counts();
    eprintln!("degenerate configurations: {counts:?}");
    assert_eq!(counts.errors, 0);
}

#[test]
fn penetration_depth_of_random_pairs_is_minimal_translation() {
    // For every shape pair and random overlapping poses: translating b by (depth + 1e-7) along
    // the normal separates the pair, and the depth is no more than any support-value bound.
    let mut rng = Rng(13);
    let shapes = all_shapes(&mut rng, 0.1);
    let stats = MprStats::default();
    for a in &shapes {
        for b in &shapes {
            for _ in 0..20 {
                let (pa, pb) = (rng.pose(0.02), rng.pose(0.12));
                let r = signed_distance(a, &pa, b, &pb, &tol());
                stats.record(&r);
                let c = r.unwrap();
                if c.distance >= 0.0 || !c.is_converged() {
                    continue;
                }
                let moved = Isometry3::from_parts(
                    Translation3::from(pb.translation.vector + c.normal * (-c.distance + 1e-7)),
                    pb.rotation,
                );
                let after = signed_distance(a, &pa, b, &moved, &tol()).unwrap();
                assert!(
                    after.distance > 0.0 && after.distance < 2e-7,
                    "{} {}: {after:?}",
                    a.kind(),
                    b.kind()
                );
                for _ in 0..20 {
                    let n = rng.unit();
                    assert!(support_value(a, &pa, b, &pb, &n) >= -c.distance - 1e-9);
                }
            }
        }
    }
    eprintln!("random pairs: {:?}", stats.counts());
}

#[test]
fn bad_input_is_an_error_never_a_panic() {
    let good = ConvexShape::Sphere { radius: 0.1 };
    let bx = ConvexShape::Box { half: Vector3::new(0.1, 0.1, 0.1), smoothing: 0.0 };
    let id = Isometry3::identity();
    let bad_shapes = [
        ConvexShape::Sphere { radius: 0.0 },
        ConvexShape::Sphere { radius: f64::NAN },
        ConvexShape::Box { half: Vector3::new(0.1, -0.1, 0.1), smoothing: 0.0 },
        ConvexShape::Cylinder { radius: f64::INFINITY, half_length: 0.1, smoothing: 0.0 },
        ConvexShape::Cone { base_radius: 0.1, top_radius: 0.2, length: 0.1, smoothing: 0.0 },
        ConvexShape::Hull { points: vec![], smoothing: 0.0 },
        ConvexShape::Box { half: Vector3::new(0.1, 0.1, 0.1), smoothing: 0.05 },
    ];
    for s in &bad_shapes {
        assert!(matches!(signed_distance(s, &id, &bx, &id, &tol()), Err(MprError::Shape { .. })), "{s:?}");
        assert!(matches!(signed_distance(&bx, &id, s, &id, &tol()), Err(MprError::Shape { .. })), "{s:?}");
    }
    // NaN hull points slip past the cheap per-query check but never out as NaN.
    let nan_hull = ConvexShape::Hull { points: vec![Point3::new(f64::NAN, 0.0, 0.0); 4], smoothing: 0.0 };
    let r = signed_distance(&nan_hull, &id, &bx, &Isometry3::translation(1.0, 0.0, 0.0), &tol());
    assert!(r.is_err() || r.unwrap().distance.is_finite());
    let nan_pose = Isometry3::translation(f64::NAN, 0.0, 0.0);
    assert!(matches!(signed_distance(&good, &nan_pose, &bx, &id, &tol()), Err(MprError::Pose { .. })));
    let skew = Isometry3::from_parts(
        Translation3::identity(),
        UnitQuaternion::new_unchecked(Quaternion::new(2.0, 0.0, 0.0, 0.0)),
    );
    assert!(matches!(signed_distance(&bx, &skew, &good, &id, &tol()), Err(MprError::Pose { .. })));
    // Huge, tiny and far: finite answers or errors, quickly; zero iterations still answer.
    let cap = MprTolerances { distance: 0.0, max_iterations: 0 };
    for (scale, offset) in [(1e-9, 1e-9), (1e9, 1e9), (1.0, 1e12), (1e-6, 1e6)] {
        let mut rng = Rng(14);
        for a in &all_shapes(&mut rng, scale) {
            for b in &all_shapes(&mut rng, scale) {
                for t in [tol(), cap] {
                    let pb = Isometry3::from_parts(Translation3::new(offset, 0.0, 0.0), rng.rotation());
                    if let Ok(c) = signed_distance(a, &id, b, &pb, &t) {
                        assert!(c.distance.is_finite() && c.normal.iter().all(|x| x.is_finite()));
                        if t == cap {
                            assert!(!c.is_converged() || matches!(c.quality, Quality::Converged));
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn broad_phase_equals_brute_force() {
    let mut rng = Rng(15);
    for trial in 0..20 {
        let n = if trial == 0 { 0 } else { 10 * trial };
        let mut boxes: Vec<(Point3, Point3)> = (0..n)
            .map(|_| {
                let c = rng.vector(1.0);
                let h = Vector3::new(rng.uniform(0.0, 0.2), rng.uniform(0.0, 0.2), rng.uniform(0.0, 0.2));
                (Point3::from(c - h), Point3::from(c + h))
            })
            .collect();
        if trial % 5 == 1 {
            boxes.push((Point3::new(f64::NAN, 0.0, 0.0), Point3::origin()));
            boxes.push(boxes[0]); // identical boxes overlap
            boxes.push((boxes[1].1, boxes[1].1 + Vector3::new(1.0, 1.0, 1.0))); // touching corner
        }
        let mut brute = Vec::new();
        for i in 0..boxes.len() {
            for j in i + 1..boxes.len() {
                let (a, b) = (&boxes[i], &boxes[j]);
                if (0..3).all(|k| a.0[k] <= b.1[k] && b.0[k] <= a.1[k]) {
                    brute.push((i, j));
                }
            }
        }
        assert_eq!(broad_phase(&boxes), brute, "trial {trial}");
    }
}
