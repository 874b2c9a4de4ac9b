//! The Modia3D (Hertz point contact) force law against closed forms: reg(), static Hertz,
//! restitution of the Flores-type damping, friction and rolling resistance, materials.

use contactlab::contact::hertz::contact_geometry::{ContactShapeKind, ContactSphere, mu_r_geo};
use contactlab::contact::hertz::force_law::{
    ContactLaw, DEFAULT_MAX_DAMPING, ForceLawError, contact_response, damping, reg,
};
use contactlab::contact::hertz::material::{Material, MaterialError, PairMaterial, Palette};
use contactlab::math::Vector3;

fn rel(a: f64, b: f64) -> f64 {
    (a - b).abs() / b.abs()
}

fn steel() -> Material {
    Palette::builtin().solid("Steel").unwrap()
}

fn pair(cor: f64) -> PairMaterial {
    PairMaterial {
        restitution: cor,
        sliding_friction: 0.5,
        rolling_resistance: 0.001,
        v_small: 0.01,
        w_small: 0.01,
    }
}

const BOX: ContactShapeKind = ContactShapeKind::Box { lengths: [1.0, 1.0, 0.1] };
const BALL_R: f64 = 0.01;
const BALL: ContactShapeKind = ContactShapeKind::Sphere { diameter: 2.0 * BALL_R };

// ---------------------------------------------------------------- reg()

#[test]
fn reg_is_identity_above_v_small_and_v_small_over_3_at_zero() {
    let vs = 0.1;
    for v in [0.1, 0.1000001, 0.5, 3.0, 1e6] {
        assert_eq!(reg(v, vs), v);
    }
    assert!((reg(0.0, vs) - vs / 3.0).abs() < 1e-15);
    // Minimum at 0, increasing and ≥ v on [0, v_small].
    let mut prev = reg(0.0, vs);
    for i in 1..=1000 {
        let v = vs * i as f64 / 1000.0;
        let r = reg(v, vs);
        assert!(r > prev && r >= v - 1e-15, "v = {v}");
        prev = r;
    }
}

#[test]
fn reg_is_c2_at_v_small() {
    let vs = 0.1;
    // Left-side differences at v_small must tend to the identity's value 1 (slope) and 0
    // (curvature) linearly in h; a kink or a curvature jump would leave a constant offset.
    let slope_err = |h: f64| ((reg(vs, vs) - reg(vs - h, vs)) / h - 1.0).abs();
    let curv = |h: f64| ((reg(vs, vs) - 2.0 * reg(vs - h, vs) + reg(vs - 2.0 * h, vs)) / (h * h)).abs();
    assert!((reg(vs - 1e-9, vs) - vs).abs() < 2e-9, "continuous value");
    for h in [1e-3, 1e-4] {
        assert!(slope_err(h) < 2.0 * h / vs, "slope error {} at h = {h}", slope_err(h));
        assert!(curv(h) < 10.0 * h / (vs * vs), "curvature {} at h = {h}", curv(h));
    }
    assert!(slope_err(1e-4) < 0.2 * slope_err(1e-3));
    assert!(curv(1e-4) < 0.2 * curv(1e-3));
    // Right side is the identity: slope 1, curvature 0 exactly.
    let h = 1e-4;
    assert!(((reg(vs + h, vs) - reg(vs, vs)) / h - 1.0).abs() < 1e-9);
}

// ---------------------------------------------------------------- static Hertz

