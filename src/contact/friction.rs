//! How a pair's friction coefficient follows from its two bodies', the same in every model.

/// Two bodies' friction coefficients combined as their harmonic mean 2μ_aμ_b/(μ_a + μ_b) (0 when
/// both are 0), as every model combines them.
pub fn combined_friction(a: f64, b: f64) -> f64 {
    if a + b > 0.0 { 2.0 * a * b / (a + b) } else { 0.0 }
}
