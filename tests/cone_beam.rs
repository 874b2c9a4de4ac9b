//! Cones (frustums) and beams: mass properties against fine hull meshes, and both contact
//! models accept them: pressure_field (rigid in a compliant half space, compliant on a rigid
//! one) and hertz (on a box), each against its closed form.

use contactlab::commands::contact::query;
use contactlab::geometry::mass_properties::MassProperties;
use contactlab::geometry::{Shape, mesher};
use contactlab::math::Vector3;
use contactlab::scene::parse_scene;
use std::f64::consts::PI;
use std::path::Path;

fn compare(shape: Shape, tol: f64) {
    let exact = MassProperties::of_shape(&shape).unwrap();
    let mesh = mesher::surface_mesh(&shape, Some(0.0005)).unwrap();
    let approx = MassProperties::of_surface_mesh(&mesh).unwrap();
    let rel = |a: f64, b: f64| (a - b).abs() / b.abs().max(1e-12);
    assert!(
        rel(approx.volume, exact.volume) < tol,
        "{shape:?}: volume {} vs {}",
        approx.volume,
        exact.volume
    );
    assert!((approx.centroid - exact.centroid).norm() < tol * 0.1, "{shape:?}: centroid");
    for k in 0..3 {
        let (a, e) = (approx.unit_inertia[(k, k)], exact.unit_inertia[(k, k)]);
        assert!(rel(a, e) < 2.0 * tol, "{shape:?}: inertia {k}: {a} vs {e}");
    }
}

#[test]
fn cone_frustum_and_beam_mass_properties_match_their_meshes() {
    // Closed forms: a cone's volume πr²h/3 with its centroid at h/4.
    let cone = MassProperties::of_shape(&Shape::Cone { radius: 0.05, top_radius: 0.0, length: 0.1 }).unwrap();
    assert!((cone.volume - std::f64::consts::PI * 0.0025 * 0.1 / 3.0).abs() < 1e-15);
    assert!((cone.centroid.z - 0.025).abs() < 1e-15);
    // I_zz of a cone = (3/10)·m·r² per unit density.
    assert!((cone.unit_inertia[(2, 2)] - 0.3 * cone.volume * 0.0025).abs() < 1e-15);
    compare(Shape::Cone { radius: 0.05, top_radius: 0.0, length: 0.1 }, 2e-3);
    compare(Shape::Cone { radius: 0.05, top_radius: 0.02, length: 0.08 }, 2e-3);
    compare(Shape::Beam { length: 0.2, width: 0.04, thickness: 0.02 }, 2e-3);
}

// ---------------------------------------------------------------------------------------------
// The contact models, through the scene keys (`cone`, `beam`) as `contactlab contact` evaluates
// them at the initial state.

/// Hydroelastic modulus (Pa) and slab thickness (m) of the pressure-field half spaces.
const E: f64 = 1e6;
const SLAB: f64 = 0.1;

/// The one contact of a scene whose body 0 is the cone or beam: the force and torque (about the
/// world origin) on body 0, and the pair's elastic energy.
fn contact_on_first(text: &str) -> (Vector3, Vector3, f64) {
    let scene = parse_scene(text, Path::new(".")).expect("valid scene");
    let model = contactlab::scene::contact_model(&scene, false).expect("the model accepts the scene");
    let poses: Vec<_> = scene.bodies.iter().map(|b| (b.pose, b.twist)).collect();
    let pairs = model.candidate_pairs(&poses);
    let found = query(&model, &poses, &pairs).expect("the pairs evaluate");
    let contacts: Vec<_> = found.into_iter().flatten().collect();
    assert_eq!(contacts.len(), 1, "one contacting pair expected in\n{text}");
    let c = &contacts[0];
    let energy = model.energy(c, &poses).expect("the energy evaluates");
    let sign = if c.a == 0 { 1.0 } else { -1.0 };
    assert_eq!(if c.a == 0 { c.b } else { c.a }, 1);
    (c.wrench.force * sign, c.wrench.torque * sign, energy)
}

