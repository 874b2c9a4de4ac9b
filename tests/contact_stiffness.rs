//! The analytic contact stiffness ∂Q/∂X of the pressure field model against central
//! differences of the wrench, for each kind of pair, at rest and sliding with dissipation and
//! friction; and its symmetry (the Hessian of U) for a conservative pair at rest.

mod common;
use common::pose;
use contactlab::contact::pressure_field::{
    BodyState, Compliance, ContactProperties, PfBody, QueryOptions, evaluate_pair,
    evaluate_pair_with_derivatives,
};
use contactlab::geometry::Shape;
use contactlab::math::{Isometry3, Point3, Translation3, Twist, UnitQuaternion, Vector3};
use nalgebra::SMatrix;

type Q = SMatrix<f64, 12, 1>;
type K = SMatrix<f64, 12, 12>;

fn body(shape: Shape, compliance: Compliance, dissipation: f64, friction: f64) -> PfBody {
    PfBody::new(&shape, &ContactProperties { compliance, dissipation, friction }).unwrap()
}

fn soft(modulus: f64) -> Compliance {
    Compliance::Compliant { modulus, resolution: Some(0.02), slab_thickness: None }
}

const RIGID: Compliance = Compliance::Rigid { resolution: Some(0.02) };

/// A body's pose and velocity, given by the velocity of its reference point and its angular
/// velocity (the generalized velocities the stiffness holds fixed).
#[derive(Clone, Copy)]
struct Placed<'a> {
    body: &'a PfBody,
    pose: Isometry3,
    reference: Point3,
    velocity: Vector3,
    angular: Vector3,
}

impl<'a> Placed<'a> {
    fn state(&self) -> BodyState<'a> {
        let origin = Point3::from(self.pose.translation.vector);
        let linear = self.velocity + self.angular.cross(&(origin - self.reference));
        BodyState { body: self.body, pose: self.pose, twist: Twist { linear, angular: self.angular } }
    }

    /// Moved by δr (the reference point) and turned by δθ about the reference point.
    fn moved(&self, dr: Vector3, dtheta: Vector3) -> Placed<'a> {
        let turn = UnitQuaternion::from_scaled_axis(dtheta);
        let about = Isometry3::from_parts(Translation3::from(self.reference.coords), turn)
            * Isometry3::from_parts(Translation3::from(-self.reference.coords), UnitQuaternion::identity());
        let pose =
            Isometry3::from_parts(Translation3::from(dr), UnitQuaternion::identity()) * about * self.pose;
        Placed { pose, reference: self.reference + dr, ..*self }
    }
}

fn options() -> QueryOptions {
    QueryOptions { stiction_speed: 0.01 }
}

/// Generalized forces (force on a, torque on a about its reference point, the same for b).
fn generalized(a: &Placed, b: &Placed) -> Q {
    let w = evaluate_pair(a.state(), b.state(), &options()).unwrap().wrench;
    let ta = w.torque_about(&a.reference);
    let tb = -w.torque_about(&b.reference);
    let mut q = Q::zeros();
    for (k, v) in [w.force, ta, -w.force, tb].iter().enumerate() {
        q.fixed_rows_mut::<3>(3 * k).copy_from(v);
    }
    q
}

fn central_differences(a: &Placed, b: &Placed, h: f64) -> K {
    let mut k = K::zeros();
    for col in 0..12 {
        let mut d = Vector3::zeros();
        d[col % 3] = h;
        let (dr, dth) = if col % 6 < 3 { (d, Vector3::zeros()) } else { (Vector3::zeros(), d) };
        let q = |s: f64| {
            if col < 6 {
                generalized(&a.moved(dr * s, dth * s), b)
            } else {
                generalized(a, &b.moved(dr * s, dth * s))
            }
        };
        k.set_column(col, &((q(1.0) - q(-1.0)) / (2.0 * h)));
    }
    k
}

