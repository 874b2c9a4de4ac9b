//! The composite-rigid-body algorithm: the joint-space mass matrix M(q), armature included.

use super::tree::{Articulation, Kinematics, NONE};
use nalgebra::DMatrix;

impl Articulation {
    /// M(q) (symmetric positive definite), the joints' armature on its diagonal. Entries between
    /// degrees of freedom on different branches are zero.
    pub fn mass_matrix(&self, kin: &Kinematics) -> DMatrix<f64> {
        let n = self.joints.len();
        let mut m = DMatrix::zeros(self.nv(), self.nv());
        let mut composite = self.inertia.clone();
        for k in (0..n).rev() {
            let parent = self.joints[k].parent;
            if parent != NONE {
                let moved = kin.up[k].inertia_up(&composite[k]);
                composite[parent].add(&moved);
            }
        }
        for k in 0..n {
            let joint = &self.joints[k];
            for d in 0..joint.kind.nv() {
                let row = self.v_at[k] + d;
                // The composite body's force per unit of this coordinate, carried up the tree.
                let mut f = composite[k].times(&joint.kind.subspace(d));
                for e in 0..joint.kind.nv() {
                    m[(row, self.v_at[k] + e)] = joint.kind.subspace(e).dot(&f);
                }
                m[(row, row)] += joint.armature;
                let (mut child, mut j) = (k, joint.parent);
                while j != NONE {
                    f = kin.up[child].force_up(&f);
                    let above = &self.joints[j];
                    for e in 0..above.kind.nv() {
                        let col = self.v_at[j] + e;
                        let value = above.kind.subspace(e).dot(&f);
                        m[(row, col)] = value;
                        m[(col, row)] = value;
                    }
                    child = j;
                    j = above.parent;
                }
            }
        }
        m
    }
}
