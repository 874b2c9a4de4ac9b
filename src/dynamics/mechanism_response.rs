//! A mechanism in the impulse-based steps (`time_stepping`, `peg_step`): its independent joint
//! velocities without contact over a step — gravity, Coriolis and applied loads explicit, joint
//! springs, damping and servos implicit, (H + dt·D + dt²·K)·Δu = dt·Gᵀ·(τ − b − dt·K·v) — each
//! link's centre-of-mass velocity there, and how an impulse on one link moves every link:
//! Λ_ki = J_k·A⁻¹·J_iᵀ, J the links' centre-of-mass Jacobians (rows: velocity, angular
//! velocity; world), A the matrix above. Joint limits are held after the contact impulses: a
//! joint that would cross its limit in the step gets the impulse that stops it on the limit
//! ([`MechanismResponse::hold_limits`]; inelastic, so it removes energy, never adds it).

use super::error::DynamicsError;
use super::mechanism::{Limits, Mechanism};
use super::world::World;
use nalgebra::{DMatrix, DVector, Dyn, LU, Matrix6, Vector6};

pub(super) struct MechanismResponse {
    /// Link k's world body.
    pub bodies: Vec<usize>,
    jacobians: Vec<DMatrix<f64>>,
    factor: LU<f64, Dyn, Dyn>,
    /// The independent velocities without contact.
    pub free_motion: DVector<f64>,
    /// Λ_ki, row-major.
    coupling: Vec<Matrix6<f64>>,
}

impl MechanismResponse {
    pub fn new(world: &World, m: &Mechanism, t: f64, y: &[f64], dt: f64) -> Result<Self, DynamicsError> {
        let (q, v) = (m.q(y), m.v(y));
        let kin = m.kinematics(y);
        let a = &m.articulation;
        let forces = m.joint_forces(t, q, v, Limits::Constraints);
        // Applied loads on the links, as link forces.
        let force: Vec<_> = world.bodies.iter().map(|b| b.force).collect();
        let torque: Vec<_> = world.bodies.iter().map(|b| b.torque).collect();
        let external = m.link_forces(&kin, &force, &torque);
        let bias = a.inverse_dynamics(&kin, v, None, &world.gravity, Some(&external));
        let mut matrix = a.mass_matrix(&kin);
        let mut rhs = vec![0.0; a.nv()];
        for dof in 0..a.nv() {
            matrix[(dof, dof)] += dt * forces.damping[dof] + dt * dt * forces.stiffness[dof];
            rhs[dof] = dt * (forces.tau[dof] - bias[dof] - dt * forces.stiffness[dof] * v[dof]);
        }
        let factor = m.reduce_matrix(matrix).lu();
        let change = factor.solve(&m.reduce(&rhs)).ok_or_else(singular)?;
        let free_motion = m.independent_velocities(v) + change;
        let jacobians: Vec<DMatrix<f64>> = (0..a.links.len())
            .map(|k| m.reduce_columns(&a.point_jacobian(&kin, k, &m.com(&kin, k))))
            .collect();
        let n = jacobians.len();
        let mut coupling = Vec::with_capacity(n * n);
        let responses: Vec<DMatrix<f64>> = jacobians
            .iter()
            .map(|j| factor.solve(&j.transpose()).ok_or_else(singular))
            .collect::<Result<_, _>>()?;
        for jk in &jacobians {
            for response in &responses {
                coupling.push(Matrix6::from_iterator((jk * response).iter().copied()));
            }
        }
        Ok(MechanismResponse {
            bodies: a.links.iter().map(|l| l.body).collect(),
            jacobians,
            factor,
            free_motion,
            coupling,
        })
    }

    /// The link that body `body` is.
    pub fn link_of(&self, body: usize) -> Option<usize> {
        self.bodies.iter().position(|&b| b == body)
    }

    /// Link k's centre-of-mass velocity and angular velocity without contact.
    pub fn velocity(&self, k: usize) -> Vector6<f64> {
        Vector6::from_iterator((&self.jacobians[k] * &self.free_motion).iter().copied())
    }

    /// Λ_ki: link k's velocity change per unit wrench (force, torque about its centre) on link i.
    pub fn coupling(&self, k: usize, i: usize) -> &Matrix6<f64> {
        &self.coupling[k * self.bodies.len() + i]
    }

    /// The independent velocities `u` with the joint impulses that keep every limited joint of
    /// `m` on its side of its limits at the end of a step of `dt` from coordinates `q`: the
    /// joints that would cross are stopped on the limit together (one small solve), a joint
    /// whose impulse would pull it onto the limit left free.
    pub fn hold_limits(&self, m: &Mechanism, q: &[f64], u: DVector<f64>, dt: f64) -> DVector<f64> {
        let v = m.expand(u.as_slice());
        // (independent column, required velocity of that column, lower limit?)
        let mut active: Vec<(usize, f64, bool)> = Vec::new();
        for &(dof, bound, lower) in m.limited_dofs() {
            let q = q[m.q_of_dof(dof)];
            let next = q + dt * v[dof];
            if (lower && next < bound) || (!lower && next > bound) {
                active.push((m.column(dof), (bound - q) / dt / m.ratio(dof), lower));
            }
        }
        for _ in 0..=active.len() {
            if active.is_empty() {
                break;
            }
            // (E·A⁻¹·Eᵀ)·λ = target − E·u, E selecting the limited columns.
            let n = u.len();
            let columns: Vec<DVector<f64>> = active
                .iter()
                .map(|&(col, _, _)| {
                    let mut e = DVector::zeros(n);
                    e[col] = 1.0;
                    self.factor.solve(&e).unwrap_or_else(|| DVector::zeros(n))
                })
                .collect();
            let c = active.len();
            let schur = DMatrix::from_fn(c, c, |r, s| columns[s][active[r].0]);
            let gap = DVector::from_fn(c, |r, _| active[r].1 - u[active[r].0]);
            let Some(lambda) = schur.lu().solve(&gap) else { break };
            // A limit pushes away from itself only: one that would pull is released.
            let pulls = |r: usize| if active[r].2 { lambda[r] < 0.0 } else { lambda[r] > 0.0 };
            if let Some(r) = (0..c).find(|&r| pulls(r)) {
                active.remove(r);
                continue;
            }
            let mut held = u.clone();
            for (r, column) in columns.iter().enumerate() {
                held += column * lambda[r];
            }
            return held;
        }
        u
    }

    /// The independent velocities after `wrenches` (impulses on each link, force and torque
    /// about its centre of mass) on top of `base`.
    pub fn after(&self, base: &DVector<f64>, wrenches: &[Vector6<f64>]) -> DVector<f64> {
        let mut tau = DVector::zeros(base.len());
        for (j, w) in self.jacobians.iter().zip(wrenches) {
            tau += j.transpose() * w;
        }
        base + self.factor.solve(&tau).unwrap_or_else(|| DVector::zeros(base.len()))
    }
}

fn singular() -> DynamicsError {
    DynamicsError::Setup(
        "the mechanism's mass matrix is singular: give every moving link mass and inertia".into(),
    )
}
