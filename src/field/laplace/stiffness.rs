//! The stiffness matrix of linear (P1) finite elements for Laplace's equation on a tet mesh.

use super::graph::Neighbours;
use crate::geometry::TetMesh;

/// Tets with `|6V|` at or below this fraction of their longest edge cubed are flat: their
/// gradients are undefined, so they are left out of the assembly.
pub(crate) const FLAT: f64 = 1e-12;

/// `K` with `K_ij = Σ_tets ∫ ∇φ_i · ∇φ_j`: `diagonal[v]` and `off[e]` per edge `e` of `graph`.
pub(crate) struct Stiffness {
    pub diagonal: Vec<f64>,
    pub off: Vec<f64>,
}

/// Whether tet `t` has a usable (non-flat, finite) volume.
pub(crate) fn is_solid(mesh: &TetMesh, t: usize) -> bool {
    let [a, b, c, d] = mesh.tet(t);
    let (e1, e2, e3) = (b - a, c - a, d - a);
    let six_v = e1.dot(&e2.cross(&e3));
    let longest =
        [e1, e2, e3, c - b, d - b, d - c].iter().map(|e| e.norm_squared()).fold(0.0, f64::max).sqrt();
    six_v.is_finite() && six_v.abs() > FLAT * longest.powi(3)
}

/// The element matrix of tet `t`: `|V| ∇λ_i·∇λ_j` with the barycentric gradients
/// `∇λ_1 = (e2 × e3)/6V` etc. (edges `e_k` from vertex 0); orientation-independent.
fn element(mesh: &TetMesh, t: usize) -> [[f64; 4]; 4] {
    let [a, b, c, d] = mesh.tet(t);
    let (e1, e2, e3) = (b - a, c - a, d - a);
    let n1 = e2.cross(&e3);
    let n2 = e3.cross(&e1);
    let n3 = e1.cross(&e2);
    let n = [-(n1 + n2 + n3), n1, n2, n3];
    // |V| ∇λ_i·∇λ_j = |V| n_i·n_j / (6V)² = n_i·n_j / (36 |V|) = n_i·n_j / (6 |6V|).
    let scale = 1.0 / (6.0 * e1.dot(&n1).abs());
    let mut k = [[0.0; 4]; 4];
    for i in 0..4 {
        for j in i..4 {
            k[i][j] = n[i].dot(&n[j]) * scale;
            k[j][i] = k[i][j];
        }
    }
    k
}

/// Assembles `K` over the solid tets (`solid[t]`), whose edges `graph` must hold.
pub(crate) fn assemble(mesh: &TetMesh, graph: &Neighbours, solid: &[bool]) -> Stiffness {
    let mut diagonal = vec![0.0; mesh.vertices.len()];
    let mut off = vec![0.0; graph.adjacent.len()];
    for (t, tet) in mesh.tets.iter().enumerate() {
        if !solid[t] {
            continue;
        }
        let k = element(mesh, t);
        for i in 0..4 {
            let vi = tet[i] as usize;
            diagonal[vi] += k[i][i];
            for j in 0..4 {
                if i != j
                    && let Some(e) = graph.edge(vi, tet[j])
                {
                    off[e] += k[i][j];
                }
            }
        }
    }
    Stiffness { diagonal, off }
}
