//! A 6×6 linear system solved by LU decomposition with partial pivoting, on the stack.
//!
//! The same operations in the same order as nalgebra's `LU::new(a).solve(&b)` (pivot: the
//! first entry of largest magnitude; a column without one is skipped; multipliers scaled by the
//! pivot's reciprocal; unit lower then upper triangular substitution), so the result is bit for
//! bit nalgebra's, without the cost of its generic views (a resting body's Newton solve). The
//! right-hand side's rows are swapped as the pivots are found, as nalgebra's solve applies
//! the same swaps in the same order before it substitutes.

use nalgebra::{Matrix6, Vector6};

/// The solution x of a·x = b; `None` when the upper factor has a zero on its diagonal. (Loops
/// over fixed ranges with the triangles' bounds as tests inside: unrolled whole.)
pub fn solve6(a: Matrix6<f64>, b: Vector6<f64>) -> Option<Vector6<f64>> {
    // Columns of plain arrays: m[c][r] is a(r, c).
    let mut m: [[f64; 6]; 6] = a.data.0;
    let mut x: [f64; 6] = b.data.0[0];
    for i in 0..6 {
        let (mut piv, mut largest) = (i, m[i][i].abs());
        for r in 0..6 {
            if r > i {
                let v = m[i][r].abs();
                if v > largest {
                    (piv, largest) = (r, v);
                }
            }
        }
        let diag = m[i][piv];
        if diag == 0.0 {
            continue;
        }
        if piv != i {
            for column in &mut m {
                let (p, q) = (column[i], column[piv % 6]);
                column[i] = q;
                column[piv % 6] = p;
            }
            let (p, q) = (x[i], x[piv % 6]);
            x[i] = q;
            x[piv % 6] = p;
        }
        let inv = 1.0 / diag;
        for r in 0..6 {
            if r > i {
                m[i][r] *= inv;
            }
        }
        for c in 0..6 {
            if c > i {
                let p = m[c][i];
                for r in 0..6 {
                    if r > i {
                        m[c][r] -= p * m[i][r];
                    }
                }
            }
        }
    }
    for i in 0..6 {
        let coeff = x[i];
        for r in 0..6 {
            if r > i {
                x[r] -= coeff * m[i][r];
            }
        }
    }
    for i in (0..6).rev() {
        let diag = m[i][i];
        if diag == 0.0 {
            return None;
        }
        let coeff = x[i] / diag;
        x[i] = coeff;
        for r in 0..6 {
            if r < i {
                x[r] -= coeff * m[i][r];
            }
        }
    }
    Some(Vector6::from(x))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bit for bit nalgebra's LU on random systems (some with rows that need pivoting, some
    /// singular), and a solution to round-off.
    #[test]
    fn solve6_is_nalgebras_lu_bit_for_bit() {
        use proptest::prelude::RngExt;
        use proptest::test_runner::{RngAlgorithm, TestRng};
        let mut rng = TestRng::deterministic_rng(RngAlgorithm::ChaCha);
        let mut rnd = move || rng.random::<f64>() - 0.5;
        for trial in 0..2000 {
            let mut a = Matrix6::from_fn(|_, _| rnd());
            if trial % 7 == 0 {
                // A zero leading column entry: pivoting needed.
                a[(0, 0)] = 0.0;
            }
            if trial % 11 == 0 {
                // Singular: two equal rows.
                let row = a.row(1).into_owned();
                a.set_row(4, &row);
            }
            if trial % 13 == 0 {
                // A zero column: skipped by both.
                a.set_column(2, &Vector6::zeros());
            }
            let b = Vector6::from_fn(|_, _| rnd());
            let ours = solve6(a, b);
            let theirs = a.lu().solve(&b);
            match (ours, theirs) {
                (Some(x), Some(y)) => {
                    assert!(x.iter().zip(y.iter()).all(|(p, q)| p.to_bits() == q.to_bits()), "{x} vs {y}");
                    if trial % 11 != 0 {
                        assert!((a * x - b).norm() < 1e-9 * (1.0 + x.norm()));
                    }
                }
                (None, None) => {}
                (x, y) => panic!("trial {trial}: {x:?} vs {y:?}"),
            }
        }
    }
}
