//! One pair's projection in the projected block Gauss–Seidel solver of the 6D model (Bouchard
//! et al. 2015, Algorithm 1): from the impulse of a rigid (fixed) joint to a feasible one that
//! lets the bodies separate, slide, roll, tip and spin.
//!
//! Everything is in the pair's contact frame at the patch centre c: impulses λ = (f, τ) and
//! velocities ordered (u, w, n) for the force, then (u, w, n) for the torque, with n the normal
//! and (u, w) the patch ellipse's axes. The pair's block of the Schur complement S and its
//! velocity error e (the relative spatial velocity the impulse must cancel) define the joint:
//! S·λ + e = 0. The steps, in the paper's order:
//!
//! 1. unilateral: a fixed-joint impulse that pulls (f_n ≤ 0) is released;
//! 2. Coulomb cone: where |f_t| > μ·f_n the force is held on the cone along the projected
//!    direction q and the normal row and the three torque rows are solved again (Eq. 4–6: the
//!    torques must be re-solved, or a frictionless sphere on an incline would start to roll);
//! 3. centre of pressure d = (n × τ_t)/f_n (the paper's text has the sign reversed: a normal
//!    force f_n·n at d gives the torque d × f_n·n, whose n × · is f_n·d);
//! 4. where d is outside the patch ellipse it is projected onto its edge (closest point) and
//!    the joint becomes a point contact there (Eq. 8), its force again held to the cone (Eq. 10);
//! 5. otherwise the spin torque about d is clamped to the patch's friction bound ([`SpinLimit`]).

use nalgebra::{Matrix3, Matrix4, Matrix6, SMatrix, Vector2, Vector3, Vector4, Vector6};

pub use super::settings::SpinLimit;

/// The patch ellipse: semi-axes along u and along w (m), ≥ 0.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ellipse {
    pub a: f64,
    pub b: f64,
}

/// What the projection did, for statistics and tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Regime {
    /// Released: the joint would have pulled.
    Separate,
    /// The whole patch holds (force in the cone, centre of pressure inside).
    Stick,
    /// The force is on the cone's surface, centre of pressure inside.
    Slide,
    /// The centre of pressure is on the patch's edge: a point contact there.
    Roll,
}

/// The feasible impulse for fixed-joint impulse `fixed` (the solution of S·λ = −e) of a pair
/// with block `s`, velocity error `e`, patch `ellipse` and friction `mu`.
pub fn project(
    s: &Matrix6<f64>,
    e: &Vector6<f64>,
    fixed: &Vector6<f64>,
    ellipse: Ellipse,
    mu: f64,
    spin: SpinLimit,
) -> (Vector6<f64>, Regime) {
    let mut lambda = *fixed;
    if lambda[2] <= 0.0 {
        return (Vector6::zeros(), Regime::Separate);
    }
    let mut regime = Regime::Stick;
    if let Some(q) = cone_direction(&lambda.fixed_rows::<3>(0).into(), mu) {
        // Unknowns: the force's magnitude along q and the three torques; equations: the
        // normal row and the three torque rows (Eq. 4).
        let mut q6 = SMatrix::<f64, 6, 4>::zeros();
        q6.fixed_view_mut::<3, 1>(0, 0).copy_from(&q);
        q6.fixed_view_mut::<3, 3>(3, 1).copy_from(&Matrix3::identity());
        let rows = [2, 3, 4, 5];
        let sq = s * q6;
        let a = Matrix4::from_fn(|r, c| sq[(rows[r], c)]);
        let rhs = Vector4::from_fn(|r, _| -e[rows[r]]);
        let Some(x) = a.lu().solve(&rhs) else { return (Vector6::zeros(), Regime::Separate) };
        if x[0] <= 0.0 {
            return (Vector6::zeros(), Regime::Separate);
        }
        lambda = q6 * x;
        regime = Regime::Slide;
    }
    let f_n = lambda[2];
    let d = Vector2::new(-lambda[4], lambda[3]) / f_n;
    let p = ellipse.closest_point(&d);
    if p != d {
        return point_contact(s, e, &p, mu);
    }
    // Spin: the torque about d along n is bounded by the patch's friction.
    let force = Vector3::new(lambda[0], lambda[1], lambda[2]);
    let offset = Vector3::new(d.x, d.y, 0.0);
    let about_cop = lambda[5] - offset.cross(&force).z;
    // The uniform arm is at least (2/3)·b (the mean distance is least from the centre, where
    // the ellipse holds the disc of radius b and the rest lies farther): within that, no clamp
    // and no quadrature (a hair below, for the quadrature's round-off).
    let floor = match spin {
        SpinLimit::Uniform => mu * f_n * UNIFORM_ARM_FLOOR * ellipse.a.min(ellipse.b).max(0.0),
        SpinLimit::Corners => 0.0,
    };
    if about_cop.abs() > floor {
        // Never negative or NaN (a degenerate patch's arm): clamp needs min ≤ max.
        let limit = (mu * f_n * ellipse.spin_arm(&d, spin)).max(0.0);
        lambda[5] += about_cop.clamp(-limit, limit) - about_cop;
    }
    (lambda, regime)
}

