//! Coefficients of the 3-stage Radau IIA method (order 5) and the transformation that splits its
//! Newton system into one real and one complex system (Hairer & Wanner, Solving ODEs II, §IV.8).
//!
//! Only the Butcher tableau is written down; the eigen-decomposition of A⁻¹ and the embedded
//! error weights are derived from it here, so they cannot drift out of step with it.

use nalgebra::Complex;

/// Radau IIA(5) data used by the integrator.
#[derive(Debug, Clone)]
pub(crate) struct Radau5Tableau {
    /// Collocation nodes; `c[2] = 1`, so the last stage is the step's end value.
    pub c: [f64; 3],
    /// Columns: a real eigenvector of A⁻¹, then the real and imaginary parts of a complex one.
    pub t: [[f64; 3]; 3],
    /// Inverse of `t`.
    pub t_inv: [[f64; 3]; 3],
    /// Real eigenvalue of A⁻¹.
    pub gamma: f64,
    /// A⁻¹'s complex eigenvalues are `alpha ± i·beta`; in the basis `t`, A⁻¹ is
    /// `diag(gamma, [[alpha, beta], [-beta, alpha]])`.
    pub alpha: f64,
    pub beta: f64,
    /// Weights on the stage increments `z_i` of the error estimate `ŷ − y` (besides `h f(t0, y0)/gamma`).
    pub e: [f64; 3],
}

type M3 = [[f64; 3]; 3];

fn inverse3(m: &M3) -> M3 {
    let cof = |r0: usize, r1: usize, c0: usize, c1: usize| m[r0][c0] * m[r1][c1] - m[r0][c1] * m[r1][c0];
    let adj = [
        [cof(1, 2, 1, 2), -cof(0, 2, 1, 2), cof(0, 1, 1, 2)],
        [-cof(1, 2, 0, 2), cof(0, 2, 0, 2), -cof(0, 1, 0, 2)],
        [cof(1, 2, 0, 1), -cof(0, 2, 0, 1), cof(0, 1, 0, 1)],
    ];
    let det = m[0][0] * adj[0][0] + m[0][1] * adj[1][0] + m[0][2] * adj[2][0];
    adj.map(|row| row.map(|v| v / det))
}

#[cfg(test)]
fn mul3(a: &M3, b: &M3) -> M3 {
    std::array::from_fn(|i| std::array::from_fn(|j| (0..3).map(|k| a[i][k] * b[k][j]).sum()))
}

