//! Contact geometry lying exactly in a tet face gives the same answer as a perturbed pose: a
//! compliant sphere centred exactly in the plane of a rigid box's top face (or of a rigid half
//! space) has its equator's tet faces in that plane. Each coplanar piece must count once, so
//! the force is continuous through such poses.

mod common;
use common::*;
use contactlab::geometry::Shape;

/// True force of a sphere (E, R) on a plane through its centre: (π/3)·E·d²·(3 − 2d/R) at d = R.
const TRUE_FORCE: f64 = std::f64::consts::PI / 3.0 * 1e5 * 0.05 * 0.05;

#[test]
fn a_sphere_centred_in_a_rigid_face_counts_each_coplanar_piece_once() {
    let ball = compliant(Shape::Sphere { radius: 0.05 }, 1e5, 0.005);
    let top_face = rigid(Shape::Box { size: [0.4, 0.4, 0.2] }, None);
    let ground = rigid(Shape::HalfSpace, None);
    let offsets = [-1e-6, -1e-9, -1e-11, -1e-12, 0.0, 1e-12, 1e-11, 1e-9, 1e-6];
    for (label, other, height) in [("box top face", &top_face, -0.1), ("half space", &ground, 0.0)] {
        let forces: Vec<f64> = offsets
            .iter()
            .map(|&dz| wrench(at_pose(&ball, dz), at(other, pose([0.0, 0.0, height], [0.0; 3]))).force.z)
            .collect();
        eprintln!("{label}: {forces:?}");
        for (f, dz) in forces.iter().zip(offsets) {
            // The force changes by about k·dz (k ≈ 2πE·R = 3e4 N/m) — nothing at these offsets
            // but round-off and the mesh's own error against the closed form.
            assert!(
                (f - TRUE_FORCE).abs() < 2e-3 * TRUE_FORCE,
                "{label}, dz = {dz}: {f} N, true {TRUE_FORCE}"
            );
            assert!(
                (f - forces[4]).abs() <= 1e-7 * TRUE_FORCE + 3.2e4 * dz.abs(),
                "{label}, dz = {dz}: {f} N, at 0: {}",
                forces[4]
            );
        }
    }
}

fn at_pose(
    body: &contactlab::contact::pressure_field::PfBody,
    dz: f64,
) -> contactlab::contact::pressure_field::BodyState<'_> {
    at(body, pose([0.0, 0.0, dz], [0.0; 3]))
}