fn analytic(a: &Placed, b: &Placed) -> K {
    let refs = (&a.reference, &b.reference);
    let (w, derivatives) =
        evaluate_pair_with_derivatives(a.state(), b.state(), refs, &options(), true).unwrap();
    assert!(w.wrench.force.norm() > 1.0, "in contact: {:?}", w.wrench.force);
    derivatives.and_then(|(_, k)| k).unwrap()
}

/// max |K − FD| / max |K|.
fn check(label: &str, a: Placed, b: Placed, tolerance: f64) -> K {
    let k = analytic(&a, &b);
    let fd = central_differences(&a, &b, 1e-7);
    let err = (k - fd).abs().max() / k.abs().max();
    eprintln!("{label}: max |K − FD| = {err:.2e} of max |K| = {:.3e}", k.abs().max());
    assert!(
        err < tolerance,
        "{label}: analytic stiffness differs from central differences by {err:.2e}\nK = {k:.4}\nFD = {fd:.4}"
    );
    // The same pair given in the other order: the same matrix with its blocks swapped.
    let swapped = analytic(&b, &a);
    let mut back = K::zeros();
    for (ri, rj) in [(0, 6), (6, 0)] {
        for (ci, cj) in [(0, 6), (6, 0)] {
            back.fixed_view_mut::<6, 6>(ri, ci).copy_from(&swapped.fixed_view::<6, 6>(rj, cj));
        }
    }
    let swap_err = (back - k).abs().max() / k.abs().max();
    eprintln!("{label}: swapped, K changes by {swap_err:.2e}");
    // Two compliant bodies swap which one is primary (the frame of the computation).
    let same = if a.body.is_compliant() && b.body.is_compliant() { tolerance } else { 1e-12 };
    assert!(swap_err <= same, "{label}: swapping the pair changes K by {swap_err:.2e}");
    k
}

fn placed<'a>(body: &'a PfBody, at: Isometry3, reference: [f64; 3], v: [f64; 3], w: [f64; 3]) -> Placed<'a> {
    Placed { body, pose: at, reference: Point3::from(reference), velocity: v.into(), angular: w.into() }
}

#[test]
fn stiffness_matches_central_differences_for_every_pair_kind() {
    let ball = body(Shape::Sphere { radius: 0.1 }, soft(1e6), 1.5, 0.4);
    let block = body(Shape::Box { size: [0.3, 0.2, 0.1] }, soft(3e6), 0.7, 0.6);
    let rigid_box = body(Shape::Box { size: [0.3, 0.2, 0.1] }, RIGID, 0.0, 0.5);
    let rigid_ball = body(Shape::Sphere { radius: 0.1 }, RIGID, 0.0, 0.5);
    let ground = body(Shape::HalfSpace, RIGID, 0.0, 0.5);
    let soft_ground = body(
        Shape::HalfSpace,
        Compliance::Compliant { modulus: 2e6, resolution: None, slab_thickness: Some(0.1) },
        0.5,
        0.5,
    );
    let tilted = pose([0.012, -0.02, 0.14], [0.2, -0.1, 0.3]);
    let under = pose([0.0, 0.01, 0.0], [0.05, -0.1, 0.2]);
    // Sliding and turning, with the reference points off the bodies' origins.
    let (va, wa) = ([0.03, -0.02, -0.05], [0.3, -0.2, 0.5]);
    let (vb, wb) = ([-0.01, 0.004, 0.01], [0.1, 0.2, -0.1]);
    let cases: [(&str, &PfBody, Isometry3, &PfBody, Isometry3); 5] = [
        ("compliant–rigid mesh", &ball, tilted, &rigid_box, under),
        (
            "compliant–rigid half space",
            &ball,
            pose([0.0, 0.0, 0.092], [0.4, 0.3, 0.2]),
            &ground,
            pose([0.0; 3], [0.1, -0.05, 0.0]),
        ),
        ("compliant–compliant", &ball, tilted, &block, under),
        (
            "compliant–compliant half space",
            &ball,
            pose([0.02, 0.0, 0.093], [0.3, 0.2, 0.1]),
            &soft_ground,
            Isometry3::identity(),
        ),
        (
            "compliant half space–rigid mesh",
            &rigid_ball,
            pose([0.0, 0.0, 0.095], [0.2, -0.15, 0.1]),
            &soft_ground,
            pose([0.0; 3], [0.03, 0.0, 0.0]),
        ),
    ];
    for (label, a, pa, b, pb) in cases {
        let ra = (pa * Point3::new(0.01, -0.02, 0.005)).coords.into();
        let rb = (pb * Point3::new(-0.03, 0.01, 0.02)).coords.into();
        // At rest the stiffness is the Hessian of U: exact for every kind.
        check(
            &format!("{label}, at rest"),
            placed(a, pa, ra, [0.0; 3], [0.0; 3]),
            placed(b, pb, rb, [0.0; 3], [0.0; 3]),
            1e-4,
        );
        // Sliding: exact where one body is rigid, up to the quadrature: the force's three-point
        // rule per polygon is exact for the elastic force and the Hunt–Crossley pressure, not
        // for friction, and the differences see its error turn with the normal (about 1e-4
        // here), which the stiffness (the derivative of the exact integral) does not have.
        // Between two compliant bodies the dissipative part leaves out the creases between
        // polygons (0.6–0.8% here).
        let tolerance = if a.is_compliant() && b.is_compliant() { 0.02 } else { 2e-4 };
        check(&format!("{label}, sliding"), placed(a, pa, ra, va, wa), placed(b, pb, rb, vb, wb), tolerance);
    }
}

