//! The last forward kinematics of a mechanism, kept with the coordinates it was computed at: a
//! step asks for one state's kinematics several times (the contact models' poses, the joint
//! forces, the energy watch), and each pass costs a sine and cosine per joint.

use super::super::coordinates::articulation::Kinematics;
use std::sync::{Arc, Mutex};

#[derive(Debug, Default)]
pub struct KinematicsCache(Mutex<Option<(Vec<u64>, Arc<Kinematics>)>>);

impl Clone for KinematicsCache {
    /// A clone starts empty (its mechanism may be changed before it is used).
    fn clone(&self) -> Self {
        KinematicsCache::default()
    }
}

impl KinematicsCache {
    /// The kinematics at (q, v): the kept one when q and v are bit for bit those it was
    /// computed at, else `compute`'s (into the kept one's storage when no one holds it), which
    /// is then kept.
    pub fn get(&self, q: &[f64], v: &[f64], compute: impl FnOnce(&mut Kinematics)) -> Arc<Kinematics> {
        let mut slot = self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let bits = q.iter().chain(v).map(|x| x.to_bits());
        if let Some((key, kin)) = slot.as_ref()
            && key.len() == q.len() + v.len()
            && key.iter().copied().eq(bits.clone())
        {
            return Arc::clone(kin);
        }
        let (mut key, mut kin) = match slot.take() {
            Some((key, kin)) => (key, kin),
            None => (Vec::new(), Arc::new(Kinematics::default())),
        };
        if Arc::get_mut(&mut kin).is_none() {
            kin = Arc::new(Kinematics::default());
        }
        compute(Arc::get_mut(&mut kin).expect("a kinematics no one else holds"));
        key.clear();
        key.extend(bits);
        *slot = Some((key, Arc::clone(&kin)));
        kin
    }
}
