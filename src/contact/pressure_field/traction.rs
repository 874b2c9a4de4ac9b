//! Integrating tractions over contact polygons.
//!
//! The pressure p0 is linear over each polygon. Normal traction p·n̂ with the Hunt–Crossley
//! pressure p = p0·max(0, 1 − d·v_n) (v_n the separation speed along n̂), and regularized
//! Coulomb friction −μ·p·v_t/√(|v_t|² + v_s²) (v_t the slip velocity, v_s the stiction speed):
//! bounded by μ·p, smooth at zero slip.
//!
//! With velocity-dependent terms, each polygon is integrated with a three-point rule of degree 2
//! built from its moments ([`polygon_rule`]): exact for the Hunt–Crossley pressure (quadratic
//! over the polygon) and for the moment of a linear pressure. Without them, the same integrals
//! are evaluated in closed form.

use super::polygon_rule::{BasisCache, polygon_rule_in};
use crate::field::LinearField;
use crate::math::{Matrix3, Point3, Vector3};
use nalgebra::Matrix6;

/// Velocity-dependent parameters of a pair, in the primary body's frame.
#[derive(Clone, Copy, Debug)]
pub struct Kinetics {
    /// Relative velocity of the primary body w.r.t. the secondary at point x: `u + w × x`.
    pub u: Vector3,
    pub w: Vector3,
    /// Effective Hunt–Crossley dissipation (s/m).
    pub dissipation: f64,
    /// Effective friction coefficient.
    pub friction: f64,
    /// Stiction (regularization) speed (m/s).
    pub stiction_speed: f64,
    /// The pair's reference direction for the quadrature rules' orientation
    /// ([`super::polygon_rule::pair_reference`]).
    pub reference: Vector3,
    /// Whether to accumulate the derivative of the wrench with respect to (u, w).
    pub jacobian: bool,
    /// Whether to accumulate the derivative of the wrench with respect to the secondary body's
    /// pose ([`Accumulator::stiffness`]).
    pub stiffness: bool,
}

impl Kinetics {
    /// Whether tractions depend on velocity at all.
    pub fn is_static(&self) -> bool {
        !self.stiffness
            && ((self.dissipation == 0.0 && self.friction == 0.0)
                || (!self.jacobian && self.u == Vector3::zeros() && self.w == Vector3::zeros()))
    }
}

/// Force, torque about the frame origin, and area accumulated over polygons.
#[derive(Clone, Copy, Debug, Default)]
pub struct Accumulator {
    pub force: Vector3,
    pub torque: Vector3,
    pub area: f64,
    pub polygons: usize,
    /// Power of the dissipative tractions (Hunt–Crossley excess pressure and friction) on the
    /// relative motion (W, ≤ 0): the rate at which the contact turns mechanical energy into heat.
    pub dissipation_power: f64,
    /// The elastic part of `force` and `torque`: the static pressure p0·n̂ alone (−∇U), whose
    /// work over a step is what the elastic energy loses.
    pub elastic_force: Vector3,
    pub elastic_torque: Vector3,
    /// ∂(force, torque)/∂(u, w) when [`Kinetics::jacobian`] is set (rows: force, torque about
    /// the frame origin; columns: u, w).
    pub jacobian: Matrix6<f64>,
    /// ∂(force, torque)/∂(δa, δφ) when [`Kinetics::stiffness`] is set: the secondary body
    /// displaced by y ↦ y + δa + δφ × y (primary frame) with (u, w) held fixed.
    pub stiffness: Matrix6<f64>,
}

impl Accumulator {
    /// Adds one polygon of `area` with normal `n`: its wrench (force, torque about the frame
    /// origin), its static pressure's ∫p dA and ∫x p dA (the elastic part, −∇U), and the power
    /// of its dissipative tractions.
    #[inline]
    fn add_polygon(
        &mut self,
        n: &Vector3,
        area: f64,
        (force, torque): (Vector3, Vector3),
        (int_p, int_xp): (f64, Vector3),
        power: f64,
    ) {
        self.force += force;
        self.torque += torque;
        self.elastic_force += n * int_p;
        self.elastic_torque += int_xp.cross(n);
        self.area += area;
        self.polygons += 1;
        self.dissipation_power += power;
    }
}

