//! Prints narrow-phase queries per second for each shape pair (run with `--release`):
//! `cargo bench --bench mpr_speed`.

use contactlab::contact::hertz::{ConvexShape, MprStats, MprTolerances, signed_distance_counted};
use contactlab::math::{Isometry3, Point3, Translation3, UnitQuaternion, Vector3};
use std::time::Instant;

fn main() {
    let shapes = [
        ("sphere", ConvexShape::Sphere { radius: 0.1 }),
        ("ellipsoid", ConvexShape::Ellipsoid { radii: Vector3::new(0.1, 0.06, 0.08) }),
        ("box", ConvexShape::Box { half: Vector3::new(0.1, 0.07, 0.05), smoothing: 1e-3 }),
        ("cylinder", ConvexShape::Cylinder { radius: 0.08, half_length: 0.1, smoothing: 1e-3 }),
        ("capsule", ConvexShape::Capsule { radius: 0.05, half_length: 0.1 }),
        ("cone", ConvexShape::Cone { base_radius: 0.1, top_radius: 0.0, length: 0.15, smoothing: 1e-3 }),
        ("beam", ConvexShape::Beam { length: 0.2, width: 0.06, thickness: 0.03, smoothing: 1e-3 }),
        ("hull", {
            let pts: Vec<Point3> = (0..60)
                .map(|i| {
                    let t = i as f64 * 2.399_963;
                    let z = 1.0 - 2.0 * (i as f64 + 0.5) / 60.0;
                    let r = (1.0 - z * z).sqrt();
                    Point3::new(0.1 * r * t.cos(), 0.1 * r * t.sin(), 0.1 * z)
                })
                .collect();
            ConvexShape::hull(&pts, 0.0).expect("sphere points span a volume")
        }),
    ];
    // Poses from separated to penetrating, deterministic.
    let poses: Vec<(Isometry3, Isometry3)> = (0..256)
        .map(|i| {
            let f = i as f64;
            let ra = UnitQuaternion::from_euler_angles(0.37 * f, 0.11 * f, 0.53 * f);
            let rb = UnitQuaternion::from_euler_angles(0.19 * f, 0.71 * f, 0.29 * f);
            let d = 0.12 + 0.16 * ((f * 0.618).fract());
            let dir = Vector3::new((0.7 * f).cos(), (0.7 * f).sin(), (1.3 * f).cos()).normalize();
            (
                Isometry3::from_parts(Translation3::identity(), ra),
                Isometry3::from_parts(Translation3::from(dir * d), rb),
            )
        })
        .collect();
    let tol = MprTolerances::default();
    println!(
        "{:<10} {:<10} {:>12} {:>10} {:>9} {:>6}",
        "a", "b", "queries/s", "us/query", "estimates", "errors"
    );
    for (i, (na, a)) in shapes.iter().enumerate() {
        for (nb, b) in shapes.iter().skip(i) {
            let stats = MprStats::default();
            let mut sink = 0.0;
            let rounds = 40;
            let t0 = Instant::now();
            for _ in 0..rounds {
                for (pa, pb) in &poses {
                    if let Ok(c) = signed_distance_counted(a, pa, b, pb, &tol, &stats) {
                        sink += c.distance;
                    }
                }
            }
            let secs = t0.elapsed().as_secs_f64();
            let n = (rounds * poses.len()) as f64;
            let c = stats.counts();
            println!(
                "{na:<10} {nb:<10} {:>12.0} {:>10.2} {:>9} {:>6}{}",
                n / secs,
                1e6 * secs / n,
                c.best_estimates,
                c.errors,
                if sink.is_nan() { " (nan)" } else { "" }
            );
        }
    }
}
