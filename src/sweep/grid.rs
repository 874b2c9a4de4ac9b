//! The runs of a sweep: `--set KEY=V1,V2,…` lists (their cartesian product) and `--samples N`
//! Latin-hypercube samples of `--range KEY=LO:HI` intervals.

use super::SweepError;
use toml::Value;

/// One run's values: each swept key with the value it takes, in the order the keys were given.
pub type Assignment = Vec<(String, Value)>;

/// The most runs a sweep may have: beyond this the summary alone would not fit in memory.
pub const MAX_RUNS: usize = 1_000_000;

/// Every run of a sweep, in order.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// The swept keys: the `--set` keys, then the `--range` keys.
    pub keys: Vec<String>,
    pub runs: Vec<Assignment>,
}

/// A `--set` list: the key and its values.
#[derive(Clone, Debug, PartialEq)]
pub struct SetList {
    pub key: String,
    pub values: Vec<Value>,
}

/// A `--range` interval for Latin-hypercube sampling.
#[derive(Clone, Debug, PartialEq)]
pub struct Range {
    pub key: String,
    pub lo: f64,
    pub hi: f64,
}

impl Plan {
    /// The cartesian product of `sets` (the first key varies slowest), each combination with
    /// every one of `samples` Latin-hypercube points of `ranges` (the same points for every
    /// combination), drawn from `seed`.
    pub fn new(
        sets: &[SetList],
        ranges: &[Range],
        samples: Option<usize>,
        seed: u64,
    ) -> Result<Plan, SweepError> {
        let keys: Vec<String> =
            sets.iter().map(|s| s.key.clone()).chain(ranges.iter().map(|r| r.key.clone())).collect();
        for (i, k) in keys.iter().enumerate() {
            if keys[..i].contains(k) {
                return Err(SweepError::Argument {
                    arg: k.clone(),
                    problem: "the key is given twice".into(),
                    fix: "give each key once (one --set with all its values, or one --range)".into(),
                });
            }
        }
        let points = match (samples, ranges.is_empty()) {
            (None, true) => vec![Vec::new()],
            (Some(0), _) => {
                return Err(argument(
                    "--samples 0",
                    "a sweep needs at least one sample",
                    "give --samples N with N ≥ 1",
                ));
            }
            (Some(_), true) => {
                return Err(argument(
                    "--samples",
                    "there is no --range to sample",
                    "add --range KEY=LO:HI for each key to sample",
                ));
            }
            (Some(n), false) if n > MAX_RUNS => {
                return Err(argument(
                    &format!("--samples {n}"),
                    &format!("more than the {MAX_RUNS} runs a sweep may take"),
                    &format!("give --samples N with N ≤ {MAX_RUNS}"),
                ));
            }
            (Some(n), false) => latin_hypercube(ranges, n, seed),
            (None, false) => {
                return Err(argument(
                    "--range",
                    "there is no --samples N",
                    "add --samples N (the number of Latin-hypercube samples)",
                ));
            }
        };
        if let Some(empty) = sets.iter().find(|s| s.values.is_empty()) {
            return Err(argument(&empty.key, "the key has no values", "give at least one value"));
        }
        if sets.is_empty() && ranges.is_empty() {
            return Err(argument(
                "sweep",
                "nothing to sweep",
                "give --set KEY=V1,V2,… or --samples N with --range KEY=LO:HI",
            ));
        }
        let combinations = sets.iter().try_fold(1usize, |n, s| n.checked_mul(s.values.len()));
        let total = combinations.and_then(|c| c.checked_mul(points.len()));
        if total.is_none_or(|t| t > MAX_RUNS) {
            return Err(argument("sweep", &format!("more than {MAX_RUNS} runs"), "sweep fewer values"));
        }
        let mut runs = Vec::with_capacity(total.unwrap_or(0));
        let mut index = vec![0usize; sets.len()];
        loop {
            for point in &points {
                let mut run: Assignment =
                    sets.iter().zip(&index).map(|(s, &i)| (s.key.clone(), s.values[i].clone())).collect();
                run.extend(ranges.iter().zip(point).map(|(r, &x)| (r.key.clone(), Value::Float(x))));
                runs.push(run);
            }
            // The last key varies fastest.
            let Some(k) = (0..sets.len()).rev().find(|&k| index[k] + 1 < sets[k].values.len()) else { break };
            index[k] += 1;
            index[k + 1..].fill(0);
        }
        Ok(Plan { keys, runs })
    }
}