impl std::ops::AddAssign for Accumulator {
    fn add_assign(&mut self, o: Accumulator) {
        self.force += o.force;
        self.torque += o.torque;
        self.area += o.area;
        self.polygons += o.polygons;
        self.dissipation_power += o.dissipation_power;
        self.elastic_force += o.elastic_force;
        self.elastic_torque += o.elastic_torque;
        self.jacobian += o.jacobian;
        self.stiffness += o.stiffness;
    }
}

/// Adds the traction integral of one convex polygon with pressure `p0` and unit normal `n`;
/// `secondary` is the secondary body's pressure gradient there (primary frame), `None` when it
/// is rigid. For kinetics with velocity-dependent terms or derivatives: a query whose
/// [`Kinetics::is_static`] holds integrates its polygons with [`static_polygon`] instead (the
/// caller decides once per query).
pub fn integrate_polygon(
    points: &[Point3],
    p0: &LinearField,
    n: &Vector3,
    secondary: Option<&Vector3>,
    kin: &Kinetics,
    (acc, bases): (&mut Accumulator, &mut BasisCache),
) {
    let Some((area, rule)) = polygon_rule_in(points, bases.basis(n, &kin.reference)) else { return };
    let weight = area / 3.0;
    let sums = rule_sums(&rule, weight, p0, n, kin);
    acc.add_polygon(n, area, (sums.force, sums.torque), (sums.int_p, sums.int_xp), sums.power);
    if kin.jacobian || kin.stiffness {
        add_derivatives(&rule, weight, p0, n, secondary, kin, acc);
    }
}

/// Adds the derivatives of one polygon's traction integral at its rule's points: the velocity
/// Jacobian (with `kin.jacobian`) and the pose stiffness (with `kin.stiffness`). (Each point's
/// traction is evaluated again here: derivative queries are rare and ten times dearer.)
pub(super) fn add_derivatives(
    rule: &[Point3; 3],
    weight: f64,
    p0: &LinearField,
    n: &Vector3,
    secondary: Option<&Vector3>,
    kin: &Kinetics,
    acc: &mut Accumulator,
) {
    let surface = kin.stiffness.then(|| SurfaceMotion::new(n, &p0.gradient, secondary));
    // ∫dA, ∫x dA and ∫x xᵀ dA, for the elastic stiffness.
    let (mut m0, mut m1, mut m2) = (0.0, Vector3::zeros(), Matrix3::zeros());
    for x in rule {
        let q0 = p0.value(x);
        let (t, v) = traction(x, q0, n, kin);
        // ∂T/∂v, shared by the Jacobian and the stiffness.
        let dv = traction_velocity_derivative(q0, n, &v, kin);
        if kin.jacobian
            && let Some(d) = &dv
        {
            add_jacobian(&mut acc.jacobian, &x.coords, &(d * weight));
        }
        if let Some(surface) = &surface {
            m0 += weight;
            m1 += x.coords * weight;
            m2 += x.coords * x.coords.transpose() * weight;
            if kin.dissipation != 0.0 || kin.friction != 0.0 {
                let point = StiffnessPoint { x, p0: q0, gradient: &p0.gradient, n };
                add_dissipative_stiffness(
                    &mut acc.stiffness,
                    surface,
                    &point,
                    (&t, &v, dv.as_ref()),
                    kin,
                    weight,
                );
            }
        }
    }
    if let Some(surface) = &surface {
        surface.add_elastic(&mut acc.stiffness, &p0.gradient, (m0, &m1, &m2));
    }
}

/// Adds the derivatives of the traction integral at one quadrature point `x` of area weight
/// `weight` on a rigid secondary's surface (normal `n`), where the primary's static pressure
/// is `p0` with gradient `gradient`: the velocity Jacobian (with `kin.jacobian`) and the
/// dissipative part of the pose stiffness (with `kin.stiffness`). For a field that is not
/// linear over the surface (an analytic sphere's), point by point; the same terms as
/// [`add_derivatives`], whose elastic part the caller adds ([`add_radial_elastic`]).
pub(super) fn add_point_derivatives(
    x: &Point3,
    weight: f64,
    (p0, gradient): (f64, &Vector3),
    n: &Vector3,
    kin: &Kinetics,
    acc: &mut Accumulator,
) {
    let (t, v) = traction(x, p0, n, kin);
    let dv = traction_velocity_derivative(p0, n, &v, kin);
    if kin.jacobian
        && let Some(d) = &dv
    {
        add_jacobian(&mut acc.jacobian, &x.coords, &(d * weight));
    }
    if kin.stiffness && (kin.dissipation != 0.0 || kin.friction != 0.0) {
        let surface = SurfaceMotion::new(n, gradient, None);
        let point = StiffnessPoint { x, p0, gradient, n };
        add_dissipative_stiffness(&mut acc.stiffness, &surface, &point, (&t, &v, dv.as_ref()), kin, weight);
    }
}

