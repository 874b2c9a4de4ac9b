//! A compliant sphere on a rigid half space, from the sphere's analytic field
//! p0 = E·(1 − |x|/R) (Elandt et al. 2019's sphere, which the tet mesh's field interpolates):
//! chosen automatically for such a pair. The contact surface is the disc where the plane cuts
//! the sphere, and its integrals are taken over the disc itself, not over a mesh's polygons.
//!
//! In polar coordinates (ρ, θ) about the disc's centre, with r = √(h² + ρ²) the distance from
//! the sphere's centre (|h| ≤ r ≤ R, h the centre's height above the plane) and dA = r dr dθ,
//! the static pressure E·(1 − r/R) is linear in r. Where the slip velocity is the same all
//! over the disc (no spin about the normal) and the Hunt–Crossley factor 1 − d·v_n keeps one
//! sign on it, each integrand is a polynomial in r times a trigonometric polynomial in θ —
//! of degree ≤ 2 for the force, torque, power and elastic sums, ≤ 4 for their derivatives —
//! with odd powers of ρ = √(r² − h²), not polynomial in r, only beside odd ones in θ, which the
//! rule sums to zero: 3-point Gauss–Legendre in r times the 3-point (derivatives: 5-point)
//! trapezoid rule in θ integrates it exactly, to
//! round-off. With spin ω_n the friction factor 1/√(|v_t|² + v_s²) varies over the disc by a
//! ratio δ = (2|ω_n||v_t0|a + ω_n²a²)/(|v_t0|² + v_s²) (a the disc's radius, v_t0 the slip at
//! its centre); its Taylor series in δ adds 2 to the polynomial degree per order, so the rule
//! grows by one radial and two angular points per order until δ^(k+1) is below round-off, for
//! δ up to [`MAX_DELTA`] (12 radial by 21 angular points). Past it (a spin whose slip core
//! v_s/|ω_n| is small against the disc), or where the Hunt–Crossley factor changes sign inside
//! the disc (a kink), that largest rule is used: there the integrals converge with the rule but
//! are not exact to round-off (at δ up to 3, tests/sphere_plane.rs finds 4e-8 of the force at
//! worst). Derivatives take a rule of at most 3 orders (6 by 11 points): exact to δ ≈ 5e-5,
//! within about 1e-6 of central differences at δ ≈ 1 (a point's derivatives cost forty times its
//! traction).

use super::pair::{PairFrame, PairKind};
use super::polygon_rule::plane_basis;
use super::traction::{Accumulator, Kinetics, PlaneSums, add_point_derivatives, add_radial_elastic};
use crate::math::{Matrix3, Point3, Vector3};
use std::f64::consts::PI;

/// The Taylor ratio δ of the friction factor's variation beyond which the largest rule is used.
pub const MAX_DELTA: f64 = 0.02;

/// The most orders of the friction factor's Taylor series a rule integrates exactly (the
/// largest rule: 3 + MAX_ORDERS radial by 5 + 2·MAX_ORDERS angular points).
const MAX_ORDERS: usize = 9;

/// The most orders the derivatives' rule integrates (6 radial by 11 angular points).
const MAX_DERIVATIVE_ORDERS: usize = 3;

/// Round-off: the size of the first Taylor term left out.
const ROUND_OFF: f64 = 1e-17;

/// Rings and segments of the polygons drawn for the disc (output only).
const RINGS: usize = 2;
const SEGMENTS: usize = 16;
const _: () = assert!(SEGMENTS <= 5 + 2 * MAX_ORDERS, "angle_table covers the segments");

/// A polygon of the drawn disc: its vertices and the static pressure at each.
pub type DrawnPolygon = (Vec<Point3>, Vec<f64>);

/// A compliant sphere (the primary, centred at its origin) and a rigid half space, in the
/// sphere's frame.
#[derive(Clone, Copy, Debug)]
pub struct SpherePlane {
    radius: f64,
    modulus: f64,
    /// The plane's unit normal, out of the half space into the sphere.
    n: Vector3,
    /// The sphere centre's height above the plane (negative below it).
    h: f64,
}

impl SpherePlane {
    /// The pair as a sphere with an analytic field on a rigid half space; `None` for any other
    /// pair (or a sphere meshed on purpose, [`super::PfBody::with_meshed_field`]).
    pub fn new(pair: &PairFrame) -> Option<SpherePlane> {
        let PairKind::MeshRigidHalfSpace(mesh) = pair.kind else { return None };
        let radius = mesh.analytic_sphere?;
        let modulus = pair.primary.body.modulus?;
        let plane = pair.secondary_plane();
        Some(SpherePlane { radius, modulus, n: plane.normal, h: -plane.offset })
    }

