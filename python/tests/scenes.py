"""Small scenes the tests share (TOML text and dicts with the same keys)."""

# A compliant ball (R = 0.1 m, E = 1e5 Pa) 1 cm into rigid ground: the static normal force of
# the pressure field is (π/3)·E·d²·(3 − 2d/R) (examples/sphere_on_ground.toml).
SPHERE_ON_GROUND = """
[model]
kind = "pressure_field"

[sim]
duration = 0.05

[[body]]
name = "ball"
mass = 1.0
position = [0.0, 0.0, 0.09]
shape = { type = "sphere", radius = 0.1 }
contact = { compliance = "compliant", hydroelastic_modulus = 1e5, resolution = 0.01 }

[[body]]
name = "ground"
fixed = true
shape = { type = "halfspace" }
contact = { compliance = "rigid" }
"""

# A steel ball (R = 1 cm) 10 µm into a steel box: static Hertz (examples/hertz_ball_on_box.toml).
HERTZ_BALL_ON_BOX = {
    "model": {"kind": "hertz"},
    "sim": {"duration": 0.01},
    "body": [
        {
            "name": "box",
            "fixed": True,
            "position": [0.0, 0.0, -0.05],
            "shape": {"type": "box", "size": [0.2, 0.2, 0.1]},
            "contact": {"material": "Steel"},
        },
        {
            "name": "ball",
            "mass": 0.0327,
            "position": [0.0, 0.0, 0.00999],
            "shape": {"type": "sphere", "radius": 0.01},
            "contact": {"material": "Steel"},
        },
    ],
}

# volume6d: a box sliding on the ground with friction (examples/volume6d_sliding_box.toml).
VOLUME6D_SLIDING_BOX = """
[model]
kind = "volume6d"

[sim]
duration = 0.1

[[body]]
name = "ground"
fixed = true
shape = { type = "halfspace" }
contact = { friction = 0.3 }

[[body]]
name = "b0"
mass = 1.0
position = [0.0, 0.0, 0.05]
linear_velocity = [1.0, 0.0, 0.0]
shape = { type = "box", size = [0.1, 0.1, 0.1] }
contact = { friction = 0.3 }
"""

# A compliant pad pushed by a control force onto rigid ground, no gravity (the control loop).
PAD = """
[model]
kind = "pressure_field"

[sim]
gravity = [0.0, 0.0, 0.0]

[[body]]
name = "pad"
mass = 0.1
position = [0.0, 0.0, 0.0105]
shape = { type = "box", size = [0.04, 0.04, 0.02] }
contact = { compliance = "compliant", hydroelastic_modulus = 1e6, resolution = 0.01, dissipation = 1.0, friction = 0.5 }

[[body]]
name = "ground"
fixed = true
shape = { type = "halfspace" }
contact = { compliance = "rigid" }
"""

# A ball falling freely for 0.1 s far above the ground (default implicit Euler): the sweeps' closed
# form, z = z0 − g·dt²·N(N+1)/2.
FREE_FALL = """
[model]
kind = "pressure_field"
[sim]
duration = 0.1
[[body]]
name = "ball"
mass = 1.0
position = [0.0, 0.0, 1.0]
shape = { type = "sphere", radius = 0.1 }
contact = { compliance = "compliant", hydroelastic_modulus = 1e6, resolution = 0.05 }
[[body]]
name = "ground"
fixed = true
shape = { type = "halfspace" }
contact = { compliance = "rigid" }
"""
