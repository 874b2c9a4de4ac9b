//! Actuators on scalar joints: a motor (a commanded effort through a gear), a position servo
//! (PD about a target) and a velocity servo (D about a target velocity), each with an optional
//! symmetric limit on its effort; and their targets in time.

/// A value over time: constant, or piecewise-linear through points (t, value) with strictly
/// increasing times ≥ 0, held before the first and after the last.
#[derive(Clone, Debug, PartialEq)]
pub enum Schedule {
    Constant(f64),
    /// At least one point.
    Points(Vec<(f64, f64)>),
}

impl Schedule {
    /// The value at time `t`.
    pub fn at(&self, t: f64) -> f64 {
        match self {
            Schedule::Constant(v) => *v,
            Schedule::Points(p) => match Self::segment(p, t) {
                Segment::Before => p[0].1,
                Segment::After => p[p.len() - 1].1,
                Segment::Inside(k) => {
                    let ((t0, v0), (t1, v1)) = (p[k], p[k + 1]);
                    let s = (t - t0) / (t1 - t0);
                    v0 + s * (v1 - v0)
                }
            },
        }
    }

    /// The slope at time `t`: that of the segment starting at or before `t`; 0 outside the
    /// points and for a constant.
    pub fn rate(&self, t: f64) -> f64 {
        match self {
            Schedule::Constant(_) => 0.0,
            Schedule::Points(p) => match Self::segment(p, t) {
                Segment::Before | Segment::After => 0.0,
                Segment::Inside(k) => {
                    let ((t0, v0), (t1, v1)) = (p[k], p[k + 1]);
                    (v1 - v0) / (t1 - t0)
                }
            },
        }
    }

    /// Every value the schedule takes at its points (its extremes lie among them).
    pub fn values(&self) -> Vec<f64> {
        match self {
            Schedule::Constant(v) => vec![*v],
            Schedule::Points(p) => p.iter().map(|&(_, v)| v).collect(),
        }
    }

    fn segment(p: &[(f64, f64)], t: f64) -> Segment {
        match p {
            [] => Segment::Before,
            _ if t.is_nan() || t < p[0].0 => Segment::Before,
            _ if t >= p[p.len() - 1].0 => Segment::After,
            // p[0].0 ≤ t < p[last].0: the last point with time ≤ t starts the segment.
            _ => Segment::Inside(p.partition_point(|&(ti, _)| ti <= t) - 1),
        }
    }
}

enum Segment {
    Before,
    After,
    Inside(usize),
}

/// What an actuator does, with its own parameters.
#[derive(Clone, Debug, PartialEq)]
pub enum ActuatorKind {
    /// Effort `gear · effort(t)` (N or N·m) on the joint.
    Motor { gear: f64, effort: Schedule },
    /// A PD servo: `kp · (target − q) + kd · (target_velocity − v)`.
    Position { kp: f64, kd: f64, target: Schedule, target_velocity: Schedule },
    /// A velocity servo: `kd · (target − v)`.
    Velocity { kd: f64, target: Schedule },
}

impl ActuatorKind {
    /// The spelling in a scene file (`kind`).
    pub fn key(&self) -> &'static str {
        match self {
            ActuatorKind::Motor { .. } => "motor",
            ActuatorKind::Position { .. } => "position",
            ActuatorKind::Velocity { .. } => "velocity",
        }
    }
}

/// An actuator on joint `joint` (a scalar joint) of a mechanism.
#[derive(Clone, Debug, PartialEq)]
pub struct Actuator {
    pub name: String,
    pub joint: usize,
    pub kind: ActuatorKind,
    /// The largest magnitude of its effort (`None`: unlimited).
    pub effort_limit: Option<f64>,
}

/// An actuator's effort on its joint at (t, q, v), and its derivatives with respect to q and v
/// (zero where the effort is at its limit).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Effort {
    pub effort: f64,
    pub stiffness: f64,
    pub damping: f64,
}

impl Actuator {
    /// Its effort on the joint (after the gear) at time `t`, coordinate `q`, velocity `v`.
    pub fn effort(&self, t: f64, q: f64, v: f64) -> Effort {
        let (raw, stiffness, damping, gear) = match &self.kind {
            ActuatorKind::Motor { gear, effort } => (effort.at(t), 0.0, 0.0, *gear),
            ActuatorKind::Position { kp, kd, target, target_velocity } => {
                (kp * (target.at(t) - q) + kd * (target_velocity.at(t) - v), *kp, *kd, 1.0)
            }
            ActuatorKind::Velocity { kd, target } => (kd * (target.at(t) - v), 0.0, *kd, 1.0),
        };
        match self.effort_limit {
            Some(limit) if raw.abs() > limit => {
                Effort { effort: gear * limit.copysign(raw), stiffness: 0.0, damping: 0.0 }
            }
            _ => Effort { effort: gear * raw, stiffness, damping },
        }
    }

    /// Sets its target (a servo) or commanded effort (a motor) to a constant.
    pub fn set_command(&mut self, value: f64) {
        match &mut self.kind {
            ActuatorKind::Motor { effort, .. } => *effort = Schedule::Constant(value),
            ActuatorKind::Position { target, .. } | ActuatorKind::Velocity { target, .. } => {
                *target = Schedule::Constant(value)
            }
        }
    }
}

/// Joint `follower` held at ratio·q_leader + offset (both scalar joints).
#[derive(Clone, Debug, PartialEq)]
pub struct Coupler {
    pub follower: usize,
    pub leader: usize,
    pub ratio: f64,
    pub offset: f64,
}