    /// Whether the plane cuts the sphere (a disc of positive radius).
    fn touching(&self) -> bool {
        self.h.abs() < self.radius
    }

    /// The disc's centre (the centre's foot on the plane) and radius.
    fn disc(&self) -> (Vector3, f64) {
        let c = self.h.abs();
        (-self.n * self.h, ((self.radius - c) * (self.radius + c)).sqrt())
    }

    /// The sums of the query (force, torque about the sphere's centre, elastic parts, area,
    /// power, and the derivatives `kin` asks for), in the sphere's frame: one polygon, the disc.
    pub fn accumulate(&self, kin: &Kinetics) -> Accumulator {
        let mut acc = Accumulator::default();
        if !self.touching() {
            return acc;
        }
        let (o, a) = self.disc();
        let n = self.n;
        let (e1, e2) = plane_basis(&n, &kin.reference);
        // The relative velocity in (e1, e2, n) components: v0 at the disc's centre, changing by
        // vs per unit s and vt per unit t.
        let local = |v: Vector3| Vector3::new(v.dot(&e1), v.dot(&e2), v.dot(&n));
        let v0 = local(kin.u + kin.w.cross(&o));
        let (vs, vt) = (local(kin.w.cross(&e1)), local(kin.w.cross(&e2)));
        let orders = self.orders(kin, (&v0, &vs, &vt), a);
        let derivatives = kin.jacobian || kin.stiffness;
        // One pass over a rule of `orders` (angles: exact to trigonometric degree 2 for the
        // wrench, 4 for derivatives, 2 more per order), adding derivatives to `acc` when asked;
        // the sums in plane components about o: force, torque, power, ∫p0 dA, ∫(s, t)·p0 dA.
        let sweep = |orders: usize, derivatives: bool, acc: &mut Accumulator| {
            let (nodes, weights) = gauss_legendre(3 + orders);
            let angles = if derivatives { 5 } else { 3 } + 2 * orders;
            let table = angle_table(angles);
            // Each radial node's r, ρ, p0 and weight (area per point): r, R − r and
            // ρ² = (r − |h|)(r + |h|) without cancellation.
            let (r_mid, r_half) = ((self.radius + self.h.abs()) * 0.5, (self.radius - self.h.abs()) * 0.5);
            let (per_radius, per_angle) = (self.modulus / self.radius, 2.0 * PI / angles as f64);
            let rings: Rings = nodes
                .iter()
                .zip(weights)
                .map(|(xi, wi)| {
                    let r = r_mid + r_half * xi;
                    let rho = (r_half * (1.0 + xi) * (r + self.h.abs())).sqrt();
                    (r, rho, per_radius * (r_half * (1.0 - xi)), wi * r_half * r * per_angle)
                })
                .collect();
            let mut sums = PlaneSums::default();
            // ∫∇p0 dA and ∫∇p0·xᵀ dA, for the elastic stiffness.
            let (mut g0, mut g1) = (Vector3::zeros(), Matrix3::zeros());
            for &(cos, sin) in table {
                for &(r, rho, q0, weight) in &rings {
                    let (s, t) = (rho * cos, rho * sin);
                    sums.add(s, t, q0, &(v0 + vs * s + vt * t), weight, kin);
                    if derivatives {
                        let x = Point3::from(o + e1 * s + e2 * t);
                        let gradient = x.coords * (-per_radius / r);
                        add_point_derivatives(&x, weight, (q0, &gradient), &n, kin, acc);
                        if kin.stiffness {
                            g0 += gradient * weight;
                            g1 += gradient * (x.coords * weight).transpose();
                        }
                    }
                }
            }
            if derivatives && kin.stiffness {
                add_radial_elastic(&mut acc.stiffness, &n, &g0, &g1);
            }
            sums
        };
        // Derivatives past MAX_DERIVATIVE_ORDERS from a smaller rule of their own (a fast spin:
        // not exact either way, and a point's derivatives cost forty times its traction).
        let PlaneSums { force, torque, power, int_p, int_s, int_t } =
            if derivatives && orders > MAX_DERIVATIVE_ORDERS {
                sweep(MAX_DERIVATIVE_ORDERS, true, &mut acc);
                sweep(orders, false, &mut acc)
            } else {
                sweep(orders, derivatives, &mut acc)
            };
        let world = |v: &Vector3| e1 * v.x + e2 * v.y + n * v.z;
        let force = world(&force);
        acc.force = force;
        acc.torque = o.cross(&force) + world(&torque);
        acc.elastic_force = n * int_p;
        acc.elastic_torque = o.cross(&acc.elastic_force) + (e1 * int_s + e2 * int_t).cross(&n);
        acc.area = PI * a * a;
        // The faces reported are the polygons drawn for the disc (`polygons`).
        acc.polygons = RINGS * SEGMENTS;
        acc.dissipation_power = power;
        acc
    }

