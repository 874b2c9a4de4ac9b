//! What a model remembers between steps, saved and put back with a run's state.

/// What a model remembers between steps (Hertz: the damping of each active contact, fixed
/// at impact, keyed by pair); empty for models without memory.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ContactMemory(pub std::collections::BTreeMap<(usize, usize), f64>);