/// Adds the elastic stiffness ∫ (∇p, x × ∇p)·(n, x × n)ᵀ dA of a field whose gradient is
/// parallel to the position (a sphere's about its centre: x × ∇p = 0) on a rigid secondary's
/// surface of normal `n`, from the gradient's moments `g0` = ∫∇p dA and `g1` = ∫∇p·xᵀ dA:
/// the blocks ∂F/∂a = g0·nᵀ and ∂F/∂φ = ∫∇p·(x × n)ᵀ dA (rows of g1 crossed with n).
pub(super) fn add_radial_elastic(k: &mut Matrix6<f64>, n: &Vector3, g0: &Vector3, g1: &Matrix3) {
    let mut force = k.fixed_view_mut::<3, 3>(0, 0);
    force += g0 * n.transpose();
    let mut turn = k.fixed_view_mut::<3, 3>(0, 3);
    turn += cross_right(g1, n);
}

/// Adds one polygon of a static query (no velocity-dependent terms, no derivatives): ∫p dA and
/// ∫x p dA in closed form.
#[inline(never)]
pub fn static_polygon(points: &[Point3], p0: &LinearField, n: &Vector3, acc: &mut Accumulator) {
    if points.len() < 3 {
        return;
    }
    // ∫p dA and ∫x p dA over a fan from the first vertex: for a triangle with corner
    // pressures p_i, ∫p = A·Σp_i/3 and ∫x p = A/12·(Σ x_i p_i + Σx_i·Σp_i). The polygon
    // lies in the plane normal to n, so each triangle's area is its cross product along n
    // (no square root); a convex polygon's fan triangles all have one sign, fixed at the end.
    // (Each vertex's pressure is evaluated once, and the constant factors applied once per
    // polygon: sums of 2A·Σp and 2A·(Σ x_i p_i + Σx_i·Σp_i).)
    let x0 = points[0].coords;
    let q0 = p0.value(&points[0]);
    let (mut x1, mut q1) = (points[1].coords, p0.value(&points[1]));
    let (mut sum_ap, mut sum_axp, mut twice_area) = (0.0, Vector3::zeros(), 0.0);
    for x2 in &points[2..] {
        let (x2, q2) = (x2.coords, p0.value(x2));
        let a = (x1 - x0).cross(&(x2 - x0)).dot(n);
        let sum_p = q0 + q1 + q2;
        sum_ap += a * sum_p;
        sum_axp += (x0 * q0 + x1 * q1 + x2 * q2 + (x0 + x1 + x2) * sum_p) * a;
        twice_area += a;
        (x1, q1) = (x2, q2);
    }
    let (mut int_p, mut int_xp, mut area) = (sum_ap / 6.0, sum_axp / 24.0, 0.5 * twice_area);
    if area < 0.0 {
        (int_p, int_xp, area) = (-int_p, -int_xp, -area);
    }
    // A polygon of no area (a touching point or edge, below a square picometre) carries
    // nothing: not counted as a face.
    if area <= 1e-24 {
        return;
    }
    acc.add_polygon(n, area, (n * int_p, int_xp.cross(n)), (int_p, int_xp), 0.0);
}

/// A rule's weighted sums without derivatives.
struct RuleSums {
    force: Vector3,
    torque: Vector3,
    power: f64,
    int_p: f64,
    int_xp: Vector3,
}

/// A polygon's weighted sums at its rule's points: force, torque, dissipated power (the
/// traction beyond the elastic p0·n̂ on the relative velocity) and the elastic ∫p dA, ∫x p dA.
/// Kept out of the derivative code so that the hot force-only path stays in registers.
#[inline(never)]
fn rule_sums(rule: &[Point3; 3], weight: f64, p0: &LinearField, n: &Vector3, kin: &Kinetics) -> RuleSums {
    let mut sums = RuleSums {
        force: Vector3::zeros(),
        torque: Vector3::zeros(),
        power: 0.0,
        int_p: 0.0,
        int_xp: Vector3::zeros(),
    };
    for x in rule {
        let q0 = p0.value(x);
        let (t, v) = traction(x, q0, n, kin);
        let t = t * weight;
        sums.force += t;
        sums.torque += x.coords.cross(&t);
        sums.power += (t - n * (q0 * weight)).dot(&v);
        sums.int_p += q0 * weight;
        sums.int_xp += x.coords * (q0 * weight);
    }
    sums
}