    /// How many orders of the friction factor's Taylor series the rule must integrate (module
    /// docs); the most where the Hunt–Crossley factor changes sign inside the disc.
    fn orders(&self, kin: &Kinetics, (v0, vs, vt): (&Vector3, &Vector3, &Vector3), a: f64) -> usize {
        let d = kin.dissipation;
        // v_n over the disc: v0.z ± a·|(vs.z, vt.z)|.
        let spread = a * vs.z.hypot(vt.z);
        if d > 0.0 && d * (v0.z + spread) > 1.0 && d * (v0.z - spread) < 1.0 {
            return MAX_ORDERS;
        }
        if kin.friction == 0.0 {
            return 0;
        }
        // ω_n a: the slip's change across the disc (vs = (0, ω_n, ·), vt = (−ω_n, 0, ·)).
        let turn = vs.y.abs() * a;
        let slip = v0.x.hypot(v0.y);
        let delta =
            (2.0 * turn * slip + turn * turn) / (slip * slip + kin.stiction_speed * kin.stiction_speed);
        if delta <= ROUND_OFF {
            0
        } else if delta >= MAX_DELTA {
            MAX_ORDERS
        } else {
            ((ROUND_OFF.ln() / delta.ln()).ceil() as usize).saturating_sub(1).min(MAX_ORDERS)
        }
    }

    /// The elastic energy U = ∫ p0 dV over the sphere's part inside the half space (J), exact:
    /// by shells of radius r, whose part beyond the plane has area 2πr(r − h) (the whole 4πr²
    /// inside a centre below the plane).
    pub fn energy(&self) -> f64 {
        let (radius, h, e) = (self.radius, self.h, self.modulus);
        if h >= radius {
            return 0.0;
        }
        if h >= 0.0 {
            // With d = R − h, without cancellation at small depths: π·E·d³·(2R − d)/(6R).
            let d = radius - h;
            return PI * e * d.powi(3) * (2.0 * radius - d) / (6.0 * radius);
        }
        let c = (-h).min(radius);
        // ∫ (1 − r/R)·4πr² dr over [0, c], and ∫ (1 − r/R)·2πr(r − h) dr over [c, R].
        let inner = |r: f64| 4.0 * PI * (r.powi(3) / 3.0 - r.powi(4) / (4.0 * radius));
        let outer = |r: f64| {
            2.0 * PI
                * (r.powi(3) / 3.0 - h * r * r / 2.0 - r.powi(4) / (4.0 * radius)
                    + h * r.powi(3) / (3.0 * radius))
        };
        e * (inner(c) + outer(radius) - outer(c))
    }

    /// The penetration depth (m): the deepest static pressure over the gradient's size,
    /// R − |h| (the sphere's depth below the plane while its centre is above it).
    pub fn penetration(&self) -> f64 {
        if self.touching() { self.radius - self.h.abs() } else { 0.0 }
    }

    /// The disc drawn as polygons for output (sphere's frame): a fan of triangles about the
    /// centre and rings of quadrilaterals, [`RINGS`] × [`SEGMENTS`], with the exact static
    /// pressure at each vertex; and the normal (out of the half space).
    pub fn polygons(&self) -> (Vec<DrawnPolygon>, Vector3) {
        let mut out = Vec::new();
        if !self.touching() {
            return (out, self.n);
        }
        let (o, a) = self.disc();
        let (e1, e2) = plane_basis(&self.n, &Vector3::new(1.0, 2.0, 3.0));
        // The rings' points (the centre's ring of one) and their pressures.
        let grid: Vec<Vec<(Point3, f64)>> = (0..=RINGS)
            .map(|ring| {
                let rho = a * ring as f64 / RINGS as f64;
                let pressure = self.modulus * (1.0 - (self.h * self.h + rho * rho).sqrt() / self.radius);
                angle_table(SEGMENTS)[..if ring == 0 { 1 } else { SEGMENTS }]
                    .iter()
                    .map(|(cos, sin)| (Point3::from(o + (e1 * *cos + e2 * *sin) * rho), pressure.max(0.0)))
                    .collect()
            })
            .collect();
        let point = |ring: usize, k: usize| grid[ring][if ring == 0 { 0 } else { k % SEGMENTS }];
        for ring in 0..RINGS {
            for k in 0..SEGMENTS {
                let corners = if ring == 0 {
                    vec![point(0, 0), point(1, k), point(1, k + 1)]
                } else {
                    vec![point(ring, k), point(ring + 1, k), point(ring + 1, k + 1), point(ring, k + 1)]
                };
                out.push(corners.into_iter().unzip());
            }
        }
        (out, self.n)
    }
}

