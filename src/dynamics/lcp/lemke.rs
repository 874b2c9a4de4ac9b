//! Lemke's method for the linear complementarity problem LCP(M, q): find `z ≥ 0` with
//! `w = M·z + q ≥ 0` and `zᵀw = 0`.
//!
//! Written from the textbook description (Cottle–Pang–Stone, *The Linear Complementarity
//! Problem*, §4.4; Murty, *Linear Complementarity, Linear and Nonlinear Programming*, ch. 2).
//!
//! # Method
//! The system `I·w − M·z − d·z0 = q` is augmented by an artificial variable `z0` with the
//! covering vector `d = (1, …, 1)`. Starting from the basis `{w}`, `z0` enters and replaces the
//! most negative `q_i`, which makes every basic variable non-negative. From then on each pivot
//! brings in the *complement* of the variable that just left (`w_i ↔ z_i`), so the basis stays
//! almost complementary. The method ends when
//! - `z0` leaves the basis: the basis is complementary and feasible, i.e. a solution;
//! - the entering column has no positive entry (a secondary ray): no solution was found, which
//!   for copositive-plus matrices proves the LCP infeasible, but for general (e.g. PEG)
//!   matrices only means Lemke's method could not process it;
//! - the pivot cap is reached.
//!
//! # Lexicographic rule
//! The leaving row is the lexicographic minimum of the rows of `[q̄, B⁻¹] / c_i` over the rows
//! with a positive pivot-column entry `c_i`. The rows of `B⁻¹` are linearly independent, so
//! this minimum is unique and the basis never repeats: degenerate problems cannot cycle. If
//! `z0` ties for the minimum ratio of `q̄`, it leaves, since that ends the method at once.
//!
//! The implementation is dense and deterministic: an explicit `n × n` basis inverse updated by
//! Gauss–Jordan pivots (n is at most a few hundred). On success the basic values are also
//! recomputed by an LU solve of the final basis from the original data, and the candidate with
//! the smaller residual is returned; `w` is always recomputed as `M·z + q`.

use nalgebra::{DMatrix, DVector};

/// Relative tolerance under which two ratios of the lexicographic test count as equal. It only
/// has to absorb round-off in `q̄` and `B⁻¹`; true ties are then resolved lexicographically.
const TIE_TOLERANCE: f64 = 1e-11;

/// Negative `z_i` with `|z_i| ≤ ROUNDOFF_ZERO · (1 + ‖z‖∞)` are round-off and are set to zero.
const ROUNDOFF_ZERO: f64 = 1e-14;

/// Settings of Lemke's method.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LemkeOptions {
    /// Most pivots (the first pivot, bringing in `z0`, counts); `None`: `50·n + 100` for an
    /// `n`-variable problem. Lemke's method usually needs `O(n)` pivots.
    pub max_pivots: Option<usize>,
    /// A solution is accepted when its complementarity residual (see [`residual`]) is at most
    /// `residual_tolerance · (1 + ‖q‖∞)`; scaling by `q` makes the test independent of the
    /// units of the problem. Default `1e-9`.
    pub residual_tolerance: f64,
    /// Entries of the entering column at most `pivot_tolerance` times that column's largest
    /// magnitude are treated as zero (not positive), so that round-off never becomes a pivot.
    /// Must lie in `[0, 1)`. Default `1e-12`.
    pub pivot_tolerance: f64,
}

impl Default for LemkeOptions {
    fn default() -> Self {
        Self { max_pivots: None, residual_tolerance: 1e-9, pivot_tolerance: 1e-12 }
    }
}

/// A solved LCP.
#[derive(Clone, Debug, PartialEq)]
pub struct LcpSolution {
    /// The solution, `z ≥ 0` (round-off negatives set to zero).
    pub z: DVector<f64>,
    /// `w = M·z + q`, recomputed from the original data.
    pub w: DVector<f64>,
    /// Pivots performed (0 when `q ≥ 0`).
    pub pivots: usize,
    /// The complementarity residual of `z` (see [`residual`]).
    pub residual: f64,
}

