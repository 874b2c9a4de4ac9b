//! A run's values written into the base scene: keys are dotted paths into the scene's TOML
//! (`sim.dt`, `model.kind`, `body.NAME.contact.friction`, `body.NAME.position.2`), where
//! `body.NAME` is the `[[body]]` of that name and a number indexes an array.

use super::{Assignment, SweepError};
use toml::{Table, Value};

/// The base scene with `run`'s values in it, as TOML text (validated later, by the same path
/// as any scene file).
pub fn scene_text(base: &Table, run: &Assignment) -> Result<String, SweepError> {
    let mut table = base.clone();
    for (key, value) in run {
        apply(&mut table, key, value.clone())?;
    }
    toml::to_string(&table).map_err(|e| SweepError::Key {
        key: run.iter().map(|(k, _)| k.as_str()).collect::<Vec<_>>().join(", "),
        problem: format!("the scene cannot be written back as TOML ({e})"),
        fix: "give values TOML can hold".into(),
    })
}

/// Sets `key` (a dotted path) to `value` in `table`; missing tables on the way are created.
pub fn apply(table: &mut Table, key: &str, value: Value) -> Result<(), SweepError> {
    let segments: Vec<&str> = key.split('.').collect();
    let error = |problem: String, fix: &str| SweepError::Key { key: key.into(), problem, fix: fix.into() };
    let (mut place, rest): (&mut Value, &[&str]) = if segments[0] == "body" {
        if segments.len() < 3 {
            return Err(error("a body key needs the body's name and a key".into(), "write body.NAME.KEY"));
        }
        let Some(bodies) = table.get_mut("body").and_then(Value::as_array_mut) else {
            return Err(error("the scene has no [[body]]".into(), "sweep keys of the scene's bodies"));
        };
        let names: Vec<Option<String>> =
            bodies.iter().map(|b| b.get("name").and_then(Value::as_str).map(String::from)).collect();
        // A name may hold dots: the longest name the key starts with (and a key after it).
        let after = &key["body.".len()..];
        let found = names
            .iter()
            .enumerate()
            .filter_map(|(i, n)| n.as_deref().map(|n| (i, n)))
            .filter(|(_, n)| {
                after.len() > n.len() + 1 && after.starts_with(n) && after[n.len()..].starts_with('.')
            })
            .max_by_key(|(_, n)| n.len());
        let Some((index, name)) = found else {
            let listed: Vec<&str> = names.iter().flatten().map(String::as_str).collect();
            return Err(error(
                format!("the scene has no body named `{}`", segments[1]),
                &format!("use one of: {}", listed.join(", ")),
            ));
        };
        let used = name.split('.').count();
        (&mut bodies[index], &segments[1 + used..])
    } else {
        let Some(first) = table.get_mut(segments[0]) else {
            if segments.len() == 1 {
                table.insert(segments[0].into(), value);
                return Ok(());
            }
            table.insert(segments[0].into(), Value::Table(Table::new()));
            return apply(table, key, value);
        };
        if segments.len() == 1 {
            *first = value;
            return Ok(());
        }
        (first, &segments[1..])
    };
    for (k, segment) in rest.iter().enumerate() {
        let last = k + 1 == rest.len();
        place = match place {
            Value::Table(t) => {
                if last {
                    t.insert((*segment).into(), value);
                    return Ok(());
                }
                t.entry(*segment).or_insert_with(|| Value::Table(Table::new()))
            }
            Value::Array(items) => {
                let len = items.len();
                let Some(item) = segment.parse::<usize>().ok().and_then(|i| items.get_mut(i)) else {
                    return Err(error(
                        format!("`{segment}` is not an index of the array there ({len} items)"),
                        &format!("index it with 0 to {}", len.saturating_sub(1)),
                    ));
                };
                if last {
                    *item = value;
                    return Ok(());
                }
                item
            }
            other => {
                return Err(error(
                    format!("`{segment}` is under a {} value, not a table", other.type_str()),
                    "end the key at that value, or check the key's path in docs/scene.md",
                ));
            }
        };
    }
    unreachable!("the loop returns at the last segment")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base() -> Table {
        toml::from_str(
            r#"
[sim]
duration = 1.0
[[body]]
name = "ground"
position = [0.0, 0.0, 0.0]
[[body]]
name = "ball"
position = [0.0, 0.0, 0.1]
contact = { friction = 0.5 }
"#,
        )
        .unwrap()
    }

    #[test]
    fn keys_reach_bodies_by_name_tables_and_array_items() {
        let mut t = base();
        apply(&mut t, "body.ball.contact.friction", Value::Float(0.2)).unwrap();
        apply(&mut t, "body.ball.position.2", Value::Float(0.3)).unwrap();
        apply(&mut t, "sim.dt", Value::Float(1e-4)).unwrap();
        apply(&mut t, "model.kind", Value::String("hertz".into())).unwrap();
        let ball = &t["body"].as_array().unwrap()[1];
        assert_eq!(ball["contact"]["friction"].as_float(), Some(0.2));
        assert_eq!(ball["position"][2].as_float(), Some(0.3));
        assert_eq!(t["body"][0]["position"][2].as_float(), Some(0.0));
        assert_eq!(t["sim"]["dt"].as_float(), Some(1e-4));
        assert_eq!(t["model"]["kind"].as_str(), Some("hertz"));
    }

    #[test]
    fn keys_that_lead_nowhere_are_errors_that_name_the_way() {
        let mut t = base();
        let e = apply(&mut t, "body.bal.mass", Value::Float(1.0)).unwrap_err().to_string();
        assert!(e.contains("no body named `bal`") && e.contains("ground, ball"), "{e}");
        let e = apply(&mut t, "body.ball.position.3", Value::Float(1.0)).unwrap_err().to_string();
        assert!(e.contains("3 items"), "{e}");
        let e = apply(&mut t, "sim.duration.x", Value::Float(1.0)).unwrap_err().to_string();
        assert!(e.contains("float"), "{e}");
        assert!(apply(&mut t, "body.ball", Value::Float(1.0)).is_err());
    }

    #[test]
    fn body_names_may_hold_dots() {
        let mut t: Table = toml::from_str(
            "[[body]]\nname = \"arm\"\nmass = 1.0\n[[body]]\nname = \"arm.damped\"\nmass = 1.0\n",
        )
        .unwrap();
        apply(&mut t, "body.arm.damped.mass", Value::Float(2.0)).unwrap();
        apply(&mut t, "body.arm.mass", Value::Float(3.0)).unwrap();
        assert_eq!(t["body"][1]["mass"].as_float(), Some(2.0));
        assert_eq!(t["body"][0]["mass"].as_float(), Some(3.0));
    }
}
