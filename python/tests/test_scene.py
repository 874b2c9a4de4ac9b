"""Scenes and contact queries through Python: closed forms, dicts = TOML, contact surfaces."""

import math

import numpy as np
import pytest

import contactlab
from scenes import HERTZ_BALL_ON_BOX, SPHERE_ON_GROUND


def test_sphere_on_half_space_matches_the_pressure_field_closed_form():
    scene = contactlab.Scene.from_toml(SPHERE_ON_GROUND)
    [pair] = scene.contact()
    assert (pair["a"], pair["b"]) == ("ball", "ground")
    e, d, r = 1e5, 0.01, 0.1
    exact = math.pi / 3 * e * d**2 * (3 - 2 * d / r)
    assert pair["force"].shape == (3,)
    assert pair["force"][2] == pytest.approx(exact, rel=2e-3)
    assert abs(pair["force"][0]) < 1e-9 * exact and abs(pair["force"][1]) < 1e-9 * exact
    # The contact disc's area π(2Rd − d²) and the field's energy are there too.
    assert pair["area"] == pytest.approx(math.pi * (2 * r * d - d * d), rel=2e-2)
    assert pair["energy"] > 0 and pair["faces"] > 0


def test_hertz_static_force_matches_the_closed_form():
    scene = contactlab.Scene.from_dict(HERTZ_BALL_ON_BOX)
    [pair] = scene.contact()
    e, nu, r, delta = 2e11, 0.3, 0.01, 1e-5
    e_star = 1.0 / (2.0 * (1.0 - nu * nu) / e)
    exact = 4.0 / 3.0 * e_star * math.sqrt(r) * delta**1.5
    # The force on the box (a) is minus the force on the ball.
    assert -pair["force"][2] == pytest.approx(exact, rel=1e-9)
    assert pair["area"] is None and pair["faces"] is None
    assert pair["energy"] == pytest.approx(exact * delta / 2.5, rel=1e-9)


def test_a_dict_is_the_same_scene_as_its_toml():
    from_dict = contactlab.Scene.from_dict(HERTZ_BALL_ON_BOX)
    text = """
[model]
kind = "hertz"
[sim]
duration = 0.01
[[body]]
name = "box"
fixed = true
position = [0.0, 0.0, -0.05]
shape = { type = "box", size = [0.2, 0.2, 0.1] }
contact = { material = "Steel" }
[[body]]
name = "ball"
mass = 0.0327
position = [0.0, 0.0, 0.00999]
shape = { type = "sphere", radius = 0.01 }
contact = { material = "Steel" }
"""
    from_toml = contactlab.Scene.from_toml(text)
    a, b = from_dict.contact()[0], from_toml.contact()[0]
    assert np.array_equal(a["force"], b["force"]) and a["energy"] == b["energy"]
    assert from_dict.body_names == ["box", "ball"] and from_dict.body("ball") == 1


def test_numpy_values_in_a_dict():
    scene = dict(HERTZ_BALL_ON_BOX)
    scene["body"] = [dict(b) for b in HERTZ_BALL_ON_BOX["body"]]
    scene["body"][1]["position"] = np.array([0.0, 0.0, 0.00999])
    scene["body"][1]["mass"] = np.float64(0.0327)
    [pair] = contactlab.Scene.from_dict(scene).contact()
    [reference] = contactlab.Scene.from_dict(HERTZ_BALL_ON_BOX).contact()
    assert np.array_equal(pair["force"], reference["force"])


def test_contact_surface_polygons_carry_the_pressure_field():
    scene = contactlab.Scene.from_toml(SPHERE_ON_GROUND)
    polygons = scene.contact_surface("ball", "ground")
    assert len(polygons) == scene.contact()[0]["faces"]
    vertices = np.concatenate([p["vertices"] for p in polygons])
    pressure = np.concatenate([p["pressure"] for p in polygons])
    assert vertices.shape[1] == 3 and pressure.shape == (len(vertices),)
    # The surface lies on the ground (z = 0), within the contact disc, normal from ground into ball.
    assert np.allclose(vertices[:, 2], 0.0, atol=1e-12)
    assert np.hypot(vertices[:, 0], vertices[:, 1]).max() <= math.sqrt(2 * 0.1 * 0.01) * 1.05
    assert all(np.allclose(p["normal"], [0, 0, 1]) for p in polygons)
    # The pressure peaks at the centre at E·d/R (the field is linear in depth from the surface).
    assert pressure.max() == pytest.approx(1e5 * 0.01 / 0.1, rel=2e-2)
    assert pressure.min() >= -1e-9


def test_contact_surfaces_are_the_pressure_fields_only():
    scene = contactlab.Scene.from_dict(HERTZ_BALL_ON_BOX)
    with pytest.raises(ValueError, match="contact points only"):
        scene.contact_surface("ball", "box")
