use super::*;
use crate::math::{Isometry3, Matrix3, Point3, Translation3, UnitQuaternion, Vector3};
use nalgebra::{DMatrix, Unit};

fn link(body: usize, mass: f64, com: [f64; 3], inertia: [f64; 3]) -> Link {
    Link { body, mass, com: Point3::from(com), inertia: Matrix3::from_diagonal(&inertia.into()) }
}

/// Two links turning about z in the x–y plane: link 1 (mass m1, centre r1 along x, inertia
/// I1 about z at its centre), link 2 hinged at l1 along link 1's x.
struct TwoLink {
    m: [f64; 2],
    r: [f64; 2],
    l1: f64,
    i: [f64; 2],
}

const ARM: TwoLink = TwoLink { m: [1.3, 0.7], r: [0.25, 0.18], l1: 0.5, i: [0.03, 0.011] };

fn two_link(arm: &TwoLink) -> Articulation {
    let z = Unit::new_normalize(Vector3::z());
    let joints = vec![
        Joint::new("shoulder", JointKind::Revolute(z), NONE, Isometry3::translation(0.1, 0.2, 0.3)),
        Joint::new("elbow", JointKind::Revolute(z), 0, Isometry3::translation(arm.l1, 0.0, 0.0)),
    ];
    let links = vec![
        link(0, arm.m[0], [arm.r[0], 0.0, 0.0], [0.01, 0.02, arm.i[0]]),
        link(1, arm.m[1], [arm.r[1], 0.0, 0.0], [0.004, 0.005, arm.i[1]]),
    ];
    Articulation::new(joints, links)
}

const CONFIGURATIONS: [[f64; 2]; 4] = [[0.0, 0.0], [0.3, -1.1], [2.0, 0.7], [-2.5, 3.0]];

#[test]
fn a_two_link_arm_has_the_closed_form_mass_matrix_and_gravity_torques() {
    let arm = two_link(&ARM);
    let TwoLink { m, r, l1, i } = ARM;
    let g = 9.81;
    for q in CONFIGURATIONS {
        let kin = arm.kinematics(&q, &[0.0, 0.0]);
        let mass = arm.mass_matrix(&kin);
        let c2 = q[1].cos();
        let m11 = i[0] + i[1] + m[0] * r[0].powi(2) + m[1] * (l1 * l1 + r[1].powi(2) + 2.0 * l1 * r[1] * c2);
        let m12 = i[1] + m[1] * (r[1].powi(2) + l1 * r[1] * c2);
        let m22 = i[1] + m[1] * r[1].powi(2);
        let expected = DMatrix::from_row_slice(2, 2, &[m11, m12, m12, m22]);
        assert!((&mass - &expected).norm() <= 1e-12 * expected.norm(), "{mass} vs {expected}");
        let gravity = arm.inverse_dynamics(&kin, &[0.0, 0.0], None, &Vector3::new(0.0, -g, 0.0), None);
        let g2 = m[1] * r[1] * g * (q[0] + q[1]).cos();
        let g1 = (m[0] * r[0] + m[1] * l1) * g * q[0].cos() + g2;
        for (got, want) in gravity.iter().zip([g1, g2]) {
            assert!((got - want).abs() <= 1e-12 * (g1.abs() + g2.abs()), "{got} vs {want}");
        }
    }
}

/// A branched tree with every joint type on it, a free root.
fn branched() -> Articulation {
    let axis = |x: f64, y: f64, z: f64| Unit::new_normalize(Vector3::new(x, y, z));
    let turn = |x: f64, y: f64, z: f64| UnitQuaternion::from_euler_angles(x, y, z);
    let at = |p: [f64; 3], r: UnitQuaternion| Isometry3::from_parts(Translation3::from(Vector3::from(p)), r);
    let joints = vec![
        Joint::new("root", JointKind::Free, NONE, at([0.0, 0.0, 1.0], turn(0.1, 0.0, 0.0))),
        Joint::new(
            "hip",
            JointKind::Revolute(axis(0.0, 1.0, 0.2)),
            0,
            at([0.1, 0.0, -0.2], turn(0.0, 0.3, 0.0)),
        ),
        Joint::new(
            "knee",
            JointKind::Prismatic(axis(1.0, 0.0, 1.0)),
            1,
            at([0.0, 0.05, -0.3], turn(0.2, 0.0, 0.1)),
        ),
        Joint::new("shoulder", JointKind::Ball, 0, at([-0.1, 0.1, 0.2], turn(0.0, 0.0, 0.5))),
        Joint::new("wrist", JointKind::Fixed, 3, at([0.0, 0.0, 0.3], turn(0.3, 0.2, 0.1))),
        Joint::new(
            "finger",
            JointKind::Revolute(axis(1.0, 0.0, 0.0)),
            4,
            at([0.05, 0.0, 0.1], turn(0.0, 0.0, 0.0)),
        ),
    ];
    let links = (0..6)
        .map(|k| link(k, 1.0 + 0.3 * k as f64, [0.02 * k as f64, -0.01, -0.1], [0.02, 0.03, 0.015]))
        .collect();
    let mut arm = Articulation::new(joints, links);
    arm.joints[2].armature = 0.05;
    arm
}