/// A `[[body]]` table: `shape` and `contact` are the inline tables' contents.
fn body(name: &str, shape: &str, position: [f64; 3], orientation: [f64; 4], contact: &str) -> String {
    format!(
        "[[body]]\nname = \"{name}\"\nmass = 1.0\nposition = {position:?}\norientation = {orientation:?}\n\
         shape = {{ {shape} }}\ncontact = {{ {contact} }}\n"
    )
}

fn yaw(angle: f64) -> [f64; 4] {
    [(angle / 2.0).cos(), 0.0, 0.0, (angle / 2.0).sin()]
}

/// Upside down: a half turn about x (the body's +z points down).
const FLIPPED: [f64; 4] = [0.0, 1.0, 0.0, 0.0];

/// ∫₀^d f by Simpson's rule, exact for cubics.
fn simpson(d: f64, f: impl Fn(f64) -> f64) -> f64 {
    d / 6.0 * (f(0.0) + 4.0 * f(d / 2.0) + f(d))
}

fn assert_near(what: &str, got: &Vector3, want: &Vector3, scale: f64, tol: f64) {
    let err = (got - want).norm() / scale;
    eprintln!("{what}: {got:?} vs {want:?} (rel {err:.1e})");
    assert!(err < tol, "{what}: {got:?} vs {want:?}, off by {err:.2e} of {scale}");
}

fn assert_close(what: &str, got: f64, want: f64, tol: f64) {
    let err = (got - want).abs() / want.abs();
    eprintln!("{what}: {got} vs {want} (rel {err:.1e})");
    assert!(err < tol, "{what}: {got} vs {want}, off by {err:.2e}");
}

/// A rigid body in a compliant half space (p = E·depth/slab) feels buoyancy: F = (E/slab)·V up,
/// V the submerged volume, through the submerged volume's centroid (on the axis of an upright
/// cone, at the middle of a flat beam), and U = (E/slab)·∫depth dV. The rigid surfaces are hulls
/// of rings of points 1 mm apart, inside the exact shapes by < (2π/n)²/6 of a section's area
/// (n ≥ 126 points on the smallest ring here: 4e-4).
#[test]
fn rigid_cones_and_beams_in_a_compliant_half_space_are_buoyant() {
    let pool = format!(
        "[model]\nkind = \"pressure_field\"\n[[body]]\nname = \"pool\"\nfixed = true\n\
         shape = {{ type = \"halfspace\" }}\n\
         contact = {{ compliance = \"compliant\", hydroelastic_modulus = {E:e}, slab_thickness = {SLAB} }}\n"
    );
    let rigid = "compliance = \"rigid\", resolution = 0.001";
    // (base radius, top radius, length, upside down, depth, axis x, axis y)
    let cones = [
        (0.05, 0.0, 0.1, false, 0.01, 0.02, -0.01),
        (0.05, 0.02, 0.08, false, 0.02, -0.03, 0.01),
        (0.05, 0.0, 0.1, true, 0.03, 0.01, 0.02),
        (0.05, 0.02, 0.08, true, 0.02, 0.0, 0.0),
    ];
    for (r, rt, l, flipped, d, x, y) in cones {
        let shape = format!("type = \"cone\", radius = {r}, top_radius = {rt}, length = {l}");
        // Base down: the base at −d; upside down: the top at −d.
        let (z, q) = if flipped { (l - d, FLIPPED) } else { (-d, [1.0, 0.0, 0.0, 0.0]) };
        let text = format!("{}{pool}", body("cone", &shape, [x, y, z], q, rigid));
        let (force, torque, energy) = contact_on_first(&text);
        // Section radius at height h above the submerged end.
        let radius = |h: f64| if flipped { rt + (r - rt) * h / l } else { r - (r - rt) * h / l };
        let volume = simpson(d, |h| PI * radius(h).powi(2));
        let moment = simpson(d, |h| (d - h) * PI * radius(h).powi(2));
        let f = E / SLAB * volume;
        let label = format!("cone {r}/{rt}/{l}, flipped {flipped}, {d} deep");
        assert_near(&format!("{label}: force"), &force, &Vector3::new(0.0, 0.0, f), f, 1e-3);
        assert_near(&format!("{label}: torque"), &torque, &Vector3::new(y * f, -x * f, 0.0), 0.05 * f, 1e-3);
        assert_close(&format!("{label}: energy"), energy, E / SLAB * moment, 1e-3);
    }
    // A flat beam, turned about z: its section is l·w + π(w/2)² at every depth.
    let (l, w, t, d, x, y) = (0.2, 0.04, 0.02, 0.005, 0.03, 0.02);
    let shape = format!("type = \"beam\", length = {l}, width = {w}, thickness = {t}");
    let text = format!("{}{pool}", body("beam", &shape, [x, y, t / 2.0 - d], yaw(0.4), rigid));
    let (force, torque, energy) = contact_on_first(&text);
    let section = l * w + PI * w * w / 4.0;
    let f = E / SLAB * section * d;
    assert_near("beam: force", &force, &Vector3::new(0.0, 0.0, f), f, 1e-3);
    assert_near("beam: torque", &torque, &Vector3::new(y * f, -x * f, 0.0), 0.05 * f, 1e-3);
    assert_close("beam: energy", energy, E / SLAB * section * d * d / 2.0, 1e-3);
}