/// A null vector of the (rank-2) 3×3 matrix `m`: the cross product of its two rows that gives
/// the longest result, which is the best conditioned choice.
fn null_vector(m: &[[Complex<f64>; 3]; 3]) -> [Complex<f64>; 3] {
    let cross = |a: &[Complex<f64>; 3], b: &[Complex<f64>; 3]| {
        [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
    };
    let size = |v: &[Complex<f64>; 3]| v.iter().map(|x| x.norm_sqr()).sum::<f64>();
    let candidates = [cross(&m[0], &m[1]), cross(&m[0], &m[2]), cross(&m[1], &m[2])];
    let mut best = candidates[0];
    for c in &candidates[1..] {
        if size(c) > size(&best) {
            best = *c;
        }
    }
    best
}

impl Radau5Tableau {
    pub(crate) fn new() -> Self {
        let s6 = 6f64.sqrt();
        let c = [(4.0 - s6) / 10.0, (4.0 + s6) / 10.0, 1.0];
        let a: M3 = [
            [(88.0 - 7.0 * s6) / 360.0, (296.0 - 169.0 * s6) / 1800.0, (-2.0 + 3.0 * s6) / 225.0],
            [(296.0 + 169.0 * s6) / 1800.0, (88.0 + 7.0 * s6) / 360.0, (-2.0 - 3.0 * s6) / 225.0],
            [(16.0 - s6) / 36.0, (16.0 + s6) / 36.0, 1.0 / 9.0],
        ];
        let a_inv = inverse3(&a);

        // The eigenvalues of A⁻¹ are the poles of the stability function, the roots of
        // z³ − 9z² + 36z − 60 (the (2,3)-Padé denominator). One is real; Newton from above finds it.
        let mut gamma = 4.0f64;
        for _ in 0..50 {
            let p = ((gamma - 9.0) * gamma + 36.0) * gamma - 60.0;
            let dp = (3.0 * gamma - 18.0) * gamma + 36.0;
            gamma -= p / dp;
        }
        // Deflating leaves z² − (9 − γ) z + 60/γ.
        let alpha = (9.0 - gamma) / 2.0;
        let beta = (60.0 / gamma - alpha * alpha).sqrt();

        let shifted = |lambda: Complex<f64>| {
            let m: [[Complex<f64>; 3]; 3] = std::array::from_fn(|i| {
                std::array::from_fn(|j| {
                    let d = if i == j { lambda } else { Complex::new(0.0, 0.0) };
                    Complex::new(a_inv[i][j], 0.0) - d
                })
            });
            null_vector(&m)
        };
        let real_vec = shifted(Complex::new(gamma, 0.0)).map(|v| v.re);
        // For A⁻¹(u + iv) = (α + iβ)(u + iv): A⁻¹u = αu − βv and A⁻¹v = βu + αv.
        let complex_vec = shifted(Complex::new(alpha, beta));
        let unit = |v: [f64; 3]| {
            let norm = v.iter().map(|x| x * x).sum::<f64>().sqrt();
            v.map(|x| x / norm)
        };
        let col0 = unit(real_vec);
        // u and v must be scaled together to keep the relation above.
        let scale = complex_vec.iter().map(|x| x.norm_sqr()).sum::<f64>().sqrt();
        let col1 = complex_vec.map(|x| x.re / scale);
        let col2 = complex_vec.map(|x| x.im / scale);
        let t: M3 = std::array::from_fn(|i| [col0[i], col1[i], col2[i]]);
        let t_inv = inverse3(&t);

        // Embedded order-3 formula ŷ = y0 + h(γ0 f(t0, y0) + Σ b̂_j f(Y_j)) with γ0 = 1/γ, so its
        // correction can reuse the real factorization: Σ b̂_j c_j^(k−1) = 1/k − γ0·[k = 1].
        let gamma0 = 1.0 / gamma;
        let vander: M3 = std::array::from_fn(|k| c.map(|cj| cj.powi(k as i32)));
        let rhs = [1.0 - gamma0, 1.0 / 2.0, 1.0 / 3.0];
        let v_inv = inverse3(&vander);
        let b_hat: [f64; 3] = std::array::from_fn(|j| (0..3).map(|k| v_inv[j][k] * rhs[k]).sum());
        // h f(Y_j) = Σ_l (A⁻¹)_jl z_l, so the weights on z are A⁻ᵀ (b̂ − b), with b the last row of A.
        let db: [f64; 3] = std::array::from_fn(|j| b_hat[j] - a[2][j]);
        let e = std::array::from_fn(|l| (0..3).map(|j| a_inv[j][l] * db[j]).sum());

        Self { c, t, t_inv, gamma, alpha, beta, e }
    }

    /// The stage increments' Lagrange weights at `theta` (in units of the step) of the
    /// collocation polynomial through `(0, 0), (c_1, z_1), (c_2, z_2), (1, z_3)`.
    pub(crate) fn lagrange(&self, theta: f64) -> [f64; 3] {
        let x = [0.0, self.c[0], self.c[1], self.c[2]];
        std::array::from_fn(|l| {
            let node = l + 1;
            (0..4).filter(|&m| m != node).map(|m| (theta - x[m]) / (x[node] - x[m])).product()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transformation_block_diagonalises_a_inverse() {
        let tab = Radau5Tableau::new();
        let s6 = 6f64.sqrt();
        let a: M3 = [
            [(88.0 - 7.0 * s6) / 360.0, (296.0 - 169.0 * s6) / 1800.0, (-2.0 + 3.0 * s6) / 225.0],
            [(296.0 + 169.0 * s6) / 1800.0, (88.0 + 7.0 * s6) / 360.0, (-2.0 - 3.0 * s6) / 225.0],
            [(16.0 - s6) / 36.0, (16.0 + s6) / 36.0, 1.0 / 9.0],
        ];
        let lambda = mul3(&mul3(&tab.t_inv, &inverse3(&a)), &tab.t);
        let expected = [[tab.gamma, 0.0, 0.0], [0.0, tab.alpha, tab.beta], [0.0, -tab.beta, tab.alpha]];
        for i in 0..3 {
            for j in 0..3 {
                assert!((lambda[i][j] - expected[i][j]).abs() < 1e-12, "{i},{j}: {}", lambda[i][j]);
            }
        }
        // Known values of the real pole and the complex pair.
        assert!((tab.gamma - 3.637834252744496).abs() < 1e-12);
        assert!((tab.alpha - 2.681082873627752).abs() < 1e-12);
        assert!((tab.beta - 3.050430199247411).abs() < 1e-12);
    }

    #[test]
    fn collocation_weights_interpolate_the_nodes() {
        let tab = Radau5Tableau::new();
        assert_eq!(tab.lagrange(0.0), [0.0, 0.0, 0.0]);
        for (i, &ci) in tab.c.iter().enumerate() {
            let w = tab.lagrange(ci);
            for (l, wl) in w.iter().enumerate() {
                assert!((wl - if l == i { 1.0 } else { 0.0 }).abs() < 1e-13);
            }
        }
    }

    #[test]
    fn error_weights_match_the_published_estimate() {
        // Hairer & Wanner give γ·e = (−(13 + 7√6)/3, (−13 + 7√6)/3, −1/3).
        let tab = Radau5Tableau::new();
        let s6 = 6f64.sqrt();
        let expected = [-(13.0 + 7.0 * s6) / 3.0, (-13.0 + 7.0 * s6) / 3.0, -1.0 / 3.0];
        for (e, x) in tab.e.iter().zip(expected) {
            assert!((tab.gamma * e - x).abs() < 1e-12, "{e} vs {x}");
        }
    }
}
