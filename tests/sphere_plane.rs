//! A compliant sphere on a rigid half space takes its analytic field's exact integral over the
//! contact disc: the closed forms to round-off; friction, torque and power against a
//! high-order quadrature of the same field over the disc, at random poses and velocities;
//! the derivatives against central differences; the whole scene moved changes nothing; and
//! the meshed sphere's force converges toward it as its mesh is refined.

mod common;
use common::{Rng, pose};
use contactlab::contact::pressure_field::{
    BodyState, Compliance, ContactProperties, PfBody, QueryOptions, contact_surface, evaluate_pair,
    evaluate_pair_with_derivatives, pair_energy, pair_penetration,
};
use contactlab::geometry::Shape;
use contactlab::math::{Isometry3, Point3, Translation3, Twist, UnitQuaternion, Vector3};
use nalgebra::SMatrix;
use std::f64::consts::PI;

const R: f64 = 0.05;
const E: f64 = 1e6;

fn ball(dissipation: f64, friction: f64, resolution: f64) -> PfBody {
    let compliance = Compliance::Compliant { modulus: E, resolution: Some(resolution), slab_thickness: None };
    PfBody::new(&Shape::Sphere { radius: R }, &ContactProperties { compliance, dissipation, friction })
        .unwrap()
}

fn ground(friction: f64) -> PfBody {
    let compliance = Compliance::Rigid { resolution: None };
    PfBody::new(&Shape::HalfSpace, &ContactProperties { compliance, dissipation: 0.0, friction }).unwrap()
}

fn state(body: &PfBody, pose: Isometry3, linear: Vector3, angular: Vector3) -> BodyState<'_> {
    BodyState { body, pose, twist: Twist { linear, angular } }
}

/// (π/3)·E·d²·(3 − 2d/R), and U = ∫F = π·E·d³·(2R − d)/(6R).
fn closed_form(d: f64) -> (f64, f64) {
    (PI / 3.0 * E * d * d * (3.0 - 2.0 * d / R), PI * E * d.powi(3) * (2.0 * R - d) / (6.0 * R))
}

fn options() -> QueryOptions {
    QueryOptions { stiction_speed: 0.01 }
}