fn argument(arg: &str, problem: &str, fix: &str) -> SweepError {
    SweepError::Argument { arg: arg.into(), problem: problem.into(), fix: fix.into() }
}

/// Reads `KEY=V1,V2,…`. Each value is a TOML value (`0.2`, `"dopri5"`, `[0, 0, 1]`, `true`); a
/// bare word that is not one is a string (`sim.integrator=dopri5`). Commas inside brackets or
/// quotes do not split.
pub fn parse_set(arg: &str) -> Result<SetList, SweepError> {
    let (key, values) = key_and_rest(arg, "--set", "KEY=V1,V2,… (e.g. body.ball.contact.friction=0.2,0.4)")?;
    let values: Vec<Value> = split_values(values).into_iter().map(parse_value).collect();
    if values.iter().any(|v| matches!(v, Value::String(s) if s.is_empty())) {
        return Err(argument(&format!("--set {arg}"), "a value is empty", "give values between the commas"));
    }
    Ok(SetList { key, values })
}

/// Reads `KEY=LO:HI` with finite LO < HI.
pub fn parse_range(arg: &str) -> Result<Range, SweepError> {
    let (key, rest) = key_and_rest(arg, "--range", "KEY=LO:HI (e.g. body.ball.contact.friction=0.1:0.9)")?;
    let bad =
        |problem: &str| argument(&format!("--range {arg}"), problem, "write KEY=LO:HI with numbers LO < HI");
    let (lo, hi) = rest.split_once(':').ok_or_else(|| bad("there is no `:` between LO and HI"))?;
    let number = |s: &str| s.trim().parse::<f64>().ok().filter(|x| x.is_finite());
    let (Some(lo), Some(hi)) = (number(lo), number(hi)) else {
        return Err(bad("LO or HI is not a finite number"));
    };
    Range::new(key, lo, hi)
}

impl Range {
    /// The interval [lo, hi) of `key`: finite, lo < hi.
    pub fn new(key: String, lo: f64, hi: f64) -> Result<Range, SweepError> {
        if !(lo.is_finite() && hi.is_finite() && lo < hi) {
            return Err(argument(
                &format!("range of {key}"),
                &format!("[{lo}, {hi}) is not an interval of finite numbers with LO < HI"),
                "give finite bounds LO < HI",
            ));
        }
        Ok(Range { key, lo, hi })
    }
}

fn key_and_rest<'a>(arg: &'a str, flag: &str, form: &str) -> Result<(String, &'a str), SweepError> {
    let Some((key, rest)) = arg.split_once('=') else {
        return Err(argument(&format!("{flag} {arg}"), "there is no `=`", &format!("write {form}")));
    };
    let key = key.trim();
    if key.is_empty() || key.split('.').any(str::is_empty) {
        return Err(argument(
            &format!("{flag} {arg}"),
            "the key is empty or has an empty part",
            &format!("write {form}"),
        ));
    }
    Ok((key.to_owned(), rest))
}

/// Splits at commas outside brackets, braces and quotes.
fn split_values(text: &str) -> Vec<&str> {
    let (mut depth, mut quote, mut start, mut parts) = (0i32, None, 0, Vec::new());
    for (i, c) in text.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '[' | '{') => depth += 1,
            (None, ']' | '}') => depth -= 1,
            (None, ',') if depth == 0 => {
                parts.push(text[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(text[start..].trim());
    parts
}

/// A TOML value, or the text as a string when it is not one.
pub fn parse_value(text: &str) -> Value {
    toml::from_str::<toml::Table>(&format!("v = {text}"))
        .ok()
        .and_then(|mut t| t.remove("v"))
        .unwrap_or_else(|| Value::String(text.to_owned()))
}

/// A value as a summary cell: numbers in their shortest exact form, strings bare.
pub fn display_value(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Float(x) => crate::app::Shortest(*x).to_string(),
        other => other.to_string(),
    }
}

/// `n` Latin-hypercube points in the ranges: each range cut into `n` equal strata, one point
/// at a random place in each, the strata of the ranges matched by random permutations.
fn latin_hypercube(ranges: &[Range], n: usize, seed: u64) -> Vec<Vec<f64>> {
    let mut rng = SplitMix64(seed);
    let mut points = vec![Vec::with_capacity(ranges.len()); n];
    for r in ranges {
        let mut strata: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            let j = (rng.next() % (i as u64 + 1)) as usize;
            strata.swap(i, j);
        }
        for (point, &s) in points.iter_mut().zip(&strata) {
            let u = (s as f64 + rng.unit()) / n as f64;
            // Round-off can reach hi itself; the interval is half open.
            let x = r.lo + u * (r.hi - r.lo);
            point.push(if x < r.hi { x } else { r.hi.next_down() });
        }
    }
    points
}