/// The traction (Pa) at point x with static pressure `p0`, and the relative velocity there.
#[inline]
fn traction(x: &Point3, p0: f64, n: &Vector3, kin: &Kinetics) -> (Vector3, Vector3) {
    let v = kin.u + kin.w.cross(&x.coords);
    let vn = v.dot(n);
    let vt = v - n * vn;
    let (p, c) = contact_law(p0, vn, vt.norm_squared(), kin);
    (n * p - vt * c, v)
}

/// The contact law at a point with static pressure `p0`, separation speed `vn` and squared slip
/// speed `slip_squared`: the Hunt–Crossley pressure p and the friction factor c, the traction
/// being p·n̂ − c·v_t (shared by the 3D path and the plane's, [`super::plane_quadrature`]).
#[inline(always)]
pub(super) fn contact_law(p0: f64, vn: f64, slip_squared: f64, kin: &Kinetics) -> (f64, f64) {
    let p = (p0 * (1.0 - kin.dissipation * vn)).max(0.0);
    let s = kin.stiction_speed;
    let slip = (slip_squared + s * s).sqrt();
    (p, kin.friction * p / slip)
}

/// The plane rules' running sums over their points, in the plane's frame (e1, e2, n): force,
/// torque about the origin, dissipated power, and the static pressure's ∫p0 and ∫(s, t)·p0
/// (the elastic force and its arm).
#[derive(Clone, Copy, Default)]
pub(super) struct PlaneSums {
    pub force: Vector3,
    pub torque: Vector3,
    pub power: f64,
    pub int_p: f64,
    pub int_s: f64,
    pub int_t: f64,
}

impl PlaneSums {
    /// Adds the point (s, t) of weight `weight` with static pressure `q0` and relative velocity
    /// `v` (the plane's frame).
    #[inline(always)]
    pub(super) fn add(&mut self, s: f64, t: f64, q0: f64, v: &Vector3, weight: f64, kin: &Kinetics) {
        let (p, c) = contact_law(q0, v.z, v.x * v.x + v.y * v.y, kin);
        let traction = Vector3::new(-c * v.x, -c * v.y, p) * weight;
        self.force += traction;
        self.torque += Vector3::new(t * traction.z, -s * traction.z, s * traction.y - t * traction.x);
        self.power += traction.x * v.x + traction.y * v.y + (traction.z - q0 * weight) * v.z;
        self.int_p += q0 * weight;
        self.int_s += s * q0 * weight;
        self.int_t += t * q0 * weight;
    }
}

/// ∂T/∂v of the traction at a point with static pressure `p0` and relative velocity `v`;
/// `None` where the bodies separate so fast that the Hunt–Crossley pressure has fallen to zero
/// (no traction nearby either). Where p0 itself is zero (the edge of the surface; round-off may
/// leave it a hair below), the derivative is the limit from inside.
fn traction_velocity_derivative(p0: f64, n: &Vector3, v: &Vector3, kin: &Kinetics) -> Option<Matrix3> {
    let vn = v.dot(n);
    let alpha = 1.0 - kin.dissipation * vn;
    if alpha <= 0.0 {
        return None;
    }
    let p = p0 * alpha;
    let vt = v - n * vn;
    let s2 = vt.norm_squared() + kin.stiction_speed * kin.stiction_speed;
    let s = s2.sqrt();
    // T = n p − μ p vt/s with ∂p/∂v = −p0·d·n ⇒
    // ∂T/∂v = c1·a·nᵀ − c2·(I − n nᵀ − t tᵀ), a = n − μ t, t = vt/s, c1 = −p0 d, c2 = μ p/s.
    let t = vt / s;
    let a = n - t * kin.friction;
    let (c1, c2) = (-p0 * kin.dissipation, kin.friction * p / s);
    let mut d: Matrix3 = a * n.transpose() * c1 + (n * n.transpose() + t * t.transpose()) * c2;
    for k in 0..3 {
        d[(k, k)] -= c2;
    }
    Some(d)
}