#[test]
fn force_energy_and_depth_match_the_closed_forms_to_round_off() {
    let (b, g) = (ball(0.0, 0.0, 0.02), ground(0.0));
    let tilt = pose([0.3, -0.2, 0.1], [0.2, -0.4, 0.7]);
    for d in [1e-6, 1e-4, 2e-3, 0.01, 0.03, 0.05, 0.07, 0.0999] {
        // The ball d into the ground, the whole scene turned and moved.
        let (sb, sg) = (
            state(&b, tilt * pose([0.0, 0.0, R - d], [0.5, 0.1, -0.3]), Vector3::zeros(), Vector3::zeros()),
            state(&g, tilt, Vector3::zeros(), Vector3::zeros()),
        );
        let w = evaluate_pair(sb, sg, &options()).unwrap();
        let normal = tilt.rotation * Vector3::z();
        let h = R - d;
        // Past the centre (d > R) the shells inside are whole: U by shells.
        let (force, energy) = if d <= R {
            closed_form(d)
        } else {
            // The disc at −h carries the same pressures as at h.
            let force = closed_form(R - h.abs()).0;
            let c = -h;
            let inner = 4.0 * PI * E * (c.powi(3) / 3.0 - c.powi(4) / (4.0 * R));
            let outer = |r: f64| {
                r.powi(3) / 3.0 - h * r * r / 2.0 - r.powi(4) / (4.0 * R) + h * r.powi(3) / (3.0 * R)
            };
            (force, inner + 2.0 * PI * E * (outer(R) - outer(c)))
        };
        let f = w.wrench.force;
        // Placing the ball rounds its height off by ~1e-17 m: relative 1e-11 where the disc's
        // depth R − |h| is 1e-6 m.
        let tolerance = 1e-13 * (1e-3 / (R - h.abs())).max(1.0);
        assert!((f - normal * force).norm() <= tolerance * force, "d = {d}: force {f} vs {}", normal * force);
        // The disc is centred under the ball's centre: no moment about it.
        let centre = sb.pose.translation.vector;
        assert!(w.wrench.torque_about(&centre.into()).norm() <= 1e-13 * force * R, "d = {d}");
        let u = pair_energy(sb, sg).unwrap();
        assert!((u - energy).abs() <= 2.0 * tolerance * energy, "d = {d}: energy {u} vs {energy}");
        assert!((w.area - PI * (R * R - h * h)).abs() <= 1e-15, "d = {d}: area {}", w.area);
        assert!((pair_penetration(sb, sg).unwrap() - (R - h.abs())).abs() <= 1e-16, "d = {d}");
        // The other order: the opposite wrench.
        let back = evaluate_pair(sg, sb, &options()).unwrap().wrench;
        assert!((back.force + f).norm() <= 1e-15 * force);
        // The surface drawn for output: its centre of pressure is the disc's centre.
        let surface = contact_surface(sb, sg).unwrap();
        let (cop, n) = surface.centre_of_pressure().unwrap();
        let foot = centre - normal * normal.dot(&(centre - tilt.translation.vector));
        assert!((cop.coords - foot).norm() < 1e-12 && (n - normal).norm() < 1e-12, "d = {d}");
    }
    // Apart or wholly inside: no surface, no force; inside, U is the whole ball's πER³/3.
    for (z, energy) in [(R * 1.0001, 0.0), (-R * 1.0001, PI * E * R.powi(3) / 3.0)] {
        let (sb, sg) = (
            state(&b, pose([0.0, 0.0, z], [0.0; 3]), Vector3::zeros(), Vector3::zeros()),
            state(&g, Isometry3::identity(), Vector3::zeros(), Vector3::zeros()),
        );
        let w = evaluate_pair(sb, sg, &options()).unwrap();
        assert_eq!((w.faces, w.wrench.force), (0, Vector3::zeros()));
        assert!((pair_energy(sb, sg).unwrap() - energy).abs() <= 1e-13 * energy.max(1.0));
    }
}

/// The wrench on the ball (force, torque about the world origin) and the dissipated power by
/// a polar Gauss–Legendre rule in ρ of `radial` × `angular` points over the disc, straight
/// from the traction law: p = max(p0·(1 − d·v_n), 0), T = p·n − μ·p·v_t/√(|v_t|² + v_s²).
fn reference(
    sb: &BodyState,
    sg: &BodyState,
    (d, mu, vs): (f64, f64, f64),
    (radial, angular): (usize, usize),
) -> (Vector3, Vector3, f64) {
    let n = sg.pose.rotation * Vector3::z();
    let c = sb.pose.translation.vector;
    let h = n.dot(&(c - sg.pose.translation.vector));
    let a = (R * R - h * h).sqrt();
    let o = c - n * h;
    let e1 = n.cross(&Vector3::new(0.3, 0.9, -0.2)).normalize();
    let e2 = n.cross(&e1);
    let (x, w) = gauss_legendre(radial);
    let velocity =
        |s: &BodyState, p: &Vector3| s.twist.linear + s.twist.angular.cross(&(p - s.pose.translation.vector));
    let (mut force, mut torque, mut power) = (Vector3::zeros(), Vector3::zeros(), 0.0);
    for j in 0..angular {
        let (sin, cos) = (2.0 * PI * (j as f64 + 0.5) / angular as f64).sin_cos();
        for (xi, wi) in x.iter().zip(&w) {
            let rho = a * 0.5 * (1.0 + xi);
            let weight = wi * a * 0.5 * rho * 2.0 * PI / angular as f64;
            let p = o + (e1 * cos + e2 * sin) * rho;
            let p0 = E * (1.0 - (h * h + rho * rho).sqrt() / R);
            let v = velocity(sb, &p) - velocity(sg, &p);
            let vn = v.dot(&n);
            let vt = v - n * vn;
            let pressure = (p0 * (1.0 - d * vn)).max(0.0);
            let t = n * pressure - vt * (mu * pressure / (vt.norm_squared() + vs * vs).sqrt());
            force += t * weight;
            torque += p.cross(&t) * weight;
            power += (t - n * p0).dot(&v) * weight;
        }
    }
    (force, torque, power)
}

