//! Text form of `f64` for data files: exact, compact and parseable.

use std::fmt;

/// Displays an `f64` as its shortest round-trip decimal: plain for moderate magnitudes, with an
/// exponent otherwise (Rust's plain form of 1e-300 would be 300 digits long). `NaN`, `inf` and
/// `-inf` are written as such; Rust, Python and pandas parse them back.
#[derive(Clone, Copy, Debug)]
pub struct Shortest(pub f64);

/// Bytes of the longest text: `-2.2250738585072014e-308`.
const TEXT_BYTES: usize = 24;

/// A number's text in a fixed array, after a comma, as [`NumberCache`] keeps it: copied whole
/// (with the comma before it, or without), without a call to `memcpy` for its length.
#[derive(Clone, Copy, Debug)]
pub(super) struct NumberText {
    /// `,` and the text.
    bytes: [u8; TEXT_BYTES + 1],
    len: u8,
}

impl NumberText {
    /// The text of 0.
    const ZERO: NumberText = {
        let mut bytes = [0u8; TEXT_BYTES + 1];
        (bytes[0], bytes[1]) = (b',', b'0');
        NumberText { bytes, len: 1 }
    };

    /// Sets the text to `written`, bytes just appended to a row: copied from there rather than
    /// from the formatter's buffer a second time, with loads that match those stores.
    fn set(&mut self, written: &[u8]) {
        self.bytes[1..1 + written.len()].copy_from_slice(written);
        self.len = written.len() as u8;
    }

    /// Appends the text to `out`, after a comma with `comma`: the whole array (a fixed-size
    /// copy), then the spare bytes cut.
    pub(super) fn append_to(&self, out: &mut Vec<u8>, comma: bool) {
        let len = out.len() + usize::from(comma) + usize::from(self.len);
        out.extend_from_slice(if comma { &self.bytes } else { &self.bytes[1..] });
        out.truncate(len);
    }
}

impl Shortest {
    /// Appends the text to `out` (what `Display` writes, without the formatter's overhead: data
    /// files hold millions of numbers).
    pub(super) fn append_to(self, out: &mut Vec<u8>) {
        let mut buffer = zmij::Buffer::new();
        let (head, tail) = self.pieces(&mut buffer);
        out.extend_from_slice(head.as_bytes());
        out.extend_from_slice(tail.as_bytes());
    }

    /// The text in two pieces (an exponent's "+" dropped between them), formatted in `buffer`.
    fn pieces(self, buffer: &mut zmij::Buffer) -> (&str, &str) {
        let x = self.0;
        // Exact zeros are common (fixed bodies, bodies at rest): no digit search for them.
        if x.to_bits() == 0 {
            return ("0", "");
        }
        if !x.is_finite() {
            let text = if x.is_nan() {
                "NaN"
            } else if x > 0.0 {
                "inf"
            } else {
                "-inf"
            };
            return (text, "");
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

/// The texts of the numbers last written in each column of a table's rows: a number equal to the
/// one above it (a body at rest, a fixed body, a constant force) is copied, not formatted again.
#[derive(Debug, Default)]
pub(super) struct NumberCache {
    /// Per cell: the number's bits and its text.
    cells: Vec<(u64, NumberText)>,
}

impl NumberCache {
    /// The cells `first..first + n`, with their texts.
    pub(super) fn cells(&mut self, first: usize, n: usize) -> &mut [(u64, NumberText)] {
        if first + n > self.cells.len() {
            self.cells.resize(first + n, (0, NumberText::ZERO));
        }
        &mut self.cells[first..first + n]
    }
}

/// Appends the text of `x` to `out` (after a comma with `comma`), from `cell` when it holds the
/// same number.
pub(super) fn append_cached(cell: &mut (u64, NumberText), x: f64, out: &mut Vec<u8>, comma: bool) {
    let (bits, text) = cell;
    if *bits == x.to_bits() {
        text.append_to(out, comma);
        return;
    }
    // A new number goes out from the formatter's buffer, and into the cell from the row: a text
    // built in the cell and copied out at once would be loaded before its stores can be
    // forwarded (perf put a third of the writer's time on that load).
    if comma {
        out.push(b',');
    }
    let start = out.len();
    Shortest(x).append_to(out);
    *bits = x.to_bits();
    text.set(&out[start..]);
}

#[cfg(test)]
mod tests {
    use super::{NumberCache, Shortest, append_cached};

    #[test]
    fn a_cached_cell_writes_what_formatting_writes() {
        // Repeats, zeros of both signs (one bit apart), NaN, exponents, a fresh cache cell.
        let numbers = [0.1, 0.1, -0.0, 0.0, 0.0, f64::NAN, f64::NAN, 1e16, 1e16, -2.5e-300, 0.1];
        let mut cache = NumberCache::default();
        for first in [0, 3] {
            let mut out = Vec::new();
            for (i, x) in numbers.into_iter().enumerate() {
                append_cached(&mut cache.cells(first, 1)[0], x, &mut out, i > 0);
            }
            let expected: Vec<String> = numbers.iter().map(|x| Shortest(*x).to_string()).collect();
            assert_eq!(String::from_utf8(out).unwrap(), expected.join(","));
            assert_eq!(expected.join(","), "0.1,0.1,-0,0,0,NaN,NaN,1e16,1e16,-2.5e-300,0.1");
        }
    }

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
