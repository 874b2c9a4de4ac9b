//! Numbers on the page, rounded: short text, and nothing moves visibly.

use crate::math::Point3;

/// Positions on the page are rounded to a power of ten between 1e-5 and 1e-4 of the scene's
/// size; meshes and patches carry them as integers in that unit.
#[derive(Clone, Copy, Debug)]
pub struct Quantum {
    /// Decimals kept (negative: tens, hundreds, …).
    decimals: i32,
}

impl Quantum {
    pub fn for_extent(extent: f64) -> Quantum {
        let extent = if extent.is_finite() && extent > 0.0 { extent } else { 1.0 };
        Quantum { decimals: 5 - extent.log10().ceil() as i32 }
    }

    /// The unit (m) of [`Quantum::int`].
    pub fn unit(self) -> f64 {
        round_decimals(10f64.powi(-self.decimals), self.decimals)
    }

    pub fn round(self, x: f64) -> f64 {
        round_decimals(x, self.decimals)
    }

    /// `x` as a whole number of units.
    pub fn int(self, x: f64) -> i64 {
        if !x.is_finite() {
            return 0;
        }
        if self.decimals >= 0 {
            (x * 10f64.powi(self.decimals)).round() as i64
        } else {
            (x / 10f64.powi(-self.decimals)).round() as i64
        }
    }

    pub fn point(self, p: &Point3) -> [f64; 3] {
        [self.round(p.x), self.round(p.y), self.round(p.z)]
    }

    pub fn int_point(self, p: &Point3) -> [i64; 3] {
        [self.int(p.x), self.int(p.y), self.int(p.z)]
    }
}

/// `x` rounded to `decimals` decimal places: the division by an exact power of ten makes the
/// shortest text of the result that decimal.
pub fn round_decimals(x: f64, decimals: i32) -> f64 {
    if !x.is_finite() {
        return 0.0;
    }
    if decimals >= 0 {
        let scale = 10f64.powi(decimals.min(300));
        (x * scale).round() / scale
    } else {
        let scale = 10f64.powi((-decimals).min(300));
        (x / scale).round() * scale
    }
}

/// `x` rounded to `digits` significant digits.
pub fn significant(x: f64, digits: i32) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return 0.0;
    }
    round_decimals(x, digits - 1 - x.abs().log10().floor() as i32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_gives_short_decimals() {
        assert_eq!(serde_json::to_string(&round_decimals(0.300_000_4, 4)).unwrap(), "0.3");
        assert_eq!(serde_json::to_string(&significant(123_456.0, 3)).unwrap(), "123000.0");
        assert_eq!(significant(-0.001_234_56, 3), -0.001_23);
        assert_eq!(round_decimals(1234.0, -2), 1200.0);
    }

    #[test]
    fn the_quantum_follows_the_scene_size() {
        assert_eq!(Quantum::for_extent(2.0).round(0.123_456_78), 0.123_5);
        assert_eq!(Quantum::for_extent(0.05).round(0.123_456_78), 0.123_457);
        let q = Quantum::for_extent(0.05);
        assert_eq!((q.int(0.123_456_78), q.unit()), (123_457, 1e-6));
        let q = Quantum::for_extent(3e6);
        assert_eq!((q.int(123_456.0), q.unit()), (1235, 100.0));
    }
}