#[test]
fn static_hertz_sphere_on_box_matches_closed_form() {
    let palette = Palette::builtin();
    // Different materials so E* really combines two.
    let (m1, m2) = (palette.solid("DryWood").unwrap(), steel());
    let law = ContactLaw::new(&m1, &m2, &BOX, &BALL, pair(0.7), 1.0, DEFAULT_MAX_DAMPING).unwrap();
    let inv_e_star = (1.0 - m1.poissons_ratio.powi(2)) / m1.youngs_modulus
        + (1.0 - m2.poissons_ratio.powi(2)) / m2.youngs_modulus;
    let e_star = 1.0 / inv_e_star;
    assert!(rel(law.mu_r_geo, BALL_R) < 1e-15, "flat box → μ_r,geo = sphere radius");
    let e_n = Vector3::z();
    for delta in [1e-8, 1e-7, 1e-6, 1e-5, 1e-4] {
        let r = contact_response(&law, delta, 0.3, &e_n, &Vector3::zeros(), &Vector3::zeros(), 0.0).unwrap();
        let expected = 4.0 / 3.0 * e_star * BALL_R.sqrt() * delta.powf(1.5);
        assert!(rel(r.f_n, expected) < 1e-9, "δ = {delta}: {} vs {expected}", r.f_n);
        // The force on body 2 (the ball above the box) pushes it out along e_n.
        assert!(rel(r.force.z, expected) < 1e-9 && r.force.x == 0.0 && r.force.y == 0.0);
    }
}

#[test]
fn static_hertz_sphere_on_sphere_uses_reduced_radius_and_k_red_scales() {
    let (r1, r2) = (0.01, 0.03);
    let s1 = ContactShapeKind::Sphere { diameter: 2.0 * r1 };
    let s2 = ContactShapeKind::Sphere { diameter: 2.0 * r2 };
    let law = ContactLaw::new(&steel(), &steel(), &s1, &s2, pair(0.7), 1.0, 2000.0).unwrap();
    let reduced = ContactLaw::new(&steel(), &steel(), &s1, &s2, pair(0.7), 1e-4, 2000.0).unwrap();
    let e_star = 1.0 / (2.0 * (1.0 - 0.09) / 2.0e11);
    let r_eff = r1 * r2 / (r1 + r2);
    let delta: f64 = 2e-6;
    let expected = 4.0 / 3.0 * e_star * r_eff.sqrt() * delta.powf(1.5);
    assert!(rel(law.normal_force(delta, 0.0, 0.0), expected) < 1e-9);
    assert!(rel(reduced.normal_force(delta, 0.0, 0.0), 1e-4 * expected) < 1e-9);
    // Energy is the integral of the elastic force: check by its derivative.
    let h = 1e-10;
    let de = (law.elastic_energy(delta + h) - law.elastic_energy(delta - h)) / (2.0 * h);
    assert!(rel(de, expected) < 1e-6);
}

// ---------------------------------------------------------------- restitution

/// Exit/entry speed ratio the law implies, independent of stiffness, mass and speed.
///
/// With α = d·δ̇⁻ = 8(1 − cor)/(5·cor), u = δ̇/δ̇⁻ and s = δ/δ* (δ* scaling out K, m, δ̇⁻), the
/// impact ODE m·δ̈ = −K·δ^1.5·(1 + d·δ̇) becomes u·du/ds = −s^1.5·(1 + α·u), which separates:
/// G(u) = u/α − ln(1 + α·u)/α² changes by −s^2.5/2.5 along the motion, so at exit (s = 0 again)
/// G(−e) = G(1). G has its minimum at u = 0 and grows monotonically towards u = −1/α, so
/// bisection on e ∈ (0, min(1, 1/α)) finds the unique root. Valid while 1 + α·u stays > 0 (the
/// max(0, ·) clamp never acts), which holds for the root found.
fn implied_restitution(cor: f64) -> f64 {
    let alpha = 8.0 * (1.0 - cor) / (5.0 * cor);
    let g = |u: f64| u / alpha - (alpha * u).ln_1p() / (alpha * alpha);
    let target = g(1.0);
    let (mut lo, mut hi) = (0.0, (1.0 / alpha).min(1.0) * (1.0 - 1e-15));
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if g(-mid) < target { lo = mid } else { hi = mid }
    }
    0.5 * (lo + hi)
}

