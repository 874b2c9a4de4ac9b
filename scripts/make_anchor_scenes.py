#!/usr/bin/env python3
"""Writes the anchor simulation scenes (the same as ../shared/anchors/drake_sim.py and
mujoco_sim.py) into examples/: sphere_drop, box_drop, boxes_16, boxes_64."""
import math, pathlib

HEADER = """# {title}
# The same scene as ../shared/anchors/drake_sim.py and mujoco_sim.py: {n} {what} (1 kg, compliant
# E = 1e6 Pa, Hunt–Crossley dissipation 1 s/m, μ = 0.5) dropped on rigid ground; dt = 1 ms.
[model]
kind = "pressure_field"

[sim]
duration = 1.0
integrator = "implicit_euler"          # the pressure field's default, written out
dt = 1e-3

[[body]]
name = "ground"
fixed = true
shape = {{ type = "halfspace" }}
contact = {{ compliance = "rigid", friction = 0.5 }}
"""

BODY = """
[[body]]
name = "{name}"
mass = 1.0
position = [{x}, {y}, {z}]
shape = {shape}
contact = {{ compliance = "compliant", hydroelastic_modulus = 1e6, resolution = 0.02, dissipation = 1.0, friction = 0.5 }}
"""

def scene(n, sphere):
    k = math.ceil(math.sqrt(n))
    what = "sphere (R = 0.05 m)" if sphere else ("box (0.1 m)" if n == 1 else "boxes (0.1 m)")
    title = ("sphere_drop" if sphere else ("box_drop" if n == 1 else f"boxes_{n}"))
    text = HEADER.format(title=title, n=n, what=what)
    shape = '{ type = "sphere", radius = 0.05 }' if sphere else '{ type = "box", size = [0.1, 0.1, 0.1] }'
    for i in range(n):
        x, y, z = (i % k) * 0.15, (i // k) * 0.15, 0.2 + 0.12 * (i % 3)
        text += BODY.format(name=f"b{i}", x=round(x, 6), y=round(y, 6), z=round(z, 6), shape=shape)
    return title, text

HERTZ_HEADER = """# {title} under the Hertz point-contact model (Modia3D): the same {n} {what} (1 kg) as
# {title}.toml, dry wood on dry wood (the palette's DryWood: μ_k = 0.35), dropped on a large
# fixed box. The elastic contact reduction factor k_red = 1e-4 softens wood's stiffness, as
# Modia3D suggests for hard materials. Semi-implicit Euler at 0.1 ms: a flat face on a flat face
# is one contact point that jumps between corners, which pumps energy into the boxes at 1 ms
# (the energy watch stops such a run), and dopri5, the hertz default, crawls on those jumps.
[model]
kind = "hertz"
elastic_contact_reduction_factor = 1e-4

[sim]
duration = 1.0
integrator = "semi_implicit_euler"
dt = 1e-4

[[body]]
name = "ground"
fixed = true
position = [1.0, 1.0, -0.05]
shape = {{ type = "box", size = [4.0, 4.0, 0.1] }}
contact = {{ material = "DryWood" }}
"""

def hertz(title, text):
    n = text.count("[[body]]") - 1
    what = "sphere (R = 0.05 m)" if "sphere" in title else ("box (0.1 m)" if n == 1 else "boxes (0.1 m)")
    bodies = text.split("[[body]]")[2:]
    out = HERTZ_HEADER.format(title=title, n=n, what=what)
    for b in bodies:
        lines = [l for l in b.strip().splitlines() if not l.startswith("contact")]
        out += "\n[[body]]\n" + "\n".join(lines) + '\ncontact = { material = "DryWood" }\n'
    return out

root = pathlib.Path(__file__).resolve().parent.parent / "examples"
for n, sphere in ((1, True), (1, False), (16, False), (64, False)):
    title, text = scene(n, sphere)
    (root / f"{title}.toml").write_text(text)
    (root / f"hertz_{title}.toml").write_text(hertz(title, text))
    print("wrote", root / f"{title}.toml", "and", root / f"hertz_{title}.toml")
