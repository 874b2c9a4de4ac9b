//! Text form of `f64` for data files: exact, compact and parseable.

use std::fmt;

/// Displays an `f64` as its shortest round-trip decimal: plain for moderate magnitudes, with an
/// exponent otherwise (Rust's plain form of 1e-300 would be 300 digits long). `NaN`, `inf` and
/// `-inf` are written as such; Rust, Python and pandas parse them back.
#[derive(Clone, Copy, Debug)]
pub struct Shortest(pub f64);

impl Shortest {
    /// Appends the text to `out` (what `Display` writes, without the formatter's overhead: data
    /// files hold millions of numbers).
    pub(super) fn append_to(self, out: &mut Vec<u8>) {
        // Exact zeros are common (fixed bodies, bodies at rest): no digit search for them.
        if self.0.to_bits() == 0 {
            out.push(b'0');
            return;
        }
        let mut buffer = zmij::Buffer::new();
        let (head, tail) = self.pieces(&mut buffer);
        out.extend_from_slice(head.as_bytes());
        if !tail.is_empty() {
            out.extend_from_slice(tail.as_bytes());
        }
    }

    /// The text in two pieces (an exponent's "+" dropped between them), formatted in `buffer`.
    fn pieces(self, buffer: &mut zmij::Buffer) -> (&str, &str) {
        let x = self.0;
        if !x.is_finite() {
            return (
                if x.is_nan() {
                    "NaN"
                } else if x > 0.0 {
                    "inf"
                } else {
                    "-inf"
                },
                "",
            );
        }
        // Shortest round-trip digits by Schubfach (zmij: about twice as fast as Ryū, which
        // matters when outputs are written every step); integers keep no ".0", exponents no "+".
        let text = buffer.format_finite(x);
        let text = text.strip_suffix(".0").unwrap_or(text);
        // Exponents are written from 1e16 up (zmij's "1e+16"); smaller numbers need no scan.
        match if x.abs() >= 1e15 { text.find('+') } else { None } {
            Some(plus) => (&text[..plus], &text[plus + 1..]),
            None => (text, ""),
        }
    }
}

impl fmt::Display for Shortest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut buffer = zmij::Buffer::new();
        let (head, tail) = self.pieces(&mut buffer);
        f.write_str(head)?;
        f.write_str(tail)
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