/// Drops body 2 (mass `m`) onto body 1 along e_n = +z at `v_in` and integrates
/// m·δ̈ = −f_n(δ, δ̇) with classic RK4 (`steps_per_tc` steps per Hertz time scale δ*/v_in) until
/// δ returns to 0; the crossing is located by bisection on the last step's length. Returns the
/// exit speed.
fn drop_exit_speed(law: &ContactLaw, m: f64, v_in: f64, d: f64, steps_per_tc: f64) -> f64 {
    let accel = |delta: f64, delta_dot: f64| {
        // Ball above box moving down: v_rel = v2 − v1 = −δ̇·e_n.
        let v_rel = Vector3::new(0.0, 0.0, -delta_dot);
        let r = contact_response(law, delta, delta_dot, &Vector3::z(), &v_rel, &Vector3::zeros(), d).unwrap();
        -r.force.z / m
    };
    let rk4 = |(x, v): (f64, f64), h: f64| {
        let (k1x, k1v) = (v, accel(x, v));
        let (k2x, k2v) = (v + 0.5 * h * k1v, accel(x + 0.5 * h * k1x, v + 0.5 * h * k1v));
        let (k3x, k3v) = (v + 0.5 * h * k2v, accel(x + 0.5 * h * k2x, v + 0.5 * h * k2v));
        let (k4x, k4v) = (v + h * k3v, accel(x + h * k3x, v + h * k3v));
        (x + h / 6.0 * (k1x + 2.0 * k2x + 2.0 * k3x + k4x), v + h / 6.0 * (k1v + 2.0 * k2v + 2.0 * k3v + k4v))
    };
    let k = law.k_red * law.c_res * law.c_geo;
    let delta_star = (m * v_in * v_in / k).powf(0.4);
    let h = delta_star / v_in / steps_per_tc;
    let mut state = (0.0, v_in);
    for _ in 0..(100.0 * steps_per_tc) as usize {
        let next = rk4(state, h);
        if next.0 < 0.0 {
            let (mut lo, mut hi) = (0.0, h);
            for _ in 0..100 {
                let mid = 0.5 * (lo + hi);
                if rk4(state, mid).0 > 0.0 { lo = mid } else { hi = mid }
            }
            return -rk4(state, 0.5 * (lo + hi)).1;
        }
        state = next;
    }
    panic!("ball did not leave the contact");
}

fn steel_ball_mass() -> f64 {
    7800.0 * 4.0 / 3.0 * std::f64::consts::PI * BALL_R.powi(3)
}

#[test]
fn restitution_of_steel_ball_on_steel_box_matches_derived_ratio() {
    let cor = 0.7;
    let law = ContactLaw::new(&steel(), &steel(), &BOX, &BALL, pair(cor), 1.0, 2000.0).unwrap();
    let v_in = 1.0;
    let d = law.damping_at_impact(v_in);
    assert!(rel(d, 8.0 * 0.3 / (5.0 * 0.7 * v_in)) < 1e-15, "d_max does not bind here");
    let m = steel_ball_mass();
    let expected = implied_restitution(cor);
    let ratio = drop_exit_speed(&law, m, v_in, d, 20_000.0) / v_in;
    let coarse = drop_exit_speed(&law, m, v_in, d, 5_000.0) / v_in;
    eprintln!("cor = {cor}: semi-analytic e = {expected:.9}, RK4 e = {ratio:.9} (coarse {coarse:.9})");
    // Derived value ≈ 0.683, visibly different from cor itself.
    assert!(rel(expected, 0.683) < 5e-3);
    assert!(rel(expected, cor) > 1e-2);
    assert!(rel(ratio, expected) < 5e-3);
    // Much tighter in fact, and the integration has converged.
    assert!(rel(ratio, expected) < 1e-6 && rel(coarse, ratio) < 1e-5);
    // The ratio is universal: another speed and a reduced stiffness give the same value.
    let soft = ContactLaw { k_red: 1e-4, ..law };
    let v2 = 0.3;
    let r2 = drop_exit_speed(&soft, m, v2, soft.damping_at_impact(v2), 20_000.0) / v2;
    assert!(rel(r2, expected) < 1e-6, "{r2} vs {expected}");
}

