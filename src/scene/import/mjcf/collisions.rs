//! Which pairs of links never touch in MuJoCo, as exclusions: bodies of one weld group (welded
//! together, or both static), a weld group and its parent group (MuJoCo's parent filter, on by
//! default), and pairs none of whose geoms pass the contype/conaffinity test
//! `(contype_a & conaffinity_b) || (contype_b & conaffinity_a)`.

use super::bodies::Tree;
use std::collections::HashSet;

/// The exclusions: the file's own (`explicit`) first, then the filtered pairs, without
/// repeats and without a joint's parent link and child (which never touch anyway). Also returns
/// the pairs whose geoms only partly pass the mask test (exclusions here are per link).
pub(super) fn excludes(tree: &Tree, explicit: Vec<(String, String)>) -> (Vec<(String, String)>, Vec<String>) {
    // Every body with collision geoms, and the world.
    let world = Entity { name: "world", weld: 0, parent_weld: 0, masks: &tree.world_masks };
    let entities: Vec<Entity> = std::iter::once(world)
        .chain(tree.bodies.iter().map(|b| Entity {
            name: &b.link,
            weld: b.weld,
            parent_weld: b.parent_weld,
            masks: &b.masks,
        }))
        .filter(|e| !e.masks.is_empty())
        .collect();
    // A joint's parent and child never touch (the scene's rule); the world is no joint's
    // parent there, so its geoms are filtered here.
    let joined: HashSet<(&str, &str)> =
        tree.joints.iter().filter_map(|j| Some((j.parent.as_deref()?, j.child.as_str()))).collect();
    let key =
        |a: &str, b: &str| if a <= b { (a.to_owned(), b.to_owned()) } else { (b.to_owned(), a.to_owned()) };
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for (a, b) in explicit {
        if seen.insert(key(&a, &b)) {
            out.push((a, b));
        }
    }
    let mut partial = Vec::new();
    for (i, ea) in entities.iter().enumerate() {
        for eb in &entities[i + 1..] {
            let (a, weld_a, pw_a, masks_a) = (ea.name, ea.weld, ea.parent_weld, ea.masks);
            let (b, weld_b, pw_b, masks_b) = (eb.name, eb.weld, eb.parent_weld, eb.masks);
            let filtered =
                weld_a == weld_b || (weld_a != 0 && weld_b != 0 && (weld_a == pw_b || weld_b == pw_a));
            let total = masks_a.len() * masks_b.len();
            let touching = masks_a
                .iter()
                .flat_map(|&(ta, ca)| masks_b.iter().map(move |&(tb, cb)| (ta & cb) != 0 || (tb & ca) != 0))
                .filter(|t| *t)
                .count();
            if filtered || touching == 0 {
                if !joined.contains(&(a, b)) && !joined.contains(&(b, a)) && seen.insert(key(a, b)) {
                    out.push((a.to_owned(), b.to_owned()));
                }
            } else if touching < total {
                partial.push(format!("{a}–{b}"));
            }
        }
    }
    let warnings = if partial.is_empty() {
        Vec::new()
    } else {
        vec![format!(
            "contype/conaffinity let only some geoms of these link pairs touch, but exclusions are per link, so all \
             of their geoms will: {}",
            partial.join(", ")
        )]
    };
    (out, warnings)
}

struct Entity<'t> {
    name: &'t str,
    weld: usize,
    parent_weld: usize,
    /// `(contype, conaffinity)` of each collision geom.
    masks: &'t [(u32, u32)],
}
