//! Text form of `f64` for data files: exact, compact and parseable.

use std::fmt;

/// Displays an `f64` as its shortest round-trip decimal: plain for moderate magnitudes, with an
/// exponent otherwise (Rust's plain form of 1e-300 would be 300 digits long). `NaN`, `inf` and
/// `-inf` are written as such; Rust, Python and pandas parse them back.
#[derive(Clone, Copy, Debug)]
pub(super) struct Shortest(pub f64);

impl Shortest {
    /// Appends the text to `out` (what `Display` writes, without the formatter's overhead: data
    /// files hold millions of numbers).
    pub(super) fn append_to(self, out: &mut Vec<u8>) {
        let x = self.0;
        if !x.is_finite() {
            out.extend_from_slice(if x.is_nan() {
                b"NaN"
            } else if x > 0.0 {
                b"inf"
            } else {
                b"-inf"
            });
            return;
        }
        // Shortest round-trip digits by Schubfach (zmij: about twice as fast as Ryū, which
        // matters when outputs are written every step); integers keep no ".0", exponents no "+".
        let mut buffer = zmij::Buffer::new();
        let text = buffer.format_finite(x);
        let text = text.strip_suffix(".0").unwrap_or(text);
        // Exponents are written from 1e16 up (zmij's "1e+16"); smaller numbers need no scan.
        let plus = if x.abs() >= 1e15 { text.bytes().position(|b| b == b'+') } else { None };
        match plus {
            Some(plus) => {
                out.extend_from_slice(&text.as_bytes()[..plus]);
                out.extend_from_slice(&text.as_bytes()[plus + 1..]);
            }
            None => out.extend_from_slice(text.as_bytes()),
        }
    }
}

impl fmt::Display for Shortest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = Vec::with_capacity(32);
        self.append_to(&mut text);
        // The bytes are ASCII digits, signs, '.', 'e', "NaN" and "inf".
        f.write_str(std::str::from_utf8(&text).map_err(|_| fmt::Error)?)
    }
}

#[cfg(test)]
mod tests {
    use super::Shortest;

    #[test]
    fn numbers_are_shortest_round_trip_without_plus_signs_or_trailing_zeros() {
        let cases = [
            (0.0, "0"),
            (1.0, "1"),
            (-2.5, "-2.5"),
            (0.1, "0.1"),
            (1e-7, "1e-7"),
            (1e16, "1e16"),
            (1e300, "1e300"),
            (5e-324, "5e-324"),
            (f64::NAN, "NaN"),
            (f64::INFINITY, "inf"),
            (f64::NEG_INFINITY, "-inf"),
        ];
        for (x, text) in cases {
            assert_eq!(Shortest(x).to_string(), text);
        }
        // Parsing the text gives back the same bits, over many magnitudes.
        let mut x = 0.123_456_789_012_345_67_f64;
        for k in 0..20_000 {
            x = -x * 1.000_123_7 + 1e-9 * f64::from(k);
            for v in [x, x * 1e-200, x * 1e200] {
                let text = Shortest(v).to_string();
                assert_eq!(text.parse::<f64>().unwrap().to_bits(), v.to_bits(), "{text}");
            }
        }
    }
}