#[test]
fn implied_restitution_is_monotone_and_near_cor_for_hard_impacts() {
    let mut prev = 0.0;
    for cor in [0.1, 0.3, 0.5, 0.7, 0.9, 0.99] {
        let e = implied_restitution(cor);
        eprintln!("cor = {cor}: implied e = {e:.6}");
        assert!(e > prev && e < 1.0);
        prev = e;
    }
    assert!(rel(implied_restitution(0.99), 0.99) < 1e-3);
}

#[test]
fn restitution_one_loses_no_energy() {
    let law = ContactLaw::new(&steel(), &steel(), &BOX, &BALL, pair(1.0), 1.0, 2000.0).unwrap();
    let d = law.damping_at_impact(1.0);
    assert_eq!(d, 0.0);
    let exit = drop_exit_speed(&law, steel_ball_mass(), 1.0, d, 20_000.0);
    assert!((exit - 1.0).abs() < 1e-6, "exit speed {exit}");
}

#[test]
fn slow_impacts_switch_restitution_off() {
    let (vs, d_max) = (0.01, 2000.0);
    assert_eq!(damping(0.7, 0.005, vs, d_max), d_max);
    assert_eq!(damping(0.7, vs, vs, d_max), d_max, "|δ̇⁻| ≤ v_small → cor_cur = 0");
    assert_eq!(damping(0.7, 0.0, vs, d_max), d_max);
    assert_eq!(damping(0.0, 5.0, vs, d_max), d_max);
    let just_above = 0.010001;
    assert!(rel(damping(0.7, just_above, vs, d_max), 8.0 * 0.3 / (5.0 * 0.7 * just_above)) < 1e-15);
    // d_max caps small cor at moderate speed; a negative δ̇⁻ is taken by magnitude.
    assert_eq!(damping(1e-4, 1.0, vs, d_max), d_max);
    assert_eq!(damping(0.7, -1.0, vs, d_max), damping(0.7, 1.0, vs, d_max));
    assert_eq!(damping(f64::NAN, 1.0, vs, d_max), d_max);
    let law = ContactLaw::new(&steel(), &steel(), &BOX, &BALL, pair(0.7), 1.0, 123.0).unwrap();
    assert_eq!(law.damping_at_impact(0.002), 123.0);
}

#[test]
fn normal_force_never_pulls() {
    let law = ContactLaw::new(&steel(), &steel(), &BOX, &BALL, pair(0.7), 1.0, 2000.0).unwrap();
    let (z, e_n) = (Vector3::zeros(), Vector3::z());
    let slide = Vector3::new(1.0, 0.0, 0.0);
    // Fast separation: 1 + d·δ̇ < 0 → no force, and no friction or torque either.
    let r = contact_response(&law, 1e-6, -1.0, &e_n, &slide, &slide, 2.0).unwrap();
    assert_eq!((r.f_n, r.force, r.torque), (0.0, z, z));
    // Not penetrating.
    for delta in [0.0, -1e-20, -1.0] {
        let r = contact_response(&law, delta, 1.0, &e_n, &slide, &slide, 0.5).unwrap();
        assert_eq!((r.f_n, r.force, r.torque), (0.0, z, z));
    }
}

// ---------------------------------------------------------------- friction, rolling

/// Steel on steel with μ 0.4, μ_r 0.02, v_small 0.01 m/s and w_small 0.05 rad/s.
fn friction_law() -> ContactLaw {
    let p = PairMaterial {
        restitution: 0.7,
        sliding_friction: 0.4,
        rolling_resistance: 0.02,
        v_small: 0.01,
        w_small: 0.05,
    };
    ContactLaw::new(&steel(), &steel(), &BOX, &BALL, p, 1.0, 2000.0).unwrap()
}