/// Gauss–Legendre on [−1, 1] (Newton on P_n), for the reference.
fn gauss_legendre(count: usize) -> (Vec<f64>, Vec<f64>) {
    let (mut x, mut w) = (vec![0.0; count], vec![0.0; count]);
    for i in 0..count {
        let mut z = (PI * (i as f64 + 0.75) / (count as f64 + 0.5)).cos();
        let mut dp = 1.0;
        for _ in 0..100 {
            let (mut p0, mut p1) = (1.0, z);
            for k in 2..=count {
                let k = k as f64;
                (p0, p1) = (p1, ((2.0 * k - 1.0) * z * p1 - (k - 1.0) * p0) / k);
            }
            dp = count as f64 * (z * p1 - p0) / (z * z - 1.0);
            let step = p1 / dp;
            z -= step;
            if step.abs() < 1e-16 {
                break;
            }
        }
        x[i] = z;
        w[i] = 2.0 / ((1.0 - z * z) * dp * dp);
    }
    (x, w)
}

fn unit(rng: &mut Rng) -> f64 {
    (rng.next() >> 11) as f64 / (1u64 << 53) as f64 - 0.5
}

fn random_vector(rng: &mut Rng, scale: f64) -> Vector3 {
    Vector3::new(unit(rng), unit(rng), unit(rng)) * (2.0 * scale)
}

/// Random poses of the pair, sliding, rolling, spinning and pressing: friction, torque and
/// power equal a 400 × 800-point quadrature of the same field to round-off.
#[test]
fn friction_and_torque_match_a_high_order_quadrature_at_random_states() {
    let (d, mu) = (0.8, 0.6);
    let (b, g) = (ball(d, mu, 0.02), ground(mu));
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    let (mut spins, mut exact) = (0, 0);
    for case in 0..24 {
        let ground_pose = pose(random_vector(&mut rng, 0.5).into(), random_vector(&mut rng, 1.5).into());
        let depth = 0.002 + 0.02 * (unit(&mut rng) + 0.5);
        let place = Isometry3::from_parts(
            Translation3::new(0.0, 0.0, R - depth),
            UnitQuaternion::from_scaled_axis(random_vector(&mut rng, 2.0)),
        );
        // A third without spin about the normal relative to the ground, the rest spinning up to
        // a few times v_s / a (the Taylor ratio δ up to ~3).
        let n = ground_pose.rotation * Vector3::z();
        let (mut w, wg) = (random_vector(&mut rng, 0.4), random_vector(&mut rng, 0.05));
        if case % 3 == 0 {
            w -= n * n.dot(&(w - wg));
        } else {
            spins += 1;
        }
        let sb = state(&b, ground_pose * place, random_vector(&mut rng, 0.02), w);
        let sg = state(&g, ground_pose, random_vector(&mut rng, 0.01), wg);
        let ours = evaluate_pair(sb, sg, &options()).unwrap();
        let (force, torque, power) = reference(&sb, &sg, (d, mu, 0.01), (400, 800));
        let delta = taylor_ratio(&sb, &sg, 0.01);
        let scale = force.norm();
        let err = ((ours.wrench.force - force).norm() / scale).max(
            (ours.wrench.torque - torque).norm() / (scale * (R + ground_pose.translation.vector.norm())),
        );
        let err_power = (ours.dissipation_power - power).abs() / power.abs();
        eprintln!(
            "case {case}: depth {depth:.4}, |F| {scale:.4}, δ {delta:.2e}, error {err:.2e}, power error {err_power:.2e}"
        );
        // Round-off up to the Taylor ratio the largest rule covers; a faster spin converges.
        let (tolerance, power_tolerance) = if delta <= 0.02 { (1e-12, 1e-10) } else { (1e-5, 1e-4) };
        assert!(
            err < tolerance && err_power < power_tolerance,
            "case {case}: {ours:?}\nreference {force} {torque} {power}"
        );
        exact += usize::from(delta <= 0.02);
    }
    assert!(spins > 10 && exact > 6, "{spins} spinning, {exact} within the exact rules");
}

