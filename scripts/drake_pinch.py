"""Drake beside contactlab on examples/gripper_pinch.toml: two PD-driven fingers on prismatic
joints pinch a 100 g box under hydroelastic contact. Run with the anchors venv
($HOME/.cache/contactlab-anchors, ../shared/anchors/setup.sh); scripts/bench_pinch.sh runs it.

The scene (as examples/gripper_pinch.toml):
- box: free body, 0.1 kg, solid-box inertia, 0.05 m cube at (0, 0, 0.1), *rigid* hydroelastic
  (resolution hint 0.01, which Drake does not need for a Box: a rigid box is its own surface mesh),
  CoulombFriction(1, 1). Drake supports rigid-vs-compliant for box-box (compliant-vs-compliant
  too), so the box is rigid as in contactlab.
- fingers: 0.2 kg, solid-box inertia, boxes 0.02 x 0.04 x 0.04 m, compliant hydroelastic,
  modulus 1e8 Pa (resolution hint 0.01; a compliant Box's tet mesh and pressure field are fixed
  by its size, the hint is unused), Hunt-Crossley dissipation 5 s/m, CoulombFriction(1, 1).
  Each on a PrismaticJoint from the world: left at (-0.04, 0, 0.1) along +x, right at
  (0.04, 0, 0.1) along -x, limits [-0.02, 0.03], no damping; the finger's body frame is the
  joint's child frame (its shape centred on it), q = 0 at start.
- servos: a JointActuator per joint with PdControllerGains(p=500, d=20), implicit in SAP;
  desired state from a ConstantVectorSource: q = 0.015 m, v = 0 for both (contactlab's
  kp (target - q) + kd (0 - v)); actuation input unconnected (zero feed-forward), no effort limit.
- gravity -9.81 z (Drake's default).

Plant: discrete, time_step 1 ms, contact model hydroelastic, discrete_contact_approximation
"sap" (--approximation similar|lagged for Drake's Hunt-Crossley approximations, reference only).
Under SAP Drake *ignores* hunt_crossley_dissipation and models dissipation with a linear
Kelvin-Voigt relaxation time (material "relaxation_time", not set here: Drake's default), and it
regularizes friction from numerics (no stiction tolerance); both differ from contactlab's model.

Timing: one untimed warm-up run (which also records the box's height at t = 0.2 s for the slip),
then best of three fresh runs (a new diagram, context and Simulator each, Initialize untimed),
each timing Simulator.AdvanceTo(1.0) = 1000 steps. One thread (Drake's Simulator steps on the
calling thread; OMP_NUM_THREADS=1 is set by the caller).
Prints the real-time factor, the box's final height, its slip z(0.2) - z(1.0), and the fingers'
final joint positions.
"""
import sys, time
import numpy as np
from pydrake.all import (DiagramBuilder, AddMultibodyPlant, MultibodyPlantConfig, SpatialInertia,
    PrismaticJoint, FixedOffsetFrame, RigidTransform, PdControllerGains, ConstantVectorSource,
    Simulator, Box, ProximityProperties, AddCompliantHydroelasticProperties,
    AddRigidHydroelasticProperties, AddContactMaterial, CoulombFriction)
from importlib.metadata import version

DT, T_END, T_SLIP = 0.001, 1.0, 0.2
TARGET, KP, KD = 0.015, 500.0, 20.0
approx = sys.argv[sys.argv.index("--approximation") + 1] if "--approximation" in sys.argv else "sap"


def build():
    b = DiagramBuilder()
    plant, sg = AddMultibodyPlant(MultibodyPlantConfig(time_step=DT, contact_model="hydroelastic",
                                                       discrete_contact_approximation=approx), b)
    box = plant.AddRigidBody("box", SpatialInertia.SolidBoxWithMass(0.1, 0.05, 0.05, 0.05))
    p = ProximityProperties()
    AddRigidHydroelasticProperties(0.01, p)
    AddContactMaterial(friction=CoulombFriction(1.0, 1.0), properties=p)
    plant.RegisterCollisionGeometry(box, RigidTransform(), Box(0.05, 0.05, 0.05), "box", p)
    joints = []
    for name, x, axis in (("left", -0.04, [1.0, 0.0, 0.0]), ("right", 0.04, [-1.0, 0.0, 0.0])):
        finger = plant.AddRigidBody(f"{name}_finger", SpatialInertia.SolidBoxWithMass(0.2, 0.02, 0.04, 0.04))
        p = ProximityProperties()
        AddCompliantHydroelasticProperties(0.01, 1e8, p)
        AddContactMaterial(dissipation=5.0, friction=CoulombFriction(1.0, 1.0), properties=p)
        plant.RegisterCollisionGeometry(finger, RigidTransform(), Box(0.02, 0.04, 0.04), f"{name}_finger", p)
        origin = plant.AddFrame(FixedOffsetFrame(f"{name}_origin", plant.world_frame(),
                                                 RigidTransform([x, 0.0, 0.1])))
        joint = plant.AddJoint(PrismaticJoint(f"{name}_slide", origin, finger.body_frame(), axis,
                                              -0.02, 0.03, 0.0))
        act = plant.AddJointActuator(f"{name}_servo", joint)
        act.set_controller_gains(PdControllerGains(p=KP, d=KD))
        joints.append(joint)
    plant.Finalize()
    nu = plant.num_actuated_dofs()
    src = b.AddSystem(ConstantVectorSource(np.concatenate([np.full(nu, TARGET), np.zeros(nu)])))
    b.Connect(src.get_output_port(), plant.get_desired_state_input_port(plant.GetModelInstanceByName("DefaultModelInstance")))
    dg = b.Build()
    ctx = dg.CreateDefaultContext()
    pc = plant.GetMyMutableContextFromRoot(ctx)
    plant.SetFreeBodyPose(pc, box, RigidTransform([0.0, 0.0, 0.1]))
    sim = Simulator(dg, ctx)
    sim.Initialize()
    return sim, plant, pc, box, joints


def state(plant, pc, box, joints):
    X = plant.EvalBodyPoseInWorld(pc, box)
    return X.translation().copy(), [j.get_translation(pc) for j in joints]


# Warm-up (untimed): also the run that records z(0.2) for the slip.
sim, plant, pc, box, joints = build()
sim.AdvanceTo(T_SLIP)
p02, _ = state(plant, pc, box, joints)
sim.AdvanceTo(T_END)
p_warm, _ = state(plant, pc, box, joints)
cr = plant.get_contact_results_output_port().Eval(pc)
nsurf = cr.num_hydroelastic_contacts()
nfaces = sum(cr.hydroelastic_contact_info(i).contact_surface().num_faces() for i in range(nsurf))

best = float("inf")
for _ in range(3):
    sim, plant, pc, box, joints = build()
    t0 = time.perf_counter()
    sim.AdvanceTo(T_END)
    best = min(best, time.perf_counter() - t0)
    p1, q = state(plant, pc, box, joints)

steps = int(round(T_END / DT))
same = "same as warm-up" if np.allclose(p1, p_warm, rtol=0, atol=1e-12) else f"warm-up gave z {p_warm[2]:.8f}"
print(f"drake {version('drake')}, {approx}, dt {DT}, {steps} steps, {nsurf} contact surfaces ({nfaces} faces) at t = 1 s")
print(f"drake_pinch {approx} steps={steps} wall_s={best:.5f} realtime_factor={T_END / best:.2f} "
      f"box_z_final={p1[2]:.8f} box_x_final={p1[0]:.3e} slip_0.2_1={p02[2] - p1[2]:.3e} "
      f"q_final=[{q[0]:.7f}, {q[1]:.7f}] ({same})")