#[test]
fn sliding_friction_opposes_slip_and_saturates_above_v_small() {
    let law = friction_law();
    let e_n = Vector3::new(1.0, 2.0, 2.0) / 3.0;
    let t = Vector3::new(2.0, -2.0, 1.0) / 3.0; // ⟂ e_n, unit
    let (delta, ddot, d) = (3e-6, 0.1, 0.5);
    let f_n = law.normal_force(delta, ddot, d);
    assert!(f_n > 0.0);
    for speed in [0.0, 1e-4, 0.003, 0.0099, 0.01, 0.02, 5.0] {
        // A normal component of v_rel must not change the friction.
        let v_rel = speed * t - 0.7 * e_n;
        let r = contact_response(&law, delta, ddot, &e_n, &v_rel, &Vector3::zeros(), d).unwrap();
        assert!(rel(r.f_n, f_n) < 1e-15);
        assert!(rel(r.force.dot(&e_n), f_n) < 1e-12);
        let f_t = r.force - r.force.dot(&e_n) * e_n;
        let expected = 0.4 * f_n * speed / reg(speed, 0.01);
        assert!((f_t.norm() - expected).abs() <= 1e-12 * f_n, "speed {speed}");
        assert!(f_t.norm() <= 0.4 * f_n * (1.0 + 1e-15));
        if speed > 0.0 {
            assert!(rel(f_t.dot(&t), -f_t.norm()) < 1e-12, "opposes slip");
        }
        if speed >= 0.01 {
            assert!(rel(f_t.norm(), 0.4 * f_n) < 1e-12);
        } else {
            assert!(f_t.norm() < 0.4 * f_n);
        }
    }
}

#[test]
fn rolling_torque_opposes_relative_spin_and_saturates_above_w_small() {
    let law = friction_law();
    let axis = Vector3::new(0.0, 0.6, -0.8);
    let (delta, e_n) = (5e-6, Vector3::z());
    let f_n = law.normal_force(delta, 0.0, 0.0);
    for w in [0.0, 0.01, 0.049, 0.05, 0.5, 40.0] {
        let r = contact_response(&law, delta, 0.0, &e_n, &Vector3::zeros(), &(w * axis), 0.0).unwrap();
        let cap = 0.02 * BALL_R * f_n;
        let expected = cap * w / reg(w, 0.05);
        assert!((r.torque.norm() - expected).abs() <= 1e-12 * cap, "w {w}");
        if w > 0.0 {
            assert!(rel(r.torque.dot(&axis), -r.torque.norm()) < 1e-12, "opposes spin");
        }
        if w >= 0.05 {
            assert!(rel(r.torque.norm(), cap) < 1e-12);
        }
    }
}

// ---------------------------------------------------------------- geometry table

#[test]
fn contact_sphere_table() {
    use ContactShapeKind as K;
    let cases = [
        (K::Sphere { diameter: 0.2 }, 0.1, false),
        (K::Ellipsoid { lengths: [0.3, 0.1, 0.2] }, 0.05, false),
        (K::Box { lengths: [0.3, 0.4, 0.2] }, 0.1, true),
        (K::Cylinder { diameter: 0.2, length: 0.1 }, 0.05, false),
        (K::Cone { diameter: 0.2, top_diameter: 0.1 }, 0.075, false),
        (K::Capsule { diameter: 0.3 }, 0.15, false),
        (K::Beam { length: 1.0, width: 0.1, thickness: 0.02 }, 0.01, true),
        (K::Mesh { shortest_edge: 0.004 }, 0.002, false),
    ];
    for (shape, r, flat) in cases {
        assert!(rel(shape.contact_radius(), r) < 1e-15, "{shape:?}");
        assert_eq!(shape.is_flat(), flat, "{shape:?}");
        assert!(shape.contact_sphere().is_ok());
    }
    let sph = |r, flat| ContactSphere::new(r, flat).unwrap();
    assert!(rel(mu_r_geo(&sph(0.1, false), &sph(0.3, false)), 0.075) < 1e-15);
    assert_eq!(mu_r_geo(&sph(0.1, false), &sph(0.3, true)), 0.1);
    assert_eq!(mu_r_geo(&sph(0.1, true), &sph(0.3, false)), 0.3);
    assert!(rel(mu_r_geo(&sph(0.1, true), &sph(0.3, true)), 0.075) < 1e-15);
    // Bad lengths are errors, not NaN radii.
    assert!(K::Sphere { diameter: -1.0 }.contact_sphere().is_err());
    assert!(K::Box { lengths: [1.0, f64::NAN, 1.0] }.contact_sphere().is_err());
    assert!(K::Cone { diameter: 0.1, top_diameter: 0.0 }.contact_sphere().is_ok());
    assert!(K::Cone { diameter: 0.1, top_diameter: -0.1 }.contact_sphere().is_err());
    assert!(ContactSphere::new(0.0, false).is_err());
}

