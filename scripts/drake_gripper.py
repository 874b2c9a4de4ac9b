"""Drake beside contactlab on Drake's gripper benchmark (examples/gripper_shake.toml, and with
--hold examples/gripper_hold.toml): a 1.089 kg two-finger gripper holds a 94 g cylinder with
10 N per finger, mu = 1, shaken vertically at 2 Hz with 0.15 m amplitude for 5 s after 0.3 s of
settling. Run with the anchors venv ($HOME/.cache/contactlab-anchors, ../shared/anchors/setup.sh);
scripts/bench_gripper.sh runs it. The numbers are in scripts/gripper_common.py.

The model (as the scene file; Drake's own examples/simple_gripper is the origin of the masses):
- gripper: a body of 0.988882 kg (inertia diag 0.162992, 0.162992, 0.164814 about its origin),
  no geometry, on a PrismaticJoint from the world along z, in its own model instance "shaker"
  whose one JointActuator has PdControllerGains(p = 1e5, d = 700) (implicit in SAP), desired state
  from a TrajectorySource: a first-order-hold PiecewisePolynomial through the same samples (every
  10 ms) of x = A (1 - cos w (t - 0.3)) and its velocity as the scene's targets and
  target_velocities, held at 0 before 0.3 s.
- fingers: 50 g bodies (solid-box inertia), each a compliant hydroelastic Box 0.028 x 0.008 x
  0.028 (modulus 1e6 Pa, Hunt-Crossley dissipation 2 s/m, which SAP ignores, CoulombFriction(1, 1))
  on a PrismaticJoint of the gripper body at y = -/+0.044 along +/-y (the pads' faces touch the
  cylinder at q = 0), limits [-0.01, 0.01]; each with a JointActuator in model instance "fingers"
  whose actuation input is a constant 10 N (--grip): the grip, as the scene's motor actuators.
  (Drake's example drives one finger with 20 N through a coupler; two 10 N motors give the same
  10 N grip without a constraint.)
- cylinder: a free body, 94 g, solid-cylinder inertia, a rigid hydroelastic Cylinder r = 0.04,
  length 0.1 (resolution hint 0.004: 64 segments around, as the scene's resolution 0.00491 gives
  ours), CoulombFriction(1, 1).
- gravity -9.81 z (Drake's example switches gravity off for vertical shaking because its gripper
  is force-driven; here a servo holds it, as in contactlab).

Plant: discrete, time_step 1 ms, contact model hydroelastic, SAP (--approximation similar|lagged
for reference). One thread (OMP_NUM_THREADS=1 from the caller; the Simulator steps on the calling
thread).

Timing: an untimed warm-up run that also records the slip (the cylinder's pose in the left
finger's frame every 10 ms), then best of --runs fresh runs (new diagram, context and Simulator,
Initialize untimed), each timing Simulator.AdvanceTo(duration).
Prints one line: steps, best wall time, real-time factor, and the slip from 0.3 s to the end:
translation of the cylinder in the left finger's frame (norm and its z part) and rotation angle;
with --hold, the creep speed: the slip's z change over 0.5-2 s divided by 1.5 s.
"""
import sys, os, time
import numpy as np
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gripper_common as G
from pydrake.all import (DiagramBuilder, AddMultibodyPlant, MultibodyPlantConfig, SpatialInertia,
    RotationalInertia, PrismaticJoint, FixedOffsetFrame, RigidTransform, PdControllerGains,
    ConstantVectorSource, TrajectorySource, PiecewisePolynomial, Simulator, Box, Cylinder,
    ProximityProperties, AddCompliantHydroelasticProperties, AddRigidHydroelasticProperties,
    AddContactMaterial, CoulombFriction)
from importlib.metadata import version

approx = "sap"
if "--approximation" in sys.argv:
    i = sys.argv.index("--approximation"); approx = sys.argv[i + 1]; del sys.argv[i:i + 2]
args = G.arguments(__doc__)