/// Adds the derivative of a point's traction (and of its moment about the origin) with respect
/// to the relative twist (u, w), where the relative velocity at x is v = u + w × x and `d` is the
/// (weighted) ∂T/∂v there: ∂F/∂u = D, ∂F/∂w = −D·[x]×, ∂τ/∂u = [x]×·D, ∂τ/∂w = −[x]×·D·[x]×.
/// (Products with [x]× as cross products of rows and columns: a third of a matrix product's
/// multiplications.)
#[inline]
fn add_jacobian(jac: &mut Matrix6<f64>, x: &Vector3, d: &Matrix3) {
    let xd = cross_left(x, d);
    let (dx, xdx) = (cross_right(d, x), cross_right(&xd, x));
    let mut add = |r: usize, c: usize, m: Matrix3| {
        let mut view = jac.fixed_view_mut::<3, 3>(r, c);
        view += m;
    };
    add(0, 0, *d);
    add(0, 3, -dx);
    add(3, 0, xd);
    add(3, 3, -xdx);
}

/// [x]×·M, column by column (a third of a matrix product's multiplications): column c is
/// x × M_c, written out as `Vector3::cross` computes it (the same values, without building
/// columns).
#[inline(always)]
fn cross_left(x: &Vector3, m: &Matrix3) -> Matrix3 {
    let mut out = Matrix3::zeros();
    for c in 0..3 {
        let (bx, by, bz) = (m[(0, c)], m[(1, c)], m[(2, c)]);
        out[(0, c)] = x[1] * bz - x[2] * by;
        out[(1, c)] = x[2] * bx - x[0] * bz;
        out[(2, c)] = x[0] * by - x[1] * bx;
    }
    out
}

/// M·[x]×, row by row: row r becomes (r × x)ᵀ (written out as in [`cross_left`]).
#[inline(always)]
fn cross_right(m: &Matrix3, x: &Vector3) -> Matrix3 {
    let mut out = Matrix3::zeros();
    for r in 0..3 {
        let (ax, ay, az) = (m[(r, 0)], m[(r, 1)], m[(r, 2)]);
        out[(r, 0)] = ay * x[2] - az * x[1];
        out[(r, 1)] = az * x[0] - ax * x[2];
        out[(r, 2)] = ax * x[1] - ay * x[0];
    }
    out
}

/// A quadrature point of the contact surface, for the stiffness.
struct StiffnessPoint<'a> {
    x: &'a Point3,
    /// The primary's static pressure and its gradient there.
    p0: f64,
    gradient: &'a Vector3,
    /// The surface normal (from the secondary into the primary).
    n: &'a Vector3,
}

/// How a polygon of the contact surface moves when the secondary is displaced by
/// δy = δa + δφ × y (primary frame).
///
/// Elastic stiffness, exact: the force on the primary is ∫_Ω ∇p dV over the primary's region Ω
/// pushed by the secondary (p ≤ p_S), bounded by the surface and by where p = 0; p's field does
/// not move with the secondary, so only the surface's normal motion ξ counts:
/// δF = ∫ ∇p·ξ dA and δτ = ∫ (x × ∇p)·ξ dA, with ξ = n·δy on a rigid secondary and
/// ξ = −∇p_S·δy/|∇p − ∇p_S| on a compliant one. No term comes from the creases between
/// polygons, as it would by differentiating ∫ p·n dA polygon by polygon.
///
/// The rest (Hunt–Crossley's excess and friction), pointwise: the surface point moves by δy
/// (rigid: the surface is the secondary's) or ξ·n (compliant), the normal turns with the
/// secondary's gradient, the pressure and the relative velocity change with the point's motion.
/// On a compliant pair this leaves out the creases' terms of the dissipative part only.
struct SurfaceMotion {
    /// ξ = c·δy.
    c: Vector3,
    /// δn = turn·δφ.
    turn: Matrix3,
    /// Whether the surface is the (rigid) secondary's own.
    rigid: bool,
}

impl SurfaceMotion {
    fn new(n: &Vector3, g: &Vector3, secondary: Option<&Vector3>) -> SurfaceMotion {
        match secondary {
            None => SurfaceMotion { c: *n, turn: -n.cross_matrix(), rigid: true },
            Some(gs) => {
                let len = (g - gs).norm();
                let tangential = Matrix3::identity() - n * n.transpose();
                SurfaceMotion { c: -gs / len, turn: tangential * gs.cross_matrix() / len, rigid: false }
            }
        }
    }