/// Why Lemke's method stopped without a solution (each says what was reached).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum LcpFailure {
    /// The entering column had no positive entry.
    #[error("Lemke's method ended on a secondary ray after {pivots} pivots (the LCP may have no solution)")]
    RayTermination { pivots: usize },
    /// [`LemkeOptions::max_pivots`] pivots were made without reaching a solution.
    #[error("Lemke's method reached its pivot cap of {pivots}")]
    PivotCap { pivots: usize },
    /// `z0` left the basis but the solution is too inaccurate; `tolerance` is the scaled
    /// tolerance `residual_tolerance · (1 + ‖q‖∞)`.
    #[error(
        "Lemke's method ended with a complementarity residual {residual:.3e} above the tolerance {tolerance:.3e} after {pivots} pivots"
    )]
    ResidualTooLarge { pivots: usize, residual: f64, tolerance: f64 },
    /// Non-square `M`, size mismatch, non-finite entries or invalid options.
    #[error("the LCP is malformed: {0}")]
    Malformed(String),
}

/// Solves LCP(m, q) by Lemke's method with the covering vector of ones and a lexicographic
/// ratio test.
///
/// # Errors
/// [`LcpFailure::Malformed`] for invalid input, otherwise the reason the method stopped without
/// an accepted solution.
pub fn solve_lemke(
    m: &DMatrix<f64>,
    q: &DVector<f64>,
    options: &LemkeOptions,
) -> Result<LcpSolution, LcpFailure> {
    validate(m, q, options)?;
    let n = q.len();
    if q.iter().all(|&qi| qi >= 0.0) {
        return Ok(LcpSolution { z: DVector::zeros(n), w: q.clone(), pivots: 0, residual: 0.0 });
    }

    let cap = options.max_pivots.unwrap_or(50 * n + 100);
    let q_scale = q.amax();
    let mut tableau = Tableau::new(q);
    let mut entering = tableau.z0;
    let mut pivots = 0;
    loop {
        if pivots >= cap {
            return Err(LcpFailure::PivotCap { pivots });
        }
        let column = tableau.column(m, entering);
        let candidates: Vec<(usize, f64)> = if pivots == 0 {
            // z0's column is −d: every row is blocking, and the smallest q_i / d_i leaves.
            column.iter().enumerate().map(|(i, &c)| (i, -c)).collect()
        } else {
            let largest = column.amax();
            let threshold = options.pivot_tolerance * largest;
            column
                .iter()
                .enumerate()
                .filter(|&(_, &c)| c > threshold && c > 0.0)
                .map(|(i, &c)| (i, c))
                .collect()
        };
        if candidates.is_empty() {
            return Err(LcpFailure::RayTermination { pivots });
        }
        let row = tableau.lexicographic_minimum(&candidates, q_scale);
        let leaving = tableau.basis[row];
        tableau.pivot(&column, row, entering);
        pivots += 1;
        if leaving == tableau.z0 {
            break;
        }
        entering = if leaving < n { leaving + n } else { leaving - n };
    }

    // The updated q̄ carries the round-off of every pivot; a fresh solve of the final basis
    // from the original data is usually more accurate, so keep whichever fits better.
    let mut z = tableau.z_from_basic(&tableau.qbar);
    let mut res = residual(m, q, &z);
    if let Some(basic) = tableau.solve_basis(m, q) {
        let z_lu = tableau.z_from_basic(&basic);
        let res_lu = residual(m, q, &z_lu);
        if res_lu < res {
            z = z_lu;
            res = res_lu;
        }
    }
    let tolerance = options.residual_tolerance * (1.0 + q_scale);
    if res.is_nan() || res > tolerance {
        return Err(LcpFailure::ResidualTooLarge { pivots, residual: res, tolerance });
    }
    let w = m * &z + q;
    Ok(LcpSolution { z, w, pivots, residual: res })
}