def build():
    b = DiagramBuilder()
    plant, sg = AddMultibodyPlant(MultibodyPlantConfig(time_step=G.DT, contact_model="hydroelastic",
                                                       discrete_contact_approximation=approx), b)
    shaker, fingers = plant.AddModelInstance("shaker"), plant.AddModelInstance("fingers")
    gripper = plant.AddRigidBody("gripper", shaker, SpatialInertia.MakeFromCentralInertia(
        G.GRIPPER_MASS, np.zeros(3), RotationalInertia(*G.GRIPPER_INERTIA)))
    shake = plant.AddJoint(PrismaticJoint("shake", plant.world_frame(), gripper.body_frame(),
                                          [0.0, 0.0, 1.0]))
    plant.AddJointActuator("shaker", shake).set_controller_gains(PdControllerGains(p=G.KP, d=G.KD))
    cyl = plant.AddRigidBody("cylinder", plant.AddModelInstance("object"), SpatialInertia.SolidCylinderWithMass(
        G.CYL_MASS, G.CYL_RADIUS, G.CYL_LENGTH, [0.0, 0.0, 1.0]))
    p = ProximityProperties()
    AddRigidHydroelasticProperties(G.CYL_RESOLUTION, p)
    AddContactMaterial(friction=CoulombFriction(G.MU, G.MU), properties=p)
    plant.RegisterCollisionGeometry(cyl, RigidTransform(), Cylinder(G.CYL_RADIUS, G.CYL_LENGTH), "cylinder", p)
    bodies = []
    for name, y, axis in (("left", -G.FINGER_Y, [0.0, 1.0, 0.0]), ("right", G.FINGER_Y, [0.0, -1.0, 0.0])):
        finger = plant.AddRigidBody(f"{name}_finger", fingers,
                                    SpatialInertia.SolidBoxWithMass(G.FINGER_MASS, *G.PAD_SIZE))
        p = ProximityProperties()
        AddCompliantHydroelasticProperties(G.PAD_RESOLUTION, G.PAD_MODULUS, p)
        AddContactMaterial(dissipation=G.PAD_DISSIPATION, friction=CoulombFriction(G.MU, G.MU), properties=p)
        plant.RegisterCollisionGeometry(finger, RigidTransform(), Box(*G.PAD_SIZE), f"{name}_pad", p)
        origin = plant.AddFrame(FixedOffsetFrame(f"{name}_origin", gripper.body_frame(),
                                                 RigidTransform([0.0, y, 0.0])))
        joint = plant.AddJoint(PrismaticJoint(f"{name}_slide", origin, finger.body_frame(), axis,
                                              -0.01, 0.01, 0.0))
        plant.AddJointActuator(f"{name}_grip", joint)
        bodies.append(finger)
    plant.Finalize()
    ts, xs, vs = G.shake_samples(shake=not args.hold)
    times = np.array([0.0] + ts)
    samples = np.array([[0.0] + xs, [0.0] + vs])
    src = b.AddSystem(TrajectorySource(PiecewisePolynomial.FirstOrderHold(times, samples)))
    b.Connect(src.get_output_port(), plant.get_desired_state_input_port(shaker))
    grip = b.AddSystem(ConstantVectorSource(np.full(2, args.grip)))
    b.Connect(grip.get_output_port(), plant.get_actuation_input_port(fingers))
    dg = b.Build()
    ctx = dg.CreateDefaultContext()
    pc = plant.GetMyMutableContextFromRoot(ctx)
    plant.SetFreeBodyPose(pc, cyl, RigidTransform())
    sim = Simulator(dg, ctx)
    sim.Initialize()
    return sim, plant, pc, cyl, bodies[0]


def relative(plant, pc, cyl, finger):
    X = plant.EvalBodyPoseInWorld(pc, finger).inverse() @ plant.EvalBodyPoseInWorld(pc, cyl)
    return X.translation().copy(), X.rotation().matrix().copy()


# Warm-up (untimed), recording the cylinder in the finger's frame every 10 ms.
sim, plant, pc, cyl, finger = build()
steps = int(round(args.duration / G.DT))
record = {}
for k in range(0, steps + 1, 10):
    sim.AdvanceTo(k * G.DT)
    record[k] = relative(plant, pc, cyl, finger)
if steps % 10:
    sim.AdvanceTo(args.duration); record[steps] = relative(plant, pc, cyl, finger)
cr = plant.get_contact_results_output_port().Eval(pc)
nsurf = cr.num_hydroelastic_contacts()
nfaces = sum(cr.hydroelastic_contact_info(i).contact_surface().num_faces() for i in range(nsurf))
k0 = int(round(G.T_SETTLE / G.DT))
(p0, R0), (p1, R1) = record[k0], record[steps]
slip = p1 - p0
if args.csv:
    G.write_slip_csv(args.csv, record, k0, G.DT)
rot = G.rotation_angle(R0.T @ R1)

best = float("inf")
for _ in range(args.runs):
    sim, plant, pc, cyl, finger = build()
    t0 = time.perf_counter()
    sim.AdvanceTo(args.duration)
    best = min(best, time.perf_counter() - t0)
    p_end, _ = relative(plant, pc, cyl, finger)
same = "same as warm-up" if np.allclose(p_end, p1, rtol=0, atol=1e-12) else "differs from warm-up"
print(f"drake {version('drake')}, {approx}, dt {G.DT}, {steps} steps, grip {args.grip} N, "
      f"{'hold' if args.hold else 'shake'}; {nsurf} contact surfaces ({nfaces} faces) at the end")
line = (f"drake_gripper {approx} steps={steps} wall_s={best:.4f} realtime_factor={args.duration / best:.3f} "
        f"slip_m={np.linalg.norm(slip):.3e} slip_z={slip[2]:.3e} slip_rot_deg={np.degrees(rot):.3e}")
if args.hold:
    a, b_ = (int(round(t / G.DT)) for t in G.CREEP_WINDOW)
    creep = (record[b_][0][2] - record[a][0][2]) / (G.CREEP_WINDOW[1] - G.CREEP_WINDOW[0])
    line += f" creep_um_s={creep * 1e6:.4g}"
print(line + f" ({same})")