    /// Adds the elastic stiffness of a polygon with pressure gradient `g` and moments
    /// (∫dA, ∫x dA, ∫x xᵀ dA): ∫ (g, x × g)·(c, x × c)ᵀ dA.
    fn add_elastic(&self, k: &mut Matrix6<f64>, g: &Vector3, (m0, m1, m2): (f64, &Vector3, &Matrix3)) {
        let c = &self.c;
        // (x × g)(x × c)ᵀ = −[g]×·x xᵀ·[c]×.
        let blocks = [
            (0, 0, g * c.transpose() * m0),
            (0, 3, g * m1.cross(c).transpose()),
            (3, 0, m1.cross(g) * c.transpose()),
            (3, 3, -(g.cross_matrix() * m2 * c.cross_matrix())),
        ];
        for (r, col, b) in blocks {
            let mut view = k.fixed_view_mut::<3, 3>(r, col);
            view += b;
        }
    }
}

/// Adds `weight` × the derivative of the dissipative traction R = T − p0·n at a surface point
/// (and of its moment about the origin) with respect to the secondary's displacement, (u, w)
/// fixed (see [`SurfaceMotion`]).
fn add_dissipative_stiffness(
    k: &mut Matrix6<f64>,
    surface: &SurfaceMotion,
    point: &StiffnessPoint,
    (traction, v, dv): (&Vector3, &Vector3, Option<&Matrix3>),
    kin: &Kinetics,
    weight: f64,
) {
    let StiffnessPoint { x, p0, gradient: g, n } = *point;
    let x = x.coords;
    let vn = v.dot(n);
    let alpha = 1.0 - kin.dissipation * vn;
    let rest = traction - n * p0;
    let (dr_dp0, dr_dn, dr_dv) = match dv {
        Some(&dv) => {
            let p = p0 * alpha;
            let vt = v - n * vn;
            let s = (vt.norm_squared() + kin.stiction_speed * kin.stiction_speed).sqrt();
            let mu = kin.friction;
            let dt_dn: Matrix3 = Matrix3::identity() * p - n * v.transpose() * (p0 * kin.dissipation)
                + vt * v.transpose() * (mu * p0 * kin.dissipation / s)
                + (Matrix3::identity() * vn + n * v.transpose()) * (mu * p / s)
                - vt * vt.transpose() * (mu * p * vn / (s * s * s));
            let unit = (n - vt * (mu / s)) * alpha;
            (unit - n, dt_dn - Matrix3::identity() * p0, dv)
        }
        // Separating faster than 1/d: no traction, R = −p0·n.
        None => (-n, -Matrix3::identity() * p0, Matrix3::zeros()),
    };
    // Blocks of 3: the point's motion δx = P·δa + Q·δφ, the normal's turn [0, T]; then
    // ∂R = A·[P, Q] + [0, ∂R/∂n·T] with A = ∂R/∂p0·∇p0ᵀ + ∂R/∂v·[w]×, and the moment's
    // [x]×·∂R − [R]×·[P, Q]. (Products with cross matrices written out: rank one or crosses.)
    let a = (dr_dp0 * g.transpose() + cross_right(&dr_dv, &kin.w)) * weight;
    let turn = dr_dn * surface.turn * weight;
    let rest = rest * weight;
    let (dr0, dr1, rest_p, rest_q) = if surface.rigid {
        // P = I, Q = −[x]×; [r]×·[x]× = x rᵀ − (r·x)·I.
        let mut rx = x * rest.transpose();
        let rx_dot = rest.dot(&x);
        for k in 0..3 {
            rx[(k, k)] -= rx_dot;
        }
        (a, turn - cross_right(&a, &x), rest.cross_matrix(), -rx)
    } else {
        // P = n·cᵀ, Q = n·(x × c)ᵀ.
        let (an, rn, xc) = (a * n, rest.cross(n), x.cross(&surface.c));
        (
            an * surface.c.transpose(),
            an * xc.transpose() + turn,
            rn * surface.c.transpose(),
            rn * xc.transpose(),
        )
    };
    let m0 = cross_left(&x, &dr0) - rest_p;
    let m1 = cross_left(&x, &dr1) - rest_q;
    for (r, c, b) in [(0, 0, dr0), (0, 3, dr1), (3, 0, m0), (3, 3, m1)] {
        let mut view = k.fixed_view_mut::<3, 3>(r, c);
        view += b;
    }
}