#[test]
fn stiffness_at_rest_is_symmetric_and_the_whole_scene_moved_changes_nothing() {
    let ball = body(Shape::Sphere { radius: 0.1 }, soft(1e6), 0.0, 0.0);
    let block = body(Shape::Box { size: [0.3, 0.2, 0.1] }, soft(3e6), 0.0, 0.0);
    let (pa, pb) = (pose([0.012, -0.02, 0.14], [0.2, -0.1, 0.3]), pose([0.0, 0.01, 0.0], [0.05, -0.1, 0.2]));
    let a = placed(&ball, pa, [0.01, 0.0, 0.15], [0.0; 3], [0.0; 3]);
    let b = placed(&block, pb, [0.0, 0.02, 0.01], [0.0; 3], [0.0; 3]);
    let k = analytic(&a, &b);
    // A conservative pair at rest: K = −∂²U/∂X² up to the torque terms of the reference points
    // (Q holds torques about points that move with the bodies), which vanish in the
    // translation block.
    let t = k.fixed_view::<3, 3>(0, 0);
    let asym = (t - t.transpose()).abs().max() / t.abs().max();
    assert!(asym < 1e-9, "translation stiffness not symmetric: {asym:.2e}");
    // Translate and turn everything: K turns with the scene.
    let shift = pose([0.3, -0.2, 0.1], [0.4, 0.2, -0.7]);
    let r = *shift.rotation.to_rotation_matrix().matrix();
    let a2 = Placed { pose: shift * a.pose, reference: shift * a.reference, ..a };
    let b2 = Placed { pose: shift * b.pose, reference: shift * b.reference, ..b };
    let k2 = analytic(&a2, &b2);
    let mut big = K::zeros();
    for i in 0..4 {
        big.fixed_view_mut::<3, 3>(3 * i, 3 * i).copy_from(&r);
    }
    let turned = big * k * big.transpose();
    let err = (turned - k2).abs().max() / k.abs().max();
    assert!(err < 1e-9, "stiffness not invariant under moving the scene: {err:.2e}");
}

