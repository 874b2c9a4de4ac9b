//! The Hertz model's settings of material pairs: what a scene's `[[model.pair]]` tables set (the
//! scene parses and checks them; the model adds them to its palette).

/// Hertz contact properties of two materials (by material or body name).
#[derive(Clone, Debug, PartialEq)]
pub struct PairSpec {
    pub a: String,
    pub b: String,
    pub restitution: f64,
    pub sliding_friction: f64,
    pub rolling_resistance: f64,
    pub v_small: f64,
    pub w_small: f64,
}
