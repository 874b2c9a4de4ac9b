"""Drake (MultibodyPlant, hydroelastic contact, discrete SAP, dt = 1 ms) on the boxes_64 grid at
a chosen hydroelastic modulus: 64 compliant boxes (0.1 m, 1 kg, dissipation 1 s/m, mu 0.5)
dropped on rigid ground, as examples/boxes_64.toml. Written for contactlab's benchmark; runs
with the anchor venv of ../shared/anchors (scripts/bench_sim.sh calls it).

Usage: python drake_boxes_modulus.py MODULUS [N_BOXES]
Prints: boxes_<N>_E<MODULUS> bodies=N ... realtime_factor=... z0_final=..."""
import sys
import time

import numpy as np
from pydrake.all import (AddCompliantHydroelasticProperties, AddContactMaterial, AddMultibodyPlant,
                         AddRigidHydroelasticProperties, Box, CoulombFriction, DiagramBuilder, HalfSpace,
                         MultibodyPlantConfig, ProximityProperties, RigidTransform, Simulator, SpatialInertia)


def boxes(n, modulus, dt=1e-3, hint=0.02):
    builder = DiagramBuilder()
    config = MultibodyPlantConfig(time_step=dt, contact_model="hydroelastic", discrete_contact_approximation="sap")
    plant, _ = AddMultibodyPlant(config, builder)
    ground = ProximityProperties()
    AddRigidHydroelasticProperties(1.0, ground)
    AddContactMaterial(dissipation=1.0, friction=CoulombFriction(0.5, 0.5), properties=ground)
    plant.RegisterCollisionGeometry(plant.world_body(), RigidTransform(), HalfSpace(), "ground", ground)
    bodies = []
    for i in range(n):
        body = plant.AddRigidBody(f"b{i}", SpatialInertia.SolidBoxWithMass(1.0, 0.1, 0.1, 0.1))
        props = ProximityProperties()
        AddCompliantHydroelasticProperties(hint, modulus, props)
        AddContactMaterial(dissipation=1.0, friction=CoulombFriction(0.5, 0.5), properties=props)
        plant.RegisterCollisionGeometry(body, RigidTransform(), Box(0.1, 0.1, 0.1), f"c{i}", props)
        bodies.append(body)
    plant.Finalize()
    diagram = builder.Build()
    context = diagram.CreateDefaultContext()
    plant_context = plant.GetMyMutableContextFromRoot(context)
    k = int(np.ceil(np.sqrt(n)))
    for i, body in enumerate(bodies):
        x, y = (i % k) * 0.15, (i // k) * 0.15
        plant.SetFreeBodyPose(plant_context, body, RigidTransform([x, y, 0.2 + 0.12 * (i % 3)]))
    simulator = Simulator(diagram, context)
    simulator.Initialize()
    return simulator, plant, plant_context, bodies


def main():
    modulus = float(sys.argv[1])
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 64
    simulator, plant, plant_context, bodies = boxes(n, modulus)
    duration = 1.0
    start = time.perf_counter()
    simulator.AdvanceTo(duration)
    wall = time.perf_counter() - start
    z = plant.EvalBodyPoseInWorld(plant_context, bodies[0]).translation()[2]
    print(f"boxes_{n}_E{modulus:g} bodies={n:3d} sim_s={duration} wall_s={wall:.3f} "
          f"realtime_factor={duration / wall:.2f} z0_final={z:.5f}", flush=True)


if __name__ == "__main__":
    main()
