//! Text form of `f64` for data files: exact, compact and parseable.

use std::fmt;

/// Displays an `f64` as its shortest round-trip decimal: plain for moderate magnitudes, with an
/// exponent otherwise (Rust's plain form of 1e-300 would be 300 digits long). `NaN`, `inf` and
/// `-inf` are written as such; Rust, Python and pandas parse them back.
#[derive(Clone, Copy, Debug)]
pub(super) struct Shortest(pub f64);

impl fmt::Display for Shortest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let a = self.0.abs();
        if a == 0.0 || !a.is_finite() || (1e-5..1e16).contains(&a) {
            write!(f, "{}", self.0)
        } else {
            write!(f, "{:e}", self.0)
        }
    }
}