/// The complementarity residual of z for LCP(m, q): the largest of `|min(z_i, w_i)|` over `i`
/// (natural map, infinity norm), with `w = m·z + q`. It is zero exactly at a solution and
/// measures negative entries of `z` and `w` as well as complementarity violations.
///
/// Returns `f64::INFINITY` if the sizes do not fit or any value is not finite.
pub fn residual(m: &DMatrix<f64>, q: &DVector<f64>, z: &DVector<f64>) -> f64 {
    if !m.is_square() || m.nrows() != q.len() || z.len() != q.len() {
        return f64::INFINITY;
    }
    let w = m * z + q;
    let mut largest: f64 = 0.0;
    for (&zi, &wi) in z.iter().zip(w.iter()) {
        if !zi.is_finite() || !wi.is_finite() {
            return f64::INFINITY;
        }
        largest = largest.max(zi.min(wi).abs());
    }
    largest
}

/// Rejects input that would make the method meaningless (or panic in nalgebra).
fn validate(m: &DMatrix<f64>, q: &DVector<f64>, options: &LemkeOptions) -> Result<(), LcpFailure> {
    let malformed = |text: String| Err(LcpFailure::Malformed(text));
    if !m.is_square() {
        return malformed(format!("M is {}×{}, not square", m.nrows(), m.ncols()));
    }
    if q.len() != m.nrows() {
        return malformed(format!("q has {} entries but M is {}×{}", q.len(), m.nrows(), m.ncols()));
    }
    if let Some(index) = m.iter().position(|v| !v.is_finite()) {
        let (row, col) = (index % m.nrows(), index / m.nrows());
        return malformed(format!("M[({row}, {col})] = {} is not finite", m[index]));
    }
    if let Some(i) = q.iter().position(|v| !v.is_finite()) {
        return malformed(format!("q[{i}] = {} is not finite", q[i]));
    }
    let tol = options.residual_tolerance;
    if !(tol.is_finite() && tol >= 0.0) {
        return malformed(format!("residual tolerance {tol} is not a finite non-negative number"));
    }
    let tol = options.pivot_tolerance;
    if !(tol.is_finite() && (0.0..1.0).contains(&tol)) {
        return malformed(format!("pivot tolerance {tol} is not in [0, 1)"));
    }
    Ok(())
}

/// The state of the method for the system `I·w − M·z − d·z0 = q`. Variables are numbered
/// `w_i = i`, `z_i = n + i`, `z0 = 2n`; row `r` of `[qbar, binv]` belongs to `basis[r]`.
struct Tableau {
    binv: DMatrix<f64>,
    qbar: DVector<f64>,
    basis: Vec<usize>,
    z0: usize,
}

impl Tableau {
    /// The starting basis `{w}`: `B = I`, `q̄ = q`.
    fn new(q: &DVector<f64>) -> Self {
        let n = q.len();
        Self { binv: DMatrix::identity(n, n), qbar: q.clone(), basis: (0..n).collect(), z0: 2 * n }
    }

    fn n(&self) -> usize {
        self.qbar.len()
    }

    /// `B⁻¹` times the original column of `var`: `e_i` for `w_i`, `−M_{·i}` for `z_i`, `−d` for
    /// `z0`.
    fn column(&self, m: &DMatrix<f64>, var: usize) -> DVector<f64> {
        let n = self.n();
        if var < n {
            self.binv.column(var).clone_owned()
        } else if var < 2 * n {
            -(&self.binv * m.column(var - n))
        } else {
            -self.binv.column_sum()
        }
    }