/// A compliant hull's field is ε = 1 − γ, γ the gauge about its volume centroid c (linear on
/// each cone from a surface triangle to c), so on a rigid plane:
/// - a beam lying flat (a prism of section A, thickness t) pressed d deep: on the plane
///   ε = min(k, 1 − γ₂) with k = 2d/t and γ₂ the section's own gauge, whose level sets
///   {γ₂ ≤ s} have area A·s², so F = E·A·(k − k² + k³/3) and U = ∫F = E·A·(t/2)·(k²/2 − k³/3
///   + k⁴/12);
/// - a cone standing on its base pressed d deep (d < L/4, c at L/4): {γ ≤ s} meets the plane
///   in a disc of radius ρ(s) = R·(3s/4 + 1/4 − d/L) for s ≥ s₀ = 1 − 4d/L (ε = 1 − s₀ on the
///   whole disc ρ(s₀), the base's cone), so F = E·[(1 − s₀)·πρ(s₀)² + ∫ₛ₀¹ (1 − s)·2πρ·ρ′ ds],
///   a cubic in d.
///
/// The sections are regular polygons of n ≥ 32 (beam ends) and 158 (cone) sides, inside the
/// circles by (2π/n)²/6 of their area: 2e-4 of the beam's section, 3e-4 of the cone's.
#[test]
fn compliant_cones_and_beams_on_a_rigid_half_space_match_their_fields() {
    let ground = "[[body]]\nname = \"ground\"\nfixed = true\nshape = { type = \"halfspace\" }\n\
                  contact = { compliance = \"rigid\" }\n";
    let model = "[model]\nkind = \"pressure_field\"\n";
    let compliant = format!("compliance = \"compliant\", hydroelastic_modulus = {E:e}, resolution = 0.002");

    let (l, w, t, x, y) = (0.2, 0.04, 0.02, -0.02, 0.05);
    let section = l * w + PI * w * w / 4.0;
    let beam_force = |d: f64| {
        let k = 2.0 * d / t;
        E * section * (k - k * k + k.powi(3) / 3.0)
    };
    let shape = format!("type = \"beam\", length = {l}, width = {w}, thickness = {t}");
    let mut last = 0.0;
    for d in [0.002, 0.004, 0.008] {
        let text =
            format!("{model}{}{ground}", body("beam", &shape, [x, y, t / 2.0 - d], yaw(-0.7), &compliant));
        let (force, torque, energy) = contact_on_first(&text);
        let f = beam_force(d);
        let k = 2.0 * d / t;
        let u = E * section * t / 2.0 * (k * k / 2.0 - k.powi(3) / 3.0 + k.powi(4) / 12.0);
        assert_near(&format!("beam {d} deep: force"), &force, &Vector3::new(0.0, 0.0, f), f, 1e-3);
        // Point-symmetric about its axis: the pressure's centre is the beam's middle.
        assert_near(
            &format!("beam {d} deep: torque"),
            &torque,
            &Vector3::new(y * f, -x * f, 0.0),
            0.05 * f,
            1e-3,
        );
        assert_close(&format!("beam {d} deep: energy"), energy, u, 1e-3);
        assert!(force.z > last, "pressed deeper, the beam must be pushed harder");
        last = force.z;
    }

    let (r, l, x, y) = (0.05, 0.1, 0.03, -0.04);
    let cone_force = |d: f64| {
        let s0 = 1.0 - 4.0 * d / l;
        let rho = |s: f64| r * (0.75 * s + 0.25 - d / l);
        let side = simpson(1.0 - s0, |u| u * 2.0 * PI * rho(1.0 - u) * 0.75 * r);
        E * ((1.0 - s0) * PI * rho(s0).powi(2) + side)
    };
    let shape = format!("type = \"cone\", radius = {r}, length = {l}");
    for d in [0.005, 0.01, 0.02] {
        let text = format!("{model}{}{ground}", body("cone", &shape, [x, y, -d], yaw(0.2), &compliant));
        let (force, torque, energy) = contact_on_first(&text);
        let f = cone_force(d);
        assert_near(&format!("cone {d} deep: force"), &force, &Vector3::new(0.0, 0.0, f), f, 1e-3);
        assert_near(
            &format!("cone {d} deep: torque"),
            &torque,
            &Vector3::new(y * f, -x * f, 0.0),
            0.05 * f,
            1e-3,
        );
        assert_close(&format!("cone {d} deep: energy"), energy, simpson(d, cone_force), 1e-3);
    }
}

