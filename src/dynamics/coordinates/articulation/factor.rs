//! The mass matrix factorised along the tree: M = Lᵀ·D·L with L unit lower triangular and
//! nonzero only between a degree of freedom and its ancestors (Featherstone's LTDL), so that a
//! forest of short chains costs what its branches do, not the cube of its size.

use super::tree::NONE;
use nalgebra::DMatrix;

/// The factors of a mass matrix, in place.
#[derive(Clone, Debug)]
pub struct TreeFactor {
    /// D on the diagonal, L below it (along ancestors only).
    factors: DMatrix<f64>,
    parent: Vec<usize>,
}

/// The matrix was not positive definite (a massless link on a joint).
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
#[error("the mass matrix is singular at degree of freedom {dof}: give every moving link mass and inertia")]
pub struct SingularMass {
    pub dof: usize,
}

impl TreeFactor {
    /// Factorises `m` (its sparsity that of `parent`: each degree of freedom's parent, [`NONE`]
    /// at a root, parents before children).
    pub fn new(mut m: DMatrix<f64>, parent: &[usize]) -> Result<TreeFactor, SingularMass> {
        let n = parent.len();
        for k in (0..n).rev() {
            let pivot = m[(k, k)];
            if !(pivot > 0.0 && pivot.is_finite()) {
                return Err(SingularMass { dof: k });
            }
            let mut i = parent[k];
            while i != NONE {
                let a = m[(k, i)] / pivot;
                let mut j = i;
                while j != NONE {
                    m[(i, j)] -= a * m[(k, j)];
                    j = parent[j];
                }
                m[(k, i)] = a;
                i = parent[i];
            }
        }
        Ok(TreeFactor { factors: m, parent: parent.to_vec() })
    }

    /// Solves M·x = b in place.
    pub fn solve(&self, b: &mut [f64]) {
        let (m, parent) = (&self.factors, &self.parent);
        let n = parent.len();
        for i in (0..n).rev() {
            let mut j = parent[i];
            while j != NONE {
                b[j] -= m[(i, j)] * b[i];
                j = parent[j];
            }
        }
        for (i, x) in b.iter_mut().enumerate() {
            *x /= m[(i, i)];
        }
        for i in 0..n {
            let mut j = parent[i];
            while j != NONE {
                b[i] -= m[(i, j)] * b[j];
                j = parent[j];
            }
        }
    }
}