/// δ = (2|ω_n||v_t0|a + ω_n²a²)/(|v_t0|² + v_s²): how much the friction factor varies over the
/// disc (v_t0 the slip at its centre, a its radius).
fn taylor_ratio(sb: &BodyState, sg: &BodyState, vs: f64) -> f64 {
    let n = sg.pose.rotation * Vector3::z();
    let c = sb.pose.translation.vector;
    let h = n.dot(&(c - sg.pose.translation.vector));
    let (a, o) = ((R * R - h * h).sqrt(), c - n * h);
    let velocity =
        |s: &BodyState, p: &Vector3| s.twist.linear + s.twist.angular.cross(&(p - s.pose.translation.vector));
    let v = velocity(sb, &o) - velocity(sg, &o);
    let slip = (v - n * v.dot(&n)).norm();
    let turn = (sb.twist.angular - sg.twist.angular).dot(&n).abs() * a;
    (2.0 * turn * slip + turn * turn) / (slip * slip + vs * vs)
}

type K = SMatrix<f64, 12, 12>;

/// Generalized forces (force, torque about the centre, of the ball then of the ground).
fn generalized(sb: &BodyState, sg: &BodyState) -> SMatrix<f64, 12, 1> {
    let w = evaluate_pair(*sb, *sg, &options()).unwrap().wrench;
    let mut q = SMatrix::<f64, 12, 1>::zeros();
    let parts = [
        w.force,
        w.torque_about(&sb.pose.translation.vector.into()),
        -w.force,
        -w.torque_about(&sg.pose.translation.vector.into()),
    ];
    for (k, v) in parts.iter().enumerate() {
        q.fixed_rows_mut::<3>(3 * k).copy_from(v);
    }
    q
}

/// Body `k` of (ball, ground) moved: `col` 0–2 its centre, 3–5 turned about it, 6–8 its
/// centre's velocity, 9–11 its angular velocity, by `step`.
fn nudged<'a>(s: &BodyState<'a>, col: usize, step: f64) -> BodyState<'a> {
    let mut d = Vector3::zeros();
    d[col % 3] = step;
    let mut out = *s;
    let centre = s.pose.translation.vector;
    let v_centre = s.twist.linear;
    match col / 3 {
        0 => out.pose = Isometry3::from_parts(Translation3::from(d), UnitQuaternion::identity()) * s.pose,
        1 => {
            out.pose.rotation = UnitQuaternion::from_scaled_axis(d) * s.pose.rotation;
            out.pose.translation = Translation3::from(centre);
        }
        2 => out.twist.linear = v_centre + d,
        _ => out.twist.angular = s.twist.angular + d,
    }
    out
}