/// A small, fixed pseudo-random sequence (SplitMix64): the same seed gives the same samples on
/// every machine.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// In [0, 1).
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_split_outside_brackets_and_quotes() {
        let s = parse_set("body.ball.position=[0, 0, 1],[0,0,2]").unwrap();
        assert_eq!(s.values.len(), 2);
        assert_eq!(s.values[1], parse_value("[0, 0, 2]"));
        let s = parse_set("sim.integrator=dopri5,\"a,b\",1e-3").unwrap();
        assert_eq!(
            s.values,
            vec![Value::String("dopri5".into()), Value::String("a,b".into()), Value::Float(1e-3)]
        );
        assert!(parse_set("sim.dt=1e-3,").is_err());
        assert!(parse_set("sim..dt=1").is_err());
        assert!(parse_set("sim.dt").is_err());
    }

    #[test]
    fn the_product_varies_the_last_key_fastest() {
        let sets = [parse_set("a=1,2").unwrap(), parse_set("b=x,y,z").unwrap()];
        let plan = Plan::new(&sets, &[], None, 0).unwrap();
        assert_eq!(plan.runs.len(), 6);
        let text: Vec<String> = plan
            .runs
            .iter()
            .map(|r| r.iter().map(|(_, v)| display_value(v)).collect::<Vec<_>>().join(" "))
            .collect();
        assert_eq!(text, ["1 x", "1 y", "1 z", "2 x", "2 y", "2 z"]);
    }

    #[test]
    fn latin_hypercube_fills_every_stratum_once_and_repeats_with_its_seed() {
        let ranges = [parse_range("a=0:1").unwrap(), parse_range("b=-2:2").unwrap()];
        let plan = Plan::new(&[], &ranges, Some(10), 7).unwrap();
        for (k, r) in ranges.iter().enumerate() {
            let mut strata: Vec<usize> = plan
                .runs
                .iter()
                .map(|run| {
                    let Value::Float(x) = run[k].1 else { panic!() };
                    assert!((r.lo..r.hi).contains(&x));
                    ((x - r.lo) / (r.hi - r.lo) * 10.0).floor() as usize
                })
                .collect();
            strata.sort();
            assert_eq!(strata, (0..10).collect::<Vec<_>>());
        }
        assert_eq!(plan, Plan::new(&[], &ranges, Some(10), 7).unwrap());
        assert_ne!(plan, Plan::new(&[], &ranges, Some(10), 8).unwrap());
    }

    #[test]
    fn bad_arguments_say_how_to_fix_them() {
        for (sets, ranges, samples) in [
            (vec![], vec![], None),
            (vec![], vec![parse_range("a=0:1").unwrap()], None),
            (vec![parse_set("a=1").unwrap()], vec![], Some(3)),
            (vec![parse_set("a=1").unwrap(), parse_set("a=2").unwrap()], vec![], None),
        ] {
            let e = Plan::new(&sets, &ranges, samples, 0).unwrap_err().to_string();
            assert!(e.contains("give") || e.contains("add"), "{e}");
        }
        // A sample count past the run cap is refused before any sample is drawn.
        let range = [parse_range("a=0:1").unwrap()];
        let e = Plan::new(&[], &range, Some(1_000_000_000_000), 0).unwrap_err().to_string();
        assert!(e.contains("--samples 1000000000000") && e.contains("N ≤ 1000000"), "{e}");
        assert!(Plan::new(&[], &range, Some(MAX_RUNS + 1), 0).is_err());
        assert!(parse_range("a=1:1").is_err());
        assert!(parse_range("a=1").is_err());
        assert!(parse_range("a=x:2").is_err());
    }
}