/// The Hertz stiffness (closed form, normal held fixed) against central differences of the
/// model's wrench, through a scene as a user writes it.
#[test]
fn hertz_stiffness_matches_central_differences() {
    use contactlab::contact::model::Derivatives;
    use contactlab::scene::parse_scene;
    let text = r#"
[model]
kind = "hertz"
[[body]]
name = "box"
mass = 2.0
position = [0.0, 0.0, -0.05]
orientation = [0.9887710779360422, 0.0, 0.0, 0.14943813247359922]
shape = { type = "box", size = [0.2, 0.2, 0.1] }
contact = { material = "Steel" }
[[body]]
name = "ball"
mass = 0.0327
position = [0.01, -0.02, 0.00999]
shape = { type = "sphere", radius = 0.01 }
contact = { material = "Steel" }
[[body]]
name = "other"
mass = 0.05
position = [0.0105, -0.0195, 0.0299]
shape = { type = "ellipsoid", radii = [0.01, 0.012, 0.01] }
contact = { material = "Steel" }
"#;
    let scene = parse_scene(text, std::path::Path::new(".")).unwrap();
    let model = contactlab::scene::contact_model(&scene, false).unwrap();
    let model = model.force().expect("Hertz is a force model");
    let poses0: Vec<(Isometry3, Twist)> = scene.bodies.iter().map(|b| (b.pose, Twist::default())).collect();
    for (a, b) in [(0, 1), (1, 2)] {
        let refs =
            [poses0[a].0 * Point3::new(0.003, -0.002, 0.001), poses0[b].0 * Point3::new(-0.001, 0.002, 0.0)];
        let q = |poses: &[(Isometry3, Twist)], refs: &[Point3; 2]| -> Q {
            let (c, _) = model
                .evaluate((a, b), poses, (&refs[0], &refs[1]), Derivatives::None)
                .unwrap()
                .expect("touching");
            let w = c.wrench;
            let mut q = Q::zeros();
            for (k, v) in
                [w.force, w.torque_about(&refs[0]), -w.force, -w.torque_about(&refs[1])].iter().enumerate()
            {
                q.fixed_rows_mut::<3>(3 * k).copy_from(v);
            }
            q
        };
        let (_, d) = model
            .evaluate((a, b), &poses0, (&refs[0], &refs[1]), Derivatives::VelocityAndPose)
            .unwrap()
            .expect("touching");
        let k = d.unwrap().pose.expect("a closed-form stiffness");
        let h = 1e-9;
        let mut fd = K::zeros();
        for col in 0..12 {
            let side = col / 6;
            let body = [a, b][side];
            let mut e = Vector3::zeros();
            e[col % 3] = h;
            let moved = |s: f64| {
                let mut poses = poses0.clone();
                let mut r = refs;
                let (dr, dth) =
                    if col % 6 < 3 { (e * s, Vector3::zeros()) } else { (Vector3::zeros(), e * s) };
                let c = refs[side];
                let about =
                    Isometry3::from_parts(
                        Translation3::from(c.coords + dr),
                        UnitQuaternion::from_scaled_axis(dth),
                    ) * Isometry3::from_parts(Translation3::from(-c.coords), UnitQuaternion::identity());
                poses[body].0 = about * poses[body].0;
                r[side] = c + dr;
                q(&poses, &r)
            };
            fd.set_column(col, &((moved(1.0) - moved(-1.0)) / (2.0 * h)));
        }
        let err = (k - fd).abs().max() / k.abs().max();
        eprintln!("hertz pair ({a}, {b}): max |K − FD| = {err:.2e} of {:.3e}", k.abs().max());
        // The normal is held fixed: exact on the box's flat face; between two curved surfaces
        // it leaves out the normal's turn, O(δ/R) of the stiffness (δ/R = 1e-2 here).
        let tolerance = if a == 0 { 1e-4 } else { 5e-3 };
        assert!(
            err < tolerance,
            "Hertz stiffness differs from central differences by {err:.2e}\nK = {k:.3}\nFD = {fd:.3}"
        );
    }
}