    /// The row leaving the basis: lexicographic minimum of `[q̄, B⁻¹]_i / c_i` over the
    /// candidates `(i, c_i)`, preferring `z0` whenever it ties on `q̄`.
    fn lexicographic_minimum(&self, candidates: &[(usize, f64)], q_scale: f64) -> usize {
        let mut set = keep_minimal(candidates.to_vec(), |i| self.qbar[i], q_scale);
        if let Some(z0_row) = self.basis.iter().position(|&v| v == self.z0)
            && set.iter().any(|&(i, _)| i == z0_row)
        {
            return z0_row;
        }
        for (k, column) in self.binv.column_iter().enumerate() {
            if set.len() <= 1 {
                break;
            }
            set = keep_minimal(set, |i| self.binv[(i, k)], column.amax());
        }
        // Exact arithmetic leaves one row; otherwise the lowest index keeps it deterministic.
        set.first().map_or(candidates[0].0, |&(i, _)| i)
    }

    /// Gauss–Jordan pivot on row `r` of `column`, replacing `basis[r]` by `entering`.
    fn pivot(&mut self, column: &DVector<f64>, r: usize, entering: usize) {
        let p = column[r];
        let q_r = self.qbar[r] / p;
        for (i, (q_i, &c_i)) in self.qbar.iter_mut().zip(column.iter()).enumerate() {
            if i == r {
                *q_i = q_r;
            } else {
                *q_i -= c_i * q_r;
            }
        }
        for mut b_col in self.binv.column_iter_mut() {
            let b_r = b_col[r] / p;
            for (i, (b_i, &c_i)) in b_col.iter_mut().zip(column.iter()).enumerate() {
                if i == r {
                    *b_i = b_r;
                } else {
                    *b_i -= c_i * b_r;
                }
            }
        }
        self.basis[r] = entering;
    }

    /// The basic values of the current basis from the original data, by LU of `B`.
    fn solve_basis(&self, m: &DMatrix<f64>, q: &DVector<f64>) -> Option<DVector<f64>> {
        let n = self.n();
        let mut b = DMatrix::zeros(n, n);
        for (pos, &var) in self.basis.iter().enumerate() {
            if var < n {
                b[(var, pos)] = 1.0;
            } else if var < 2 * n {
                b.column_mut(pos).copy_from(&(-m.column(var - n)));
            } else {
                b.column_mut(pos).fill(-1.0);
            }
        }
        b.lu().solve(q)
    }

    /// `z` from basic values (non-basic `z_i` are zero); round-off negatives become zero.
    fn z_from_basic(&self, basic: &DVector<f64>) -> DVector<f64> {
        let n = self.n();
        let mut z = DVector::zeros(n);
        for (&var, &value) in self.basis.iter().zip(basic.iter()) {
            if (n..2 * n).contains(&var) {
                z[var - n] = value;
            }
        }
        let zero_below = -ROUNDOFF_ZERO * (1.0 + z.amax());
        z.iter_mut().filter(|v| **v < 0.0 && **v >= zero_below).for_each(|v| *v = 0.0);
        z
    }
}

