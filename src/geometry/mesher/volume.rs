//! Volume-preserving correction of curved meshes.
//!
//! A polyhedron whose vertices lie on a curved surface is inscribed: its flat triangles cut
//! inside the surface, so it encloses less volume than the shape, by up to about `area · h²/(8R)`
//! for edges `h` on a surface of curvature radius `R`. Pressure field contact forces scale with
//! the overlap volume, so they come out low by about `h²/(4·R·d)` at penetration `d`. The
//! curved meshers therefore push every vertex `v` away from its core point `c(v)`, to
//! `c(v) + k·(v − c(v))` with the one `k > 1` that makes the mesh enclose the shape's exact
//! volume. The vertices then lie slightly outside the exact surface (by `(k − 1)·R`, less than
//! `h²/(8R)`), and the mesh is inscribed in a copy of the shape enlarged about its core by `k`.

use crate::geometry::SurfaceMesh;
use crate::math::Point3;

/// Newton steps are stopped at this relative size of the step; the cubic is solved to
/// round-off well before the step cap.
const TOLERANCE: f64 = 1e-15;
const MAX_STEPS: usize = 100;

/// Maps every vertex `v` of `mesh` to `core(v) + k·(v − core(v))` with `k` such that the mesh
/// encloses `volume`, and returns `k`. `core(v)` must be the same point for every vertex the
/// map moves along one ray (the nearest point of a centre, axis or segment), so the image of a
/// vertex has the same core.
///
/// Each moved vertex is affine in `k`, so the enclosed volume is a cubic in `k`:
/// `k³·V` about a centre (sphere, ellipsoid: `k = (V_exact/V_mesh)^(1/3)`), `k²·V` about an
/// axis (cylinder: `k = sqrt(V_exact/V_mesh)`), a sum of both about a segment (capsule). It is
/// increasing and convex for `k > 0`, so Newton's method from `k = 1` converges.
pub(crate) fn fit_volume(mesh: &mut SurfaceMesh, core: impl Fn(&Point3) -> Point3, volume: f64) -> f64 {
    let cores: Vec<Point3> = mesh.vertices.iter().map(&core).collect();
    let cubic = volume_cubic(mesh, &cores);
    let k = solve(&cubic, volume);
    for (v, c) in mesh.vertices.iter_mut().zip(&cores) {
        *v = c + k * (*v - c);
    }
    k
}

/// The coefficients `[a0, a1, a2, a3]` of the enclosed volume `Σ a_i·k^i` of the mesh whose
/// vertices are `c + k·(v − c)`.
fn volume_cubic(mesh: &SurfaceMesh, cores: &[Point3]) -> [f64; 4] {
    let det = |a: &nalgebra::Vector3<f64>, b: &nalgebra::Vector3<f64>, c: &nalgebra::Vector3<f64>| {
        a.dot(&b.cross(c))
    };
    let mut a = [0.0; 4];
    for tri in &mesh.triangles {
        let c = tri.map(|i| cores[i as usize].coords);
        let d = tri.map(|i| mesh.vertices[i as usize] - cores[i as usize]);
        a[0] += det(&c[0], &c[1], &c[2]);
        a[1] += det(&d[0], &c[1], &c[2]) + det(&c[0], &d[1], &c[2]) + det(&c[0], &c[1], &d[2]);
        a[2] += det(&d[0], &d[1], &c[2]) + det(&d[0], &c[1], &d[2]) + det(&c[0], &d[1], &d[2]);
        a[3] += det(&d[0], &d[1], &d[2]);
    }
    a.map(|x| x / 6.0)
}

/// The root `k > 0` of `Σ a_i·k^i = volume` reached by Newton's method from `k = 1`.
fn solve(a: &[f64; 4], volume: f64) -> f64 {
    let mut k: f64 = 1.0;
    for _ in 0..MAX_STEPS {
        let value = ((a[3] * k + a[2]) * k + a[1]) * k + a[0] - volume;
        let slope = (3.0 * a[3] * k + 2.0 * a[2]) * k + a[1];
        if slope.is_nan() || slope <= 0.0 {
            break;
        }
        let step = value / slope;
        k -= step;
        if step.abs() <= TOLERANCE * k.abs() {
            break;
        }
    }
    k
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cubic_matches_the_moved_mesh() {
        // A tetrahedron around the point (0, 0, 0.1) with cores on the z axis: the volume of
        // the moved mesh equals the cubic at any k.
        let mut mesh = SurfaceMesh {
            vertices: vec![
                Point3::new(1.0, 0.0, -0.3),
                Point3::new(-0.5, 0.9, -0.2),
                Point3::new(-0.4, -0.8, -0.3),
                Point3::new(0.1, 0.05, 1.2),
            ],
            triangles: vec![[0, 2, 1], [0, 1, 3], [1, 2, 3], [2, 0, 3]],
        };
        let axis = |v: &Point3| Point3::new(0.0, 0.0, v.z.clamp(-0.25, 0.25));
        let cores: Vec<Point3> = mesh.vertices.iter().map(axis).collect();
        let cubic = volume_cubic(&mesh, &cores);
        assert!((cubic.iter().sum::<f64>() - mesh.volume()).abs() < 1e-15);
        let target = 1.7 * mesh.volume();
        let k = fit_volume(&mut mesh, axis, target);
        assert!(k > 1.0);
        assert!((mesh.volume() - target).abs() <= 1e-14 * target);
    }
}