// ---------------------------------------------------------------- materials and errors

#[test]
fn palette_names_pairs_and_fallback() {
    let p = Palette::builtin();
    for name in ["Steel", "DryWood", "BilliardBall", "BilliardTable", "BilliardCushion"] {
        assert!(p.solid(name).is_ok(), "{name}");
        assert!(p.pair(name, name).is_ok(), "self-pair {name}");
    }
    assert_eq!(steel(), Material { youngs_modulus: 2.0e11, poissons_ratio: 0.3 });
    let err = p.solid("Stel").unwrap_err();
    let msg = err.to_string();
    assert!(matches!(err, MaterialError::UnknownSolid { .. }));
    for name in ["Steel", "DryWood", "BilliardBall", "BilliardTable", "BilliardCushion"] {
        assert!(msg.contains(name), "{msg}");
    }
    assert!(!msg.contains("did you mean"), "{msg}");
    // The name in another case: still an error (names are exact), with the one meant.
    let msg = p.solid("steel").unwrap_err().to_string();
    assert!(msg.contains("did you mean `Steel`?"), "{msg}");
    let msg = p.solid("DRYWOOD").unwrap_err().to_string();
    assert!(msg.contains("did you mean `DryWood`?"), "{msg}");
    let ss = p.pair("Steel", "Steel").unwrap();
    assert_eq!((ss.restitution, ss.sliding_friction, ss.rolling_resistance), (0.7, 0.5, 0.001));
    // Symmetric.
    assert_eq!(p.pair("BilliardBall", "BilliardTable"), p.pair("BilliardTable", "BilliardBall"));
    // Fallback: Steel–BilliardBall is not listed.
    let bb = p.pair("BilliardBall", "BilliardBall").unwrap();
    let mixed = p.pair("Steel", "BilliardBall").unwrap();
    assert_eq!(mixed, p.pair("BilliardBall", "Steel").unwrap());
    assert!(rel(mixed.restitution, 0.5 * (ss.restitution + bb.restitution)) < 1e-15);
    assert!(rel(mixed.sliding_friction, 0.5 * (ss.sliding_friction + bb.sliding_friction)) < 1e-15);
    assert!(rel(mixed.rolling_resistance, 0.5 * (ss.rolling_resistance + bb.rolling_resistance)) < 1e-15);
    // A listed pair wins over the mean.
    let listed = p.pair("BilliardBall", "BilliardTable").unwrap();
    assert_ne!(listed, bb.mean(&p.pair("BilliardTable", "BilliardTable").unwrap()));
}