/// Keeps the candidates whose ratio `value(i) / c_i` equals the smallest one up to round-off:
/// `TIE_TOLERANCE · (|θ| + scale / c_max)`, where `scale` is the size of the values compared.
fn keep_minimal(set: Vec<(usize, f64)>, value: impl Fn(usize) -> f64, scale: f64) -> Vec<(usize, f64)> {
    let c_max = set.iter().fold(0.0_f64, |acc, &(_, c)| acc.max(c));
    let theta = set.iter().fold(f64::INFINITY, |acc, &(i, c)| acc.min(value(i) / c));
    let tolerance = TIE_TOLERANCE * (theta.abs() + scale / c_max);
    let kept: Vec<(usize, f64)> =
        set.iter().copied().filter(|&(i, c)| value(i) / c <= theta + tolerance).collect();
    // Only non-finite values (overflow) can empty the set; then nothing is decided here.
    if kept.is_empty() { set } else { kept }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Deterministic pseudo-random numbers (Knuth's MMIX LCG), to avoid a `rand` dependency.
    struct Lcg(u64);

    impl Lcg {
        fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
            self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            let unit = (self.0 >> 11) as f64 / (1u64 << 53) as f64;
            lo + (hi - lo) * unit
        }

        fn below(&mut self, k: usize) -> usize {
            (self.uniform(0.0, k as f64) as usize).min(k - 1)
        }
    }

    fn solve(m: &DMatrix<f64>, q: &DVector<f64>) -> Result<LcpSolution, LcpFailure> {
        solve_lemke(m, q, &LemkeOptions::default())
    }

    /// Asserts that `sol` solves LCP(m, q) to `tol` and that its fields are consistent.
    fn assert_solves(m: &DMatrix<f64>, q: &DVector<f64>, sol: &LcpSolution, tol: f64) {
        let w = m * &sol.z + q;
        assert_eq!(sol.w, w, "w must be M z + q");
        assert!(sol.z.iter().all(|&v| v >= 0.0), "z has negative entries: {}", sol.z);
        assert!(sol.w.iter().all(|&v| v >= -tol), "w too negative: {}", sol.w);
        assert!(sol.residual <= tol, "residual {} > {tol}", sol.residual);
        assert_eq!(sol.residual, residual(m, q, &sol.z));
    }

    fn random_positive_definite(rng: &mut Lcg, n: usize) -> DMatrix<f64> {
        let a = DMatrix::from_fn(n, n, |_, _| rng.uniform(-1.0, 1.0));
        a.transpose() * &a + DMatrix::identity(n, n) * 0.1
    }

    #[test]
    fn nonnegative_q_gives_zero_without_pivots() {
        let m = DMatrix::from_row_slice(2, 2, &[-1.0, 3.0, 2.0, -5.0]);
        let q = DVector::from_vec(vec![0.0, 2.5]);
        let sol = solve(&m, &q).unwrap();
        assert_eq!(sol.z, DVector::zeros(2));
        assert_eq!(sol.w, q);
        assert_eq!(sol.pivots, 0);
        assert_eq!(sol.residual, 0.0);
    }

    #[test]
    fn small_positive_definite_by_hand() {
        let m = DMatrix::from_row_slice(2, 2, &[2.0, 1.0, 1.0, 2.0]);
        // Both components active: 2 z1 + z2 = 5, z1 + 2 z2 = 6.
        let q = DVector::from_vec(vec![-5.0, -6.0]);
        let sol = solve(&m, &q).unwrap();
        assert!((sol.z[0] - 4.0 / 3.0).abs() <= 1e-12 && (sol.z[1] - 7.0 / 3.0).abs() <= 1e-12, "{}", sol.z);
        assert!(sol.w.amax() <= 1e-12);
        assert!(sol.residual <= 1e-12);
        // One component inactive: z = (1/2, 0), w = (0, 5/2).
        let q = DVector::from_vec(vec![-1.0, 2.0]);
        let sol = solve(&m, &q).unwrap();
        assert!((sol.z[0] - 0.5).abs() <= 1e-12 && sol.z[1] == 0.0, "{}", sol.z);
        assert!(sol.w[0].abs() <= 1e-12 && (sol.w[1] - 2.5).abs() <= 1e-12, "{}", sol.w);
        assert!(sol.residual <= 1e-12);
    }

    #[test]
    fn residual_is_the_natural_map_infinity_norm() {
        let m = DMatrix::identity(2, 2);
        let q = DVector::from_vec(vec![-1.0, 1.0]);
        assert_eq!(residual(&m, &q, &DVector::zeros(2)), 1.0);
        assert_eq!(residual(&m, &q, &DVector::from_vec(vec![1.0, 0.0])), 0.0);
        assert_eq!(residual(&m, &q, &DVector::from_vec(vec![1.0, -0.25])), 0.25);
        assert_eq!(residual(&m, &q, &DVector::zeros(3)), f64::INFINITY);
    }

    #[test]
    fn random_positive_definite_problems() {
        let mut rng = Lcg(12345);
        for _ in 0..50 {
            let n = 10 + rng.below(31);
            let m = random_positive_definite(&mut rng, n);
            let q = DVector::from_fn(n, |_, _| rng.uniform(-1.0, 1.0));
            let sol = solve(&m, &q).unwrap_or_else(|e| panic!("n = {n}: {e}"));
            assert_solves(&m, &q, &sol, 1e-9);
            assert!(sol.pivots >= 1);
        }
    }

    #[test]
    fn nonsymmetric_p_matrices() {
        // z2 = 1 makes w2 = 0 and w1 = z1 + 1 > 0, so z = (0, 1), w = (1, 0).
        let m = DMatrix::from_row_slice(2, 2, &[1.0, 2.0, 0.0, 1.0]);
        let q = DVector::from_vec(vec![-1.0, -1.0]);
        let sol = solve(&m, &q).unwrap();
        assert!(sol.z[0] == 0.0 && (sol.z[1] - 1.0).abs() <= 1e-12, "{}", sol.z);
        assert!((sol.w[0] - 1.0).abs() <= 1e-12 && sol.w[1].abs() <= 1e-12, "{}", sol.w);
        // Strictly row diagonally dominant with a positive diagonal: a P-matrix.
        let mut rng = Lcg(777);
        for _ in 0..20 {
            let n = 5 + rng.below(26);
            let mut m = DMatrix::from_fn(n, n, |_, _| rng.uniform(-1.0, 1.0));
            for i in 0..n {
                let off: f64 = m.row(i).iter().map(|v| v.abs()).sum::<f64>() - m[(i, i)].abs();
                m[(i, i)] = off + rng.uniform(0.1, 1.0);
            }
            let q = DVector::from_fn(n, |_, _| rng.uniform(-1.0, 1.0));
            let sol = solve(&m, &q).unwrap_or_else(|e| panic!("n = {n}: {e}"));
            assert_solves(&m, &q, &sol, 1e-9);
        }
    }

    #[test]
    fn degenerate_problems_terminate() {
        // Every ratio ties: all-ones M (PSD) and equal q; any z ≥ 0 with Σz = 1 solves it.
        let m = DMatrix::from_element(3, 3, 1.0);
        let q = DVector::from_element(3, -1.0);
        let sol = solve(&m, &q).unwrap();
        assert_solves(&m, &q, &sol, 1e-12);
        assert!((sol.z.sum() - 1.0).abs() <= 1e-12);
        // Cyclic P-matrix with equal q: unique solution z = (1/3, 1/3, 1/3). Breaking the ties
        // by lowest row index instead of lexicographically cycles here until the pivot cap.
        let m = DMatrix::from_row_slice(3, 3, &[1.0, 2.0, 0.0, 0.0, 1.0, 2.0, 2.0, 0.0, 1.0]);
        let sol = solve(&m, &q).unwrap();
        assert!(sol.z.iter().all(|&v| (v - 1.0 / 3.0).abs() <= 1e-12), "{}", sol.z);
        // q_2 = 0 makes a basic variable zero (degenerate pivot): z = (1/3, 0, 1/3).
        let m = DMatrix::from_row_slice(3, 3, &[2.0, 1.0, 1.0, 1.0, 2.0, 1.0, 1.0, 1.0, 2.0]);
        let q = DVector::from_vec(vec![-1.0, 0.0, -1.0]);
        let sol = solve(&m, &q).unwrap();
        assert!((sol.z[0] - 1.0 / 3.0).abs() <= 1e-12 && sol.z[1] == 0.0, "{}", sol.z);
        assert!((sol.z[2] - 1.0 / 3.0).abs() <= 1e-12 && (sol.w[1] - 2.0 / 3.0).abs() <= 1e-12);
        // Integer matrices M = AᵀA (+ I) where A = [B, B] repeats its columns, so M repeats
        // rows and columns, and q ∈ {−1, 0}: ratios tie at almost every pivot.
        let mut rng = Lcg(4242);
        let mut solved_psd = 0;
        for trial in 0..40 {
            let half = 2 + rng.below(6);
            let b = DMatrix::from_fn(half, half, |_, _| rng.below(3) as f64);
            let mut a = DMatrix::zeros(half, 2 * half);
            a.columns_mut(0, half).copy_from(&b);
            a.columns_mut(half, half).copy_from(&b);
            let mut m = a.transpose() * a;
            let definite = trial % 2 == 0;
            if definite {
                m += DMatrix::identity(2 * half, 2 * half);
            }
            let q = DVector::from_fn(2 * half, |_, _| -(rng.below(2) as f64));
            match solve(&m, &q) {
                Ok(sol) => {
                    assert_solves(&m, &q, &sol, 1e-9);
                    solved_psd += usize::from(!definite);
                }
                // PSD is copositive-plus, so a ray certifies infeasibility; but definite
                // problems always have a solution, and a cap or residual failure is a bug.
                Err(LcpFailure::RayTermination { .. }) if !definite => {}
                Err(e) => panic!("trial {trial}: {e}"),
            }
        }
        assert!(solved_psd > 0);
    }

    #[test]
    fn infeasible_problems_end_on_a_ray() {
        // w = −z − 1 < 0 for every z ≥ 0.
        let m = DMatrix::from_element(1, 1, -1.0);
        let q = DVector::from_element(1, -1.0);
        assert_eq!(solve(&m, &q), Err(LcpFailure::RayTermination { pivots: 1 }));
        // w1 + w2 = −2 for every z, so both cannot be non-negative.
        let m = DMatrix::from_row_slice(2, 2, &[1.0, -1.0, -1.0, 1.0]);
        let q = DVector::from_vec(vec![-1.0, -1.0]);
        assert!(matches!(solve(&m, &q), Err(LcpFailure::RayTermination { .. })));
    }

    #[test]
    fn pivot_cap_is_reported() {
        let m = DMatrix::from_row_slice(2, 2, &[2.0, 1.0, 1.0, 2.0]);
        let q = DVector::from_vec(vec![-5.0, -6.0]);
        let options = LemkeOptions { max_pivots: Some(1), ..LemkeOptions::default() };
        assert_eq!(solve_lemke(&m, &q, &options), Err(LcpFailure::PivotCap { pivots: 1 }));
        let needed = solve(&m, &q).unwrap().pivots;
        assert!(needed > 1);
        let options = LemkeOptions { max_pivots: Some(needed), ..LemkeOptions::default() };
        assert!(solve_lemke(&m, &q, &options).is_ok());
    }

    #[test]
    fn malformed_input_is_rejected() {
        let is_malformed = |r: Result<LcpSolution, LcpFailure>| matches!(r, Err(LcpFailure::Malformed(_)));
        let square = DMatrix::identity(2, 2);
        let q = DVector::from_vec(vec![-1.0, -1.0]);
        assert!(is_malformed(solve(&DMatrix::zeros(2, 3), &q)));
        assert!(is_malformed(solve(&square, &DVector::from_vec(vec![-1.0, -1.0, 0.0]))));
        let mut nan = square.clone();
        nan[(1, 0)] = f64::NAN;
        assert!(is_malformed(solve(&nan, &q)));
        assert!(is_malformed(solve(&square, &DVector::from_vec(vec![f64::INFINITY, -1.0]))));
        let options = LemkeOptions { pivot_tolerance: f64::NAN, ..LemkeOptions::default() };
        assert!(is_malformed(solve_lemke(&square, &q, &options)));
    }

    #[test]
    fn solutions_are_deterministic() {
        let mut rng = Lcg(99);
        let m = random_positive_definite(&mut rng, 30);
        let q = DVector::from_fn(30, |_, _| rng.uniform(-1.0, 1.0));
        let first = solve(&m, &q).unwrap();
        let second = solve(&m, &q).unwrap();
        let bits = |v: &DVector<f64>| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&first.z), bits(&second.z));
        assert_eq!(first.pivots, second.pivots);
    }

    /// Stewart–Trinkle LCP of a point mass on the ground (normal +z) with friction directions
    /// ±x, ±y. Unknowns (p_n, β1..β4, λ); returns (N, q, D).
    fn point_contact(
        mass: f64,
        v: [f64; 3],
        mu: f64,
        h: f64,
        g: f64,
    ) -> (DMatrix<f64>, DVector<f64>, DMatrix<f64>) {
        let inv_mass = DMatrix::identity(3, 3) / mass;
        let normal = DMatrix::from_column_slice(3, 1, &[0.0, 0.0, 1.0]);
        #[rustfmt::skip]
        let d = DMatrix::from_column_slice(3, 4, &[
            1.0, 0.0, 0.0,  0.0, 1.0, 0.0,  -1.0, 0.0, 0.0,  0.0, -1.0, 0.0,
        ]);
        let mut n_mat = DMatrix::zeros(6, 6);
        n_mat.view_mut((0, 0), (1, 1)).copy_from(&(normal.transpose() * &inv_mass * &normal));
        n_mat.view_mut((0, 1), (1, 4)).copy_from(&(normal.transpose() * &inv_mass * &d));
        n_mat.view_mut((1, 0), (4, 1)).copy_from(&(d.transpose() * &inv_mass * &normal));
        n_mat.view_mut((1, 1), (4, 4)).copy_from(&(d.transpose() * &inv_mass * &d));
        n_mat.view_mut((1, 5), (4, 1)).fill(1.0); // E
        n_mat[(5, 0)] = mu;
        n_mat.view_mut((5, 1), (1, 4)).fill(-1.0); // −Eᵀ
        // Free velocity after the gravity impulse.
        let free = DVector::from_vec(vec![v[0], v[1], v[2] - h * g]);
        let mut q = DVector::zeros(6);
        q[0] = free[2];
        q.rows_mut(1, 4).copy_from(&(d.transpose() * &free));
        (n_mat, q, d)
    }

    #[test]
    fn frictional_point_contact() {
        let (mass, h, g, mu) = (1.0, 0.01, 9.81, 0.3);
        // Resting: the normal impulse cancels gravity and friction stays zero.
        let (n_mat, q, d) = point_contact(mass, [0.0; 3], mu, h, g);
        let sol = solve(&n_mat, &q).unwrap();
        assert_solves(&n_mat, &q, &sol, 1e-12);
        assert!((sol.z[0] - mass * g * h).abs() <= 1e-12, "p_n = {}", sol.z[0]);
        assert!(sol.z.rows(1, 5).amax() <= 1e-12, "β, λ = {}", sol.z.rows(1, 5));
        // Sliding along +x at 1 m/s: friction is on the cone, opposing the slip (β3 = μ p_n).
        let (n_mat, q, d2) = point_contact(mass, [1.0, 0.0, 0.0], mu, h, g);
        assert_eq!(d, d2);
        let sol = solve(&n_mat, &q).unwrap();
        assert_solves(&n_mat, &q, &sol, 1e-12);
        let p_n = sol.z[0];
        let beta = sol.z.rows(1, 4);
        assert!((p_n - mass * g * h).abs() <= 1e-12, "p_n = {p_n}");
        assert!((beta.sum() - mu * p_n).abs() <= 1e-12, "β = {beta}");
        assert!((beta[2] - mu * p_n).abs() <= 1e-12, "β = {beta}");
        let friction = &d * beta;
        assert!((friction[0] + mu * p_n).abs() <= 1e-12 && friction[1].abs() <= 1e-12);
        // λ is the remaining slip speed 1 − μ g h.
        assert!((sol.z[5] - (1.0 - mu * g * h)).abs() <= 1e-12, "λ = {}", sol.z[5]);
    }
}
