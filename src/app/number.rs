//! Text form of `f64` for data files: exact, compact and parseable.

use std::fmt;

/// Displays an `f64` as its shortest round-trip decimal: plain for moderate magnitudes, with an
/// exponent otherwise (Rust's plain form of 1e-300 would be 300 digits long). `NaN`, `inf` and
/// `-inf` are written as such; Rust, Python and pandas parse them back.
#[derive(Clone, Copy, Debug)]
pub(super) struct Shortest(pub f64);

impl fmt::Display for Shortest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let x = self.0;
        if !x.is_finite() {
            return write!(f, "{x}");
        }
        // Ryū's shortest round-trip digits (several times faster than the standard library's,
        // which matters when outputs are written every step); integers keep no ".0".
        let mut buffer = ryu::Buffer::new();
        let text = buffer.format_finite(x);
        f.write_str(text.strip_suffix(".0").unwrap_or(text))
    }
}
