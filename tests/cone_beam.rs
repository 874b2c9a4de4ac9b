//! Cones (frustums) and beams: mass properties against fine hull meshes, and both contact
//! models accept them.

use contactlab::geometry::mass_properties::MassProperties;
use contactlab::geometry::{Shape, mesher};

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
