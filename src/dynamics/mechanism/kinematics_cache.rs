//! The last two forward kinematics of a mechanism, kept with the coordinates they were computed
//! at: a step asks for one state's kinematics several times (the contact models' poses, the
//! joint forces, the energy watch), and holds the start's while it evaluates an iterate.

use super::super::coordinates::articulation::Kinematics;
use std::sync::{Arc, Mutex};

/// A kept kinematics: the bits of (q, v) and the kinematics there.
type Entry = (Vec<u64>, Arc<Kinematics>);

#[derive(Debug, Default)]
pub struct KinematicsCache(Mutex<[Option<Entry>; 2]>);

impl Clone for KinematicsCache {
    /// A clone starts empty (its mechanism may be changed before it is used).
    fn clone(&self) -> Self {
        KinematicsCache::default()
    }
}

impl KinematicsCache {
    /// The kinematics at (q, v): a kept one when q and v are bit for bit those it was computed
    /// at, else `compute`'s, which replaces the older entry (reusing its storage when no one
    /// holds it).
    pub fn get(&self, q: &[f64], v: &[f64], compute: impl FnOnce(&mut Kinematics)) -> Arc<Kinematics> {
        let mut slots = self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let bits = q.iter().chain(v).map(|x| x.to_bits());
        let matches = |entry: &Option<Entry>| {
            entry.as_ref().is_some_and(|(key, _)| {
                key.len() == q.len() + v.len() && key.iter().copied().eq(bits.clone())
            })
        };
        // Slot 0 is the newer.
        if matches(&slots[0]) {
            return Arc::clone(&slots[0].as_ref().expect("a matching entry").1);
        }
        if matches(&slots[1]) {
            slots.swap(0, 1);
            return Arc::clone(&slots[0].as_ref().expect("a matching entry").1);
        }
        let (mut key, mut kin) = slots[1].take().unwrap_or_default();
        if Arc::get_mut(&mut kin).is_none() {
            kin = Arc::default();
        }
        compute(Arc::get_mut(&mut kin).expect("a kinematics no one else holds"));
        key.clear();
        key.extend(bits);
        slots[1] = Some((key, Arc::clone(&kin)));
        slots.swap(0, 1);
        kin
    }
}