/// A point contact at `p` (patch coordinates), its force held to the cone (Eq. 8–10); the
/// impulse returned is at the patch centre.
fn point_contact(s: &Matrix6<f64>, e: &Vector6<f64>, p: &Vector2<f64>, mu: f64) -> (Vector6<f64>, Regime) {
    // λ_c = T·f with T = [I; [p]×]: the force at p and its torque about the centre.
    let offset = Vector3::new(p.x, p.y, 0.0);
    let mut t = SMatrix::<f64, 6, 3>::zeros();
    t.fixed_view_mut::<3, 3>(0, 0).copy_from(&Matrix3::identity());
    t.fixed_view_mut::<3, 3>(3, 0).copy_from(&offset.cross_matrix());
    let sp: Matrix3<f64> = t.transpose() * s * t;
    let ep: Vector3<f64> = t.transpose() * e;
    let Some(f) = sp.lu().solve(&-ep) else { return (Vector6::zeros(), Regime::Separate) };
    match project_point(&sp, &ep, f, mu) {
        Some(f) => (t * f, Regime::Roll),
        None => (Vector6::zeros(), Regime::Separate),
    }
}

/// A point contact's impulse `f` (frame (u, w, n)) projected: released (`None`) when it pulls;
/// held to the cone along its tangential direction with its magnitude from the normal row
/// (Eq. 10) where it lies outside. `sp` is the point's 3×3 block and `ep` its velocity error
/// without this impulse (sp·f + ep = 0 for a sticking point).
pub fn project_point(sp: &Matrix3<f64>, ep: &Vector3<f64>, f: Vector3<f64>, mu: f64) -> Option<Vector3<f64>> {
    if f.z <= 0.0 {
        return None;
    }
    let Some(q) = cone_direction(&f, mu) else { return Some(f) };
    let along = (sp * q).z;
    let magnitude = if along > 0.0 { -ep.z / along } else { 0.0 };
    (magnitude > 0.0).then(|| q * magnitude)
}

/// The unit direction of `f` projected onto the cone |f_t| ≤ μ·f_n (f_n > 0), or `None` when
/// `f` is inside it.
fn cone_direction(f: &Vector3<f64>, mu: f64) -> Option<Vector3<f64>> {
    let tangential = Vector2::new(f.x, f.y);
    let t = tangential.norm();
    if t <= mu * f.z {
        return None;
    }
    let dir = tangential / t;
    Some(Vector3::new(mu * dir.x, mu * dir.y, 1.0).normalize())
}

/// The least uniform spin arm over any ellipse, per unit of its minor semi-axis: 2/3, less a
/// hair for the quadrature's round-off.
const UNIFORM_ARM_FLOOR: f64 = 2.0 / 3.0 * (1.0 - 1e-9);

/// The trapezoid rule's directions (cos θ, sin θ) for the uniform spin arm: 128 evenly spaced.
static DIRECTIONS: std::sync::LazyLock<[(f64, f64); 128]> = std::sync::LazyLock::new(|| {
    std::array::from_fn(|k| {
        let theta = 2.0 * std::f64::consts::PI * k as f64 / 128.0;
        (theta.cos(), theta.sin())
    })
});