/// (cos, sin) of 2πj/3 and of 2πj/5.
const ANGLES_3: [(f64, f64); 3] = [(1.0, 0.0), (-0.5, 0.8660254037844386), (-0.5, -0.8660254037844386)];
const ANGLES_5: [(f64, f64); 5] = [
    (1.0, 0.0),
    (0.30901699437494745, 0.9510565162951535),
    (-0.8090169943749473, 0.5877852522924732),
    (-0.8090169943749473, -0.5877852522924732),
    (0.30901699437494745, -0.9510565162951535),
];

/// (cos, sin) of 2πj/`angles`, j = 0 … angles − 1, for the angle counts the rules use (odd,
/// 3 to 5 + 2·[`MAX_ORDERS`], and [`SEGMENTS`]), computed once.
fn angle_table(angles: usize) -> &'static [(f64, f64)] {
    static TABLES: std::sync::OnceLock<Vec<Vec<(f64, f64)>>> = std::sync::OnceLock::new();
    let tables = TABLES.get_or_init(|| {
        (0..=5 + 2 * MAX_ORDERS)
            .map(|m| match m {
                3 => ANGLES_3.to_vec(),
                5 => ANGLES_5.to_vec(),
                _ => (0..m)
                    .map(|j| {
                        let (sin, cos) = (2.0 * PI * j as f64 / m as f64).sin_cos();
                        (cos, sin)
                    })
                    .collect(),
            })
            .collect()
    });
    &tables[angles]
}

/// Each radial node's (r, ρ, p0, weight) for one query.
type Rings = smallvec::SmallVec<[(f64, f64, f64, f64); 3 + MAX_ORDERS]>;

/// Gauss–Legendre nodes and weights on [−1, 1] with `count` points (3 ≤ count ≤ 3 +
/// [`MAX_ORDERS`]; exact for polynomials of degree < 2·count), computed once.
fn gauss_legendre(count: usize) -> (&'static [f64], &'static [f64]) {
    static RULES: std::sync::OnceLock<Vec<(Vec<f64>, Vec<f64>)>> = std::sync::OnceLock::new();
    let rules = RULES.get_or_init(|| (0..=3 + MAX_ORDERS).map(gauss_legendre_rule).collect());
    let (nodes, weights) = &rules[count];
    (nodes, weights)
}

/// Gauss–Legendre nodes and weights on [−1, 1] with `count` points, by Newton's method on
/// P_count from Tricomi's estimates of its roots.
fn gauss_legendre_rule(count: usize) -> (Vec<f64>, Vec<f64>) {
    let mut nodes = vec![0.0; count];
    let mut weights = vec![0.0; count];
    let m = count as f64;
    for i in 0..count.div_ceil(2) {
        let mut x = (PI * (i as f64 + 0.75) / (m + 0.5)).cos();
        let mut derivative = 1.0;
        for _ in 0..100 {
            let (mut p0, mut p1) = (1.0, x);
            for k in 2..=count {
                let k = k as f64;
                (p0, p1) = (p1, ((2.0 * k - 1.0) * x * p1 - (k - 1.0) * p0) / k);
            }
            derivative = m * (x * p1 - p0) / (x * x - 1.0);
            let step = p1 / derivative;
            x -= step;
            if step.abs() <= 1e-16 {
                break;
            }
        }
        let w = 2.0 / ((1.0 - x * x) * derivative * derivative);
        nodes[i] = -x;
        nodes[count - 1 - i] = x;
        weights[i] = w;
        weights[count - 1 - i] = w;
    }
    (nodes, weights)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gauss_legendre_integrates_polynomials_to_their_degree() {
        for count in [2, 3, 5, 8, 17, 32] {
            let (x, w) = gauss_legendre_rule(count);
            for degree in 0..2 * count {
                let sum: f64 = x.iter().zip(&w).map(|(x, w)| w * x.powi(degree as i32)).sum();
                let exact = if degree % 2 == 1 { 0.0 } else { 2.0 / (degree as f64 + 1.0) };
                assert!((sum - exact).abs() < 1e-14, "{count} points, degree {degree}: {sum} vs {exact}");
            }
        }
    }
}
