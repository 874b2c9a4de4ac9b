//! Numbers for messages: short and readable at any magnitude.

/// `x` as Rust prints it when moderate (1e-4 ≤ |x| < 1e7, or 0), else with an exponent and at
/// most four significant digits (Rust's plain form of 1e-300 would be 300 digits long).
pub fn compact(x: f64) -> String {
    let a = x.abs();
    if a == 0.0 || !a.is_finite() || (1e-4..1e7).contains(&a) {
        return format!("{x}");
    }
    let s = format!("{x:.3e}");
    match s.split_once('e') {
        Some((mantissa, exponent)) => {
            let mantissa = if mantissa.contains('.') {
                mantissa.trim_end_matches('0').trim_end_matches('.')
            } else {
                mantissa
            };
            format!("{mantissa}e{exponent}")
        }
        None => s,
    }
}

#[cfg(test)]
mod tests {
    use super::compact;

    #[test]
    fn moderate_numbers_stay_plain_and_extreme_ones_get_short_exponents() {
        assert_eq!(compact(0.5), "0.5");
        assert_eq!(compact(4.298), "4.298");
        assert_eq!(compact(0.0), "0");
        assert_eq!(compact(-1e300), "-1e300");
        assert_eq!(compact(5e298), "5e298");
        assert_eq!(compact(1.0434217452144435e-12), "1.043e-12");
        assert_eq!(compact(1e9), "1e9");
    }
}