impl Ellipse {
    /// The point of the ellipse (with its inside) closest to `d`: `d` itself when inside.
    pub fn closest_point(&self, d: &Vector2<f64>) -> Vector2<f64> {
        let (a, b) = (self.a.max(0.0), self.b.max(0.0));
        let scaled = |x: f64, r: f64| {
            if r > 0.0 {
                x / r
            } else if x == 0.0 {
                0.0
            } else {
                f64::INFINITY
            }
        };
        let level = scaled(d.x, a).powi(2) + scaled(d.y, b).powi(2);
        if level <= 1.0 {
            return *d;
        }
        if a == 0.0 || b == 0.0 {
            // A segment (or a point): clamp along it.
            return Vector2::new(d.x.clamp(-a, a), d.y.clamp(-b, b));
        }
        // x = a²·d/(a² + t) on the edge: the root t > 0 of F(t) = Σ (a·d/(a² + t))² − 1,
        // convex and decreasing, so Newton from t = 0 climbs to it without overshooting.
        let (a2, b2) = (a * a, b * b);
        let mut t = 0.0;
        for _ in 0..100 {
            let (u, v) = (a * d.x / (a2 + t), b * d.y / (b2 + t));
            let f = u * u + v * v - 1.0;
            let df = -2.0 * (u * u / (a2 + t) + v * v / (b2 + t));
            let step = -f / df;
            t += step;
            if step.abs() <= 1e-15 * (t.abs() + a2 + b2) {
                break;
            }
        }
        Vector2::new(a2 * d.x / (a2 + t), b2 * d.y / (b2 + t))
    }