#[test]
fn derivatives_match_central_differences() {
    let (d, mu) = (0.8, 0.6);
    let (b, g) = (ball(d, mu, 0.02), ground(mu));
    let mut rng = Rng(0x0dd_ba11_2026);
    for case in 0..6 {
        let ground_pose = pose(random_vector(&mut rng, 0.3).into(), random_vector(&mut rng, 1.0).into());
        let place = pose([0.0, 0.0, R - 0.006], random_vector(&mut rng, 2.0).into());
        let w = if case == 0 { Vector3::zeros() } else { random_vector(&mut rng, 0.3) };
        let v = if case == 0 { Vector3::zeros() } else { random_vector(&mut rng, 0.02) };
        let sb = state(&b, ground_pose * place, v, w);
        let sg = state(&g, ground_pose, Vector3::zeros(), Vector3::zeros());
        let refs = (&Point3::from(sb.pose.translation.vector), &Point3::from(sg.pose.translation.vector));
        let (_, derivatives) = evaluate_pair_with_derivatives(sb, sg, refs, &options(), true).unwrap();
        let (jacobian, stiffness) = derivatives.unwrap();
        let stiffness = stiffness.unwrap();
        let (mut fd_j, mut fd_k) = (K::zeros(), K::zeros());
        for col in 0..12 {
            let h = if col % 6 < 3 { 1e-7 } else { 1e-6 };
            let q = |step: f64| {
                let (pos, vel) = (col % 6, col % 6 + 6);
                let _ = vel;
                if col < 6 {
                    generalized(&nudged(&sb, pos, step), &sg)
                } else {
                    generalized(&sb, &nudged(&sg, pos, step))
                }
            };
            fd_k.set_column(col, &((q(h) - q(-h)) / (2.0 * h)));
            let qv = |step: f64| {
                let pos = col % 6 + 6;
                if col < 6 {
                    generalized(&nudged(&sb, pos, step), &sg)
                } else {
                    generalized(&sb, &nudged(&sg, pos, step))
                }
            };
            let hv = 1e-6;
            fd_j.set_column(col, &((qv(hv) - qv(-hv)) / (2.0 * hv)));
        }
        let err_k = (stiffness - fd_k).abs().max() / stiffness.abs().max();
        let err_j = (jacobian - fd_j).abs().max() / jacobian.abs().max().max(1e-300);
        // Exact up to the Taylor ratio the derivatives' rule covers (3 orders: δ⁴ ≤ 1e-17).
        let delta = taylor_ratio(&sb, &sg, 0.01);
        let tolerance = if delta <= 5e-5 { 1e-6 } else { 1e-4 };
        eprintln!(
            "case {case}: δ {delta:.1e}, stiffness error {err_k:.2e}, velocity Jacobian error {err_j:.2e}"
        );
        assert!(err_k < tolerance, "case {case}: K = {stiffness:.5}\nFD = {fd_k:.5}");
        if case > 0 {
            assert!(err_j < tolerance, "case {case}: J = {jacobian:.5}\nFD = {fd_j:.5}");
        }
    }
}

/// The sphere meshed on purpose integrates its tets: its force, torque and energy approach the
/// analytic field's as the mesh is refined.
#[test]
fn the_meshed_sphere_converges_toward_the_analytic_one() {
    let (d, mu) = (0.8, 0.6);
    let (analytic, g) = (ball(d, mu, 0.02), ground(mu));
    let place = pose([0.01, -0.02, R - 0.004], [0.3, 0.2, 0.1]);
    let (v, w) = (Vector3::new(0.01, -0.004, -0.02), Vector3::new(0.3, -0.1, 0.2));
    let sg = state(&g, Isometry3::identity(), Vector3::zeros(), Vector3::zeros());
    let exact = evaluate_pair(state(&analytic, place, v, w), sg, &options()).unwrap().wrench;
    let exact_u = pair_energy(state(&analytic, place, v, w), sg).unwrap();
    let mut last = (f64::INFINITY, f64::INFINITY);
    for resolution in [0.02, 0.01, 0.005] {
        let meshed = ball(d, mu, resolution).with_meshed_field();
        let sb = state(&meshed, place, v, w);
        let wr = evaluate_pair(sb, sg, &options()).unwrap().wrench;
        let err = (wr.force - exact.force).norm() / exact.force.norm();
        let err_u = (pair_energy(sb, sg).unwrap() - exact_u).abs() / exact_u;
        let centre = place.translation.vector.into();
        let err_t = (wr.torque_about(&centre) - exact.torque_about(&centre)).norm()
            / exact.torque_about(&centre).norm();
        eprintln!(
            "resolution {resolution}: force error {err:.3e}, torque error {err_t:.3e}, energy error {err_u:.3e}"
        );
        assert!(err < last.0 && err_u < last.1, "errors must fall with refinement");
        last = (err, err_u);
    }
    assert!(last.0 < 0.01 && last.1 < 0.01, "{last:?}");
}