#[test]
fn scene_materials_and_missing_self_pair() {
    let mut p = Palette::builtin();
    let rubber = Material { youngs_modulus: 5e6, poissons_ratio: 0.49 };
    assert_eq!(p.add_solid("Rubber", rubber), Ok(None));
    assert_eq!(p.solid("Rubber"), Ok(rubber));
    let err = p.pair("Rubber", "Steel").unwrap_err();
    assert!(matches!(&err, MaterialError::MissingPair { missing, .. } if missing == "Rubber"));
    assert!(err.to_string().contains("(`Rubber`, `Rubber`)"), "{err}");
    p.add_pair("Rubber", "Rubber", pair(0.3)).unwrap();
    assert!(p.pair("Steel", "Rubber").is_ok());
    p.add_pair("Steel", "Rubber", pair(0.4)).unwrap();
    assert_eq!(p.pair("Rubber", "Steel").unwrap().restitution, 0.4);
    // Invalid values are rejected with the key named.
    let bad = |e, nu| Material { youngs_modulus: e, poissons_ratio: nu }.validate().unwrap_err().to_string();
    assert!(bad(-1.0, 0.3).contains("youngs_modulus"));
    assert!(bad(1e9, 1.0).contains("poissons_ratio"));
    assert!(bad(1e9, 0.0).contains("poissons_ratio"));
    assert!(bad(f64::INFINITY, 0.3).contains("youngs_modulus"));
    assert!(Material { youngs_modulus: 1e9, poissons_ratio: 0.7 }.validate().is_ok(), "paper: 0 < ν < 1");
    for (key, m) in [
        ("restitution", PairMaterial { restitution: 1.1, ..pair(0.5) }),
        ("sliding_friction", PairMaterial { sliding_friction: -0.1, ..pair(0.5) }),
        ("rolling_resistance", PairMaterial { rolling_resistance: f64::NAN, ..pair(0.5) }),
        ("v_small", PairMaterial { v_small: 0.0, ..pair(0.5) }),
        ("w_small", PairMaterial { w_small: -1.0, ..pair(0.5) }),
    ] {
        let msg = p.add_pair("A", "B", m).unwrap_err().to_string();
        assert!(msg.contains(key), "{msg}");
    }
    assert_eq!(p.add_solid("", rubber), Err(MaterialError::EmptyName));
}

#[test]
fn bad_law_inputs_are_errors_not_panics() {
    let s = steel();
    let ok = |k_red, d_max| ContactLaw::new(&s, &s, &BOX, &BALL, pair(0.7), k_red, d_max);
    assert!(matches!(ok(0.0, 2000.0), Err(ForceLawError::OutOfRange { key: "k_red", .. })));
    assert!(matches!(ok(1.0, -1.0), Err(ForceLawError::OutOfRange { key: "d_max", .. })));
    assert!(matches!(ok(1.0, f64::NAN), Err(ForceLawError::OutOfRange { key: "d_max", .. })));
    let bad_shape = ContactShapeKind::Capsule { diameter: 0.0 };
    assert!(matches!(
        ContactLaw::new(&s, &s, &bad_shape, &BALL, pair(0.7), 1.0, 2000.0),
        Err(ForceLawError::Geometry(_))
    ));
    let law = ok(1.0, 2000.0).unwrap();
    let (z, e) = (Vector3::zeros(), Vector3::z());
    assert!(matches!(
        contact_response(&law, 1e-6, 0.0, &(2.0 * e), &z, &z, 0.0),
        Err(ForceLawError::NormalNotUnit(_))
    ));
    assert!(matches!(
        contact_response(&law, 1e-6, 0.0, &z, &z, &z, 0.0),
        Err(ForceLawError::NormalNotUnit(_))
    ));
    assert!(matches!(
        contact_response(&law, f64::NAN, 0.0, &e, &z, &z, 0.0),
        Err(ForceLawError::NotFinite("delta"))
    ));
    let nan = Vector3::new(f64::NAN, 0.0, 0.0);
    assert!(matches!(
        contact_response(&law, 1e-6, 0.0, &e, &nan, &z, 0.0),
        Err(ForceLawError::NotFinite("v_rel"))
    ));
    assert!(matches!(
        contact_response(&law, 1e-6, 0.0, &e, &z, &nan, 0.0),
        Err(ForceLawError::NotFinite("w_rel"))
    ));
    assert!(matches!(
        contact_response(&law, 1e-6, 0.0, &e, &z, &z, -1.0),
        Err(ForceLawError::OutOfRange { key: "d", .. })
    ));
}