    /// The lever arm of the spin bound about the centre of pressure `p` (inside): the spin
    /// torque may reach μ·f_n times it.
    pub fn spin_arm(&self, p: &Vector2<f64>, limit: SpinLimit) -> f64 {
        let (a, b) = (self.a.max(0.0), self.b.max(0.0));
        match limit {
            SpinLimit::Corners => {
                if a == 0.0 && b == 0.0 {
                    return 0.0;
                }
                let wx = |sx: f64| if a > 0.0 { (1.0 + sx * p.x / a) / 2.0 } else { 0.5 };
                let wy = |sy: f64| if b > 0.0 { (1.0 + sy * p.y / b) / 2.0 } else { 0.5 };
                let mut arm = 0.0;
                for sx in [-1.0, 1.0] {
                    for sy in [-1.0, 1.0] {
                        let corner = Vector2::new(sx * a, sy * b);
                        arm += wx(sx) * wy(sy) * (corner - p).norm();
                    }
                }
                arm
            }
            SpinLimit::Uniform => {
                // Mean distance from p over the ellipse: (1/A)·∮ ρ(θ)³/3 dθ with ρ the distance
                // from p to the edge along θ (a periodic smooth integrand: the trapezoid rule
                // converges fast).
                if a == 0.0 || b == 0.0 {
                    return 0.0;
                }
                let mut sum = 0.0;
                for &(c, s) in DIRECTIONS.iter() {
                    // |p + ρ·(c, s)| on the edge: Aρ² + Bρ + C = 0 in scaled coordinates.
                    let (qa, qb) =
                        (c * c / (a * a) + s * s / (b * b), 2.0 * (p.x * c / (a * a) + p.y * s / (b * b)));
                    let qc = p.x * p.x / (a * a) + p.y * p.y / (b * b) - 1.0;
                    let rho = (-qb + (qb * qb - 4.0 * qa * qc).max(0.0).sqrt()) / (2.0 * qa);
                    sum += rho.powi(3) / 3.0;
                }
                sum * (2.0 * std::f64::consts::PI / DIRECTIONS.len() as f64) / (std::f64::consts::PI * a * b)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The block of one body (mass m, inertia diag(i)) against a fixed one, contact frame at the
    /// patch centre with the centre of mass at `r` from it (frames aligned).
    fn one_body(m: f64, inertia: Vector3<f64>, r: Vector3<f64>) -> (Matrix6<f64>, SMatrix<f64, 6, 6>) {
        // Relative velocity at c: v_c = v + ω × (c − r_com) = v − ω × r; J maps (v, ω) to (v_c, ω).
        let mut j = Matrix6::<f64>::identity();
        j.fixed_view_mut::<3, 3>(0, 3).copy_from(&(-r.cross_matrix()));
        let mut m_inv = Matrix6::<f64>::zeros();
        for k in 0..3 {
            m_inv[(k, k)] = 1.0 / m;
            m_inv[(k + 3, k + 3)] = 1.0 / inertia[k];
        }
        (j * m_inv * j.transpose(), j)
    }

    /// The velocity error of a body moving with `(v, ω)` plus `dt` of a force `force` at its centre
    /// of mass.
    fn error(
        j: &Matrix6<f64>,
        m: f64,
        v: Vector3<f64>,
        w: Vector3<f64>,
        force: Vector3<f64>,
        dt: f64,
    ) -> Vector6<f64> {
        let mut twist = Vector6::zeros();
        twist.fixed_rows_mut::<3>(0).copy_from(&(v + force * (dt / m)));
        twist.fixed_rows_mut::<3>(3).copy_from(&w);
        j * twist
    }

    fn fixed(s: &Matrix6<f64>, e: &Vector6<f64>) -> Vector6<f64> {
        s.lu().solve(&-e).unwrap()
    }

    #[test]
    fn a_box_at_rest_stays_with_a_stick_impulse_that_cancels_gravity() {
        let (m, dt) = (2.0, 1e-3);
        let (s, j) = one_body(m, Vector3::new(0.1, 0.1, 0.1), Vector3::new(0.0, 0.0, 0.05));
        let e = error(&j, m, Vector3::zeros(), Vector3::zeros(), Vector3::new(0.0, 0.0, -9.81 * m), dt);
        let (lambda, regime) =
            project(&s, &e, &fixed(&s, &e), Ellipse { a: 0.05, b: 0.05 }, 0.5, SpinLimit::Uniform);
        assert_eq!(regime, Regime::Stick);
        assert!((lambda[2] - 9.81 * m * dt).abs() < 1e-12);
        assert!((s * lambda + e).norm() < 1e-12);
    }

    #[test]
    fn a_pulling_joint_is_released() {
        let (s, j) = one_body(1.0, Vector3::new(0.1, 0.1, 0.1), Vector3::new(0.0, 0.0, 0.05));
        let e = error(&j, 1.0, Vector3::new(0.0, 0.0, 1.0), Vector3::zeros(), Vector3::zeros(), 1e-3);
        let (lambda, regime) =
            project(&s, &e, &fixed(&s, &e), Ellipse { a: 0.05, b: 0.05 }, 0.5, SpinLimit::Uniform);
        assert_eq!((lambda, regime), (Vector6::zeros(), Regime::Separate));
    }

    #[test]
    fn a_frictionless_sphere_slides_without_turning() {
        // A sphere (R 0.1) touching at c = its lowest point, moving sideways and down.
        let (m, r) = (1.0, 0.1);
        let i = 0.4 * m * r * r;
        let (s, j) = one_body(m, Vector3::repeat(i), Vector3::new(0.0, 0.0, r));
        let e =
            error(&j, m, Vector3::new(1.0, 0.3, -0.2), Vector3::zeros(), Vector3::new(0.0, 0.0, -9.81), 1e-3);
        let (lambda, regime) =
            project(&s, &e, &fixed(&s, &e), Ellipse { a: 0.01, b: 0.01 }, 0.0, SpinLimit::Uniform);
        assert_eq!(regime, Regime::Slide);
        assert_eq!((lambda[0], lambda[1]), (0.0, 0.0));
        // The impulse changes no angular velocity: its torque about the centre of mass is zero.
        let change = j.transpose() * lambda;
        assert!(change.fixed_rows::<3>(3).norm() < 1e-12, "{change}");
        // And stops the normal motion.
        assert!((s * lambda + e)[2].abs() < 1e-12);
    }

    #[test]
    fn sliding_force_lies_on_the_cone() {
        let (m, mu) = (1.0, 0.3);
        let (s, j) = one_body(m, Vector3::new(0.02, 0.02, 0.03), Vector3::new(0.0, 0.0, 0.05));
        let e =
            error(&j, m, Vector3::new(1.0, 0.0, 0.0), Vector3::zeros(), Vector3::new(0.0, 0.0, -9.81), 1e-3);
        let (lambda, regime) =
            project(&s, &e, &fixed(&s, &e), Ellipse { a: 0.05, b: 0.05 }, mu, SpinLimit::Uniform);
        assert_eq!(regime, Regime::Slide);
        let ft = (lambda[0].powi(2) + lambda[1].powi(2)).sqrt();
        assert!((ft - mu * lambda[2]).abs() < 1e-12 * lambda[2]);
        assert!(lambda[0] < 0.0, "friction opposes the sliding");
    }

    #[test]
    fn a_wrench_whose_centre_of_pressure_leaves_the_patch_becomes_a_point_contact_on_its_edge() {
        // A tall box (com 0.2 above a 0.1 × 0.1 face) spinning up about w: the fixed joint
        // would need a torque far beyond what the patch can give.
        let m = 1.0;
        let (s, j) = one_body(m, Vector3::new(0.02, 0.02, 0.004), Vector3::new(0.0, 0.0, 0.2));
        let e =
            error(&j, m, Vector3::zeros(), Vector3::new(0.0, 5.0, 0.0), Vector3::new(0.0, 0.0, -9.81), 1e-3);
        let patch = Ellipse { a: 0.05, b: 0.05 };
        let (lambda, regime) = project(&s, &e, &fixed(&s, &e), patch, 1.0, SpinLimit::Uniform);
        assert_eq!(regime, Regime::Roll);
        let d = Vector2::new(-lambda[4], lambda[3]) / lambda[2];
        assert!(
            ((d.x / 0.05).powi(2) + (d.y / 0.05).powi(2) - 1.0).abs() < 1e-9,
            "centre of pressure {d} on the edge"
        );
        // The box tips towards +u (its top moves that way): it pivots on its +u edge.
        assert!(d.x > 0.049 && d.y.abs() < 1e-9, "{d}");
        // The contact point's velocity along the normal is cancelled there.
        let offset = Vector3::new(d.x, d.y, 0.0);
        let v = s * lambda + e;
        let at_p = Vector3::new(v[0], v[1], v[2]) + Vector3::new(v[3], v[4], v[5]).cross(&offset);
        assert!(at_p.z.abs() < 1e-12, "{at_p}");
    }

    #[test]
    fn the_spin_torque_is_clamped_to_the_uniform_pressure_bound() {
        let (m, mu, radius) = (1.0, 0.5, 0.05);
        let (s, j) = one_body(m, Vector3::new(0.01, 0.01, 0.01), Vector3::new(0.0, 0.0, 0.05));
        let e =
            error(&j, m, Vector3::zeros(), Vector3::new(0.0, 0.0, 10.0), Vector3::new(0.0, 0.0, -9.81), 1e-3);
        let patch = Ellipse { a: radius, b: radius };
        let (lambda, _) = project(&s, &e, &fixed(&s, &e), patch, mu, SpinLimit::Uniform);
        let bound = 2.0 / 3.0 * mu * lambda[2] * radius;
        assert!((lambda[5].abs() - bound).abs() < 1e-6 * bound, "{} vs {bound}", lambda[5]);
        let (lambda, _) = project(&s, &e, &fixed(&s, &e), patch, mu, SpinLimit::Corners);
        let bound = mu * lambda[2] * radius * std::f64::consts::SQRT_2;
        assert!((lambda[5].abs() - bound).abs() < 1e-12 * bound);
    }

    #[test]
    fn the_closest_point_on_the_ellipse_is_where_the_edge_normal_points_back_at_d() {
        let ellipse = Ellipse { a: 0.3, b: 0.1 };
        for d in [
            Vector2::new(1.0, 0.5),
            Vector2::new(-0.2, 0.4),
            Vector2::new(0.31, 0.0),
            Vector2::new(0.0, -3.0),
        ] {
            let p = ellipse.closest_point(&d);
            assert!(((p.x / 0.3).powi(2) + (p.y / 0.1).powi(2) - 1.0).abs() < 1e-12, "{p}");
            let normal = Vector2::new(p.x / 0.09, p.y / 0.01);
            let cross = normal.x * (d - p).y - normal.y * (d - p).x;
            assert!(cross.abs() < 1e-9 * normal.norm() * (d - p).norm(), "{d} → {p}");
        }
        let inside = Vector2::new(0.1, 0.05);
        assert_eq!(ellipse.closest_point(&inside), inside);
    }

    #[test]
    fn the_uniform_spin_arm_matches_the_disc_and_grows_off_centre() {
        let disc = Ellipse { a: 0.2, b: 0.2 };
        let centred = disc.spin_arm(&Vector2::zeros(), SpinLimit::Uniform);
        assert!((centred - 2.0 / 3.0 * 0.2).abs() < 1e-12);
        // Off centre the mean distance is larger: for a disc, E|x − p| grows with |p|.
        assert!(disc.spin_arm(&Vector2::new(0.1, 0.0), SpinLimit::Uniform) > centred);
        // The floor the projection skips the quadrature under: (2/3)·(the minor semi-axis),
        // anywhere inside any ellipse.
        for (a, b) in [(0.2, 0.2), (0.3, 0.1), (0.1, 0.02)] {
            let e = Ellipse { a, b };
            for (x, y) in [(0.0, 0.0), (0.5, 0.0), (0.0, 0.9), (0.6, -0.6), (-0.99, 0.0)] {
                let arm = e.spin_arm(&Vector2::new(x * a, y * b), SpinLimit::Uniform);
                assert!(arm >= UNIFORM_ARM_FLOOR * b, "{a} {b} ({x}, {y}): {arm}");
            }
        }
    }
}