/// The Hertz model on a steel box (flat, contact radius half its smallest side): a cone's
/// contact sphere has radius (R + R_top)/2 and is not flat, so μ_r,geo is that radius; a beam is
/// flat, so μ_r,geo is the reduced radius of its (half its smallest size) and the box's. Static
/// Hertz then gives f_n = (4/3)·E*·√μ·δ^1.5 along +z on the body, 1/E* = 2(1 − ν²)/E (steel
/// on steel), with U = f_n·δ/2.5: standing on their flat faces, the bodies are pressed δ deep.
#[test]
fn hertz_cones_and_beams_on_a_box_follow_static_hertz() {
    let (e, nu) = (2e11_f64, 0.3_f64);
    let e_star = e / (2.0 * (1.0 - nu * nu));
    let floor = "[model]\nkind = \"hertz\"\n[[body]]\nname = \"floor\"\nfixed = true\nposition = [0.0, 0.0, -0.1]\n\
                 shape = { type = \"box\", size = [1.0, 1.0, 0.2] }\ncontact = { material = \"Steel\" }\n";
    let steel = "material = \"Steel\"";
    let r_box: f64 = 0.1;
    let beam_r: f64 = 0.01 / 2.0;
    // (label, shape, position of the base / middle above the depth, μ_r,geo)
    let cases = [
        ("cone", "type = \"cone\", radius = 0.02, length = 0.05", 0.0, 0.01),
        ("frustum", "type = \"cone\", radius = 0.02, top_radius = 0.01, length = 0.03", 0.0, 0.015),
        (
            "beam",
            "type = \"beam\", length = 0.1, width = 0.02, thickness = 0.01",
            0.005,
            beam_r * r_box / (beam_r + r_box),
        ),
    ];
    for (label, shape, lift, mu) in cases {
        let mut last = 0.0;
        for delta in [5e-6, 1e-5, 2e-5] {
            let text = format!("{}{floor}", body(label, shape, [0.1, -0.2, lift - delta], yaw(0.3), steel));
            let (force, _, energy) = contact_on_first(&text);
            let f = 4.0 / 3.0 * e_star * mu.sqrt() * delta.powf(1.5);
            assert_near(&format!("{label} {delta} deep: force"), &force, &Vector3::new(0.0, 0.0, f), f, 1e-9);
            assert_close(&format!("{label} {delta} deep: energy"), energy, f * delta / 2.5, 1e-9);
            assert!(force.z > last);
            last = force.z;
        }
    }
}
