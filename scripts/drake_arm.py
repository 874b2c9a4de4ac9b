"""Drake beside contactlab on examples/pd_arm.toml: a 7-link arm under gravity held by PD servos,
no contact. Run with the anchors venv ($HOME/.cache/contactlab-anchors, ../shared/anchors/setup.sh).

The arm (as scripts/mujoco_arm.py): revolute joints with axes z,y,z,y,z,y,z, each link's frame at
its joint, joint origins 0.1 m (first) then 0.2 m along the parent's z; link i (1-based) of mass
1.5 - 0.15 (i - 1) kg, centre of mass 0.1 m along its z, central principal inertia
[0.02, 0.02, 0.004]; limits +-2.8, damping 0.1 (RevoluteJoint), armature 0.01 (the actuator's
rotor inertia at gear ratio 1); gravity -9.81 z (Drake's default).

Servos: a JointActuator per joint (no effort limit) with PdControllerGains(p=200, d=10), which
the discrete SAP plant treats implicitly; desired state from a TrajectorySource: positions
ramping linearly from 0 at t = 0 to Q_END at t = 1 s then held, desired velocities 0 (as
contactlab's servo: kp (target - q) + kd (0 - v)). The actuation input port is left unconnected
(zero feed-forward).

Plant: discrete, time_step 1 ms, SAP (discrete_contact_approximation="sap"), contact model
hydroelastic. Geometry: with the default (--geometry) every link has the scene's capsule
(radius 0.03, straight part 0.1 m, centred 0.1 m along its z) registered as compliant
hydroelastic collision geometry (modulus 1e7 Pa, resolution hint 0.02 m), as in
examples/pd_arm.toml, so the contact query runs every step (Drake filters parent/child pairs by
default; no pair touches). `--no-geometry` registers none (printed on its own line by
scripts/bench_arm.sh for reference).

Timing: one untimed warm-up run, then best of three fresh runs (a new diagram, context and
Simulator each, Initialize untimed), each timing Simulator.AdvanceTo(2.0) = 2000 steps. One
thread (Drake's Simulator steps on the calling thread; OMP_NUM_THREADS=1 is set by the caller).
"""
import sys, time
import numpy as np
from pydrake.all import (DiagramBuilder, AddMultibodyPlant, MultibodyPlantConfig, SpatialInertia,
    RotationalInertia, RevoluteJoint, FixedOffsetFrame, RigidTransform, PdControllerGains,
    PiecewisePolynomial, TrajectorySource, Simulator, Capsule, ProximityProperties,
    AddCompliantHydroelasticProperties, AddContactMaterial, CoulombFriction)
from importlib.metadata import version

Q_END = np.array([0.5, -0.6, 0.3, -1.2, 0.4, 0.8, -0.5])
AXES = [[0, 0, 1], [0, 1, 0]] * 3 + [[0, 0, 1]]
DT, T_END, RAMP = 0.001, 2.0, 1.0


def build(geometry: bool):
    b = DiagramBuilder()
    plant, sg = AddMultibodyPlant(MultibodyPlantConfig(time_step=DT, contact_model="hydroelastic",
                                                       discrete_contact_approximation="sap"), b)
    parent = plant.world_body()
    for i in range(7):
        mass = 1.5 - 0.15 * i
        body = plant.AddRigidBody(f"link{i+1}", SpatialInertia.MakeFromCentralInertia(
            mass, [0, 0, 0.1], RotationalInertia(0.02, 0.02, 0.004)))
        if geometry:
            p = ProximityProperties()
            AddCompliantHydroelasticProperties(0.02, 1e7, p)
            AddContactMaterial(friction=CoulombFriction(0.5, 0.5), properties=p)
            plant.RegisterCollisionGeometry(body, RigidTransform([0, 0, 0.1]), Capsule(0.03, 0.1), f"c{i+1}", p)
        origin = plant.AddFrame(FixedOffsetFrame(f"origin{i+1}", parent.body_frame(),
                                                 RigidTransform([0, 0, 0.1 if i == 0 else 0.2])))
        joint = plant.AddJoint(RevoluteJoint(f"joint{i+1}", origin, body.body_frame(), AXES[i],
                                             -2.8, 2.8, 0.1))
        act = plant.AddJointActuator(f"servo{i+1}", joint)
        act.set_default_rotor_inertia(0.01)
        act.set_default_gear_ratio(1.0)
        act.set_controller_gains(PdControllerGains(p=200.0, d=10.0))
        parent = body
    plant.Finalize()
    knots = np.zeros((14, 3))
    knots[:7, 1] = knots[:7, 2] = Q_END
    traj = b.AddSystem(TrajectorySource(PiecewisePolynomial.FirstOrderHold([0.0, RAMP, T_END], knots)))
    b.Connect(traj.get_output_port(), plant.get_desired_state_input_port(plant.GetModelInstanceByName("DefaultModelInstance")))
    dg = b.Build()
    sim = Simulator(dg)
    sim.Initialize()
    return sim, plant, plant.GetMyContextFromRoot(sim.get_context())


def best_of_three(geometry):
    sim, plant, pc = build(geometry)
    sim.AdvanceTo(T_END)  # warm-up, untimed
    best, q = float("inf"), None
    for _ in range(3):
        sim, plant, pc = build(geometry)
        t0 = time.perf_counter()
        sim.AdvanceTo(T_END)
        best = min(best, time.perf_counter() - t0)
        q = plant.GetPositions(pc).copy()
    return best, q


geometry = "--no-geometry" not in sys.argv
wall, q = best_of_three(geometry)
steps = int(round(T_END / DT))
fmt = lambda q: "[" + ", ".join(f"{x:.5f}" for x in q) + "]"
label = "capsules" if geometry else "no_geometry"
print(f"drake {version('drake')}, SAP, dt {DT}, {steps} steps")
print(f"drake_arm {label:11s} steps={steps} wall_s={wall:.5f} steps_per_s={steps / wall:.0f} q_final={fmt(q)}")