fn branched_state() -> (Vec<f64>, Vec<f64>) {
    let s = 0.5f64.sqrt();
    let q = vec![0.1, -0.2, 0.9, (1.0 - 0.04f64).sqrt(), 0.2, 0.0, 0.0, 0.4, 0.05, s, 0.0, s, 0.0, -0.3];
    let v = vec![0.3, -0.2, 0.5, 0.1, 0.4, -0.6, 1.2, -0.3, 0.7, 0.2, -0.9, 0.8];
    (q, v)
}

#[test]
fn inverse_dynamics_inverts_forward_dynamics_and_the_tree_factor_solves_the_mass_matrix() {
    let arm = branched();
    let (q, v) = branched_state();
    assert_eq!((arm.nq(), arm.nv()), (q.len(), v.len()));
    let kin = arm.kinematics(&q, &v);
    let gravity = Vector3::new(0.0, -3.0, -9.81);
    let external: Vec<_> = (0..6).map(|k| nalgebra::Vector6::repeat(0.1 * k as f64 - 0.2)).collect();
    let tau: Vec<f64> = (0..arm.nv()).map(|k| (k as f64 * 0.7).sin()).collect();
    let a = arm.accelerations(&kin, &v, &tau, &gravity, Some(&external)).unwrap();
    let mut back = arm.inverse_dynamics(&kin, &v, Some(a.as_slice()), &gravity, Some(&external));
    // Armature is outside inverse_dynamics: add its term.
    back[arm.offsets(2).1] += arm.joints[2].armature * a[arm.offsets(2).1];
    let tau = nalgebra::DVector::from_vec(tau);
    assert!((&back - &tau).norm() <= 1e-10 * tau.norm(), "{back} vs {tau}");
    // M·a from the mass matrix matches inverse dynamics minus the bias.
    let mass = arm.mass_matrix(&kin);
    let bias = arm.inverse_dynamics(&kin, &v, None, &gravity, Some(&external));
    assert!((&mass * &a + &bias - &tau).norm() <= 1e-10 * tau.norm());
    let dense = mass.clone().cholesky().unwrap().solve(&tau);
    let mut sparse = tau.clone();
    arm.factor(&kin).unwrap().solve(sparse.as_mut_slice());
    assert!((dense - sparse).norm() <= 1e-12 * tau.norm());
    // Entries between the two branches are zero.
    assert_eq!(mass[(6, 9)], 0.0);
}

#[test]
fn point_jacobians_match_finite_differences_of_forward_kinematics() {
    let arm = branched();
    let (q, v) = branched_state();
    let kin = arm.kinematics(&q, &v);
    let h = 1e-7;
    for link in [2, 5] {
        let local = Point3::new(0.03, -0.02, 0.05);
        let point = kin.pose[link] * local;
        let jacobian = arm.point_jacobian(&kin, link, &point);
        // Move along each velocity coordinate by ±h and difference the point's position.
        for dof in 0..arm.nv() {
            let moved = |sign: f64| {
                let mut dv = vec![0.0; arm.nv()];
                dv[dof] = sign * h;
                let mut q1 = q.clone();
                for (k, j) in arm.joints.iter().enumerate() {
                    let (qa, va) = arm.offsets(k);
                    let (nq, nv) = (j.kind.nq(), j.kind.nv());
                    j.kind.advance(&q[qa..qa + nq], &dv[va..va + nv], 1.0, &mut q1[qa..qa + nq]);
                }
                let kin1 = arm.kinematics(&q1, &v);
                (kin1.pose[link] * local, kin1.pose[link].rotation)
            };
            let ((p1, r1), (p0, r0)) = (moved(1.0), moved(-1.0));
            let velocity = (p1 - p0) / (2.0 * h);
            let turn = (r1 * r0.inverse()).scaled_axis() / (2.0 * h);
            for r in 0..3 {
                assert!((jacobian[(r, dof)] - velocity[r]).abs() < 1e-7, "link {link} dof {dof}");
                assert!((jacobian[(r + 3, dof)] - turn[r]).abs() < 1e-7, "link {link} dof {dof}");
            }
        }
        // J·v is the link's twist at the point.
        let twist = &jacobian * nalgebra::DVector::from_column_slice(&v);
        let w = kin.pose[link].rotation * spatial::upper(&kin.velocity[link]);
        let at_origin = kin.pose[link].rotation * spatial::lower(&kin.velocity[link]);
        let at_point = at_origin + w.cross(&(point - kin.pose[link].translation.vector).coords);
        assert!((twist.fixed_rows::<3>(0) - at_point).norm() < 1e-12);
        assert!((twist.fixed_rows::<3>(3) - w).norm() < 1e-12);
    }
}

#[test]
fn generalized_forces_of_a_wrench_are_its_power_per_velocity() {
    let arm = branched();
    let (q, v) = branched_state();
    let kin = arm.kinematics(&q, &v);
    let (force, torque) = (Vector3::new(1.0, -2.0, 0.5), Vector3::new(0.3, 0.1, -0.4));
    let point = kin.pose[5] * Point3::new(0.01, 0.02, 0.03);
    let mut tau = vec![0.0; arm.nv()];
    arm.add_wrench(&kin, 5, &point, &force, &torque, &mut tau);
    let j = arm.point_jacobian(&kin, 5, &point);
    let wrench =
        nalgebra::DVector::from_column_slice(&[force.x, force.y, force.z, torque.x, torque.y, torque.z]);
    let expected = j.transpose() * wrench;
    assert!((nalgebra::DVector::from_vec(tau) - expected).norm() < 1e-12);
}
