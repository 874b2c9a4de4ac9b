//! Actuators on scalar joints: a motor (a commanded effort through a gear), a position servo
//! (PD about a target) and a velocity servo (D about a target velocity), each with an optional
//! symmetric limit on its effort; and their targets in time.

/// A value in time: constant, or piecewise-linear through (time, value) points with strictly
/// increasing times, held before the first and after the last.
#[derive(Clone, Debug, PartialEq)]
pub enum Schedule {
    Constant(f64),
    Points(Vec<(f64, f64)>),
}

impl Schedule {
    /// The value at time `t`.
    pub fn at(&self, t: f64) -> f64 {
        match self {
            Schedule::Constant(v) => *v,
            Schedule::Points(points) => {
                let (first, last) = (points[0], points[points.len() - 1]);
                if t <= first.0 {
                    return first.1;
                }
                if t >= last.0 {
                    return last.1;
                }
                let k = points.partition_point(|p| p.0 <= t).clamp(1, points.len() - 1);
                let ((t0, v0), (t1, v1)) = (points[k - 1], points[k]);
                v0 + (v1 - v0) * (t - t0) / (t1 - t0)
            }
        }
    }

    /// The values it takes (the constant, or every point's), for range checks.
    pub fn values(&self) -> Vec<f64> {
        match self {
            Schedule::Constant(v) => vec![*v],
            Schedule::Points(points) => points.iter().map(|p| p.1).collect(),
        }
    }
}

/// What an actuator does.
#[derive(Clone, Debug, PartialEq)]
pub enum ActuatorKind {
    /// Joint effort gear·effort(t).
    Motor { gear: f64, effort: Schedule },
    /// kp·(target − q) + kd·(target_velocity − v).
    Position { kp: f64, kd: f64, target: Schedule, target_velocity: Schedule },
    /// kd·(target − v).
    Velocity { kd: f64, target: Schedule },
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
