//! `contactlab field SCENE.toml --body NAME --out FILE.vtk`: a compliant body's tet mesh with
//! its pressure field, as a legacy VTK unstructured grid with point data `extent` and
//! `pressure`, in the body's scene pose.

use crate::app;
use crate::contact::pressure_field::contact_properties;
use crate::contact::pressure_field::{PfBody, PfGeometry};
use crate::scene::{ModelKind, Scene};
use anyhow::{Context, Result, bail};
use std::path::Path;

/// Writes the field of body `name` to `out`; returns the number of tets written.
pub fn run(scene: &Scene, name: &str, out: &Path) -> Result<usize> {
    if scene.model != ModelKind::PressureField {
        bail!(
            "`field` writes pressure fields, which only the pressure_field model has; this scene's model is `{}` (set [model] kind = \"pressure_field\" to see a body's field)",
            scene.model.key()
        );
    }
    let Some(spec) = scene.body(name) else {
        let names: Vec<&str> = scene.bodies.iter().map(|b| b.name.as_str()).collect();
        bail!("no body named `{name}`; the scene has: {}", names.join(", "));
    };
    let Some(shape) = &spec.shape else {
        bail!("body `{name}` has no shape, so no pressure field: name a compliant body with a shape");
    };
    let body =
        PfBody::new(shape, &contact_properties(&spec.contact)).with_context(|| format!("body `{name}`"))?;
    let PfGeometry::CompliantMesh(mesh) = &body.geometry else {
        bail!(
            "body `{name}` has no tet mesh: only compliant bodies other than half spaces have a pressure field mesh"
        );
    };
    let modulus = body.modulus.unwrap_or(0.0);
    let vertices: Vec<_> = mesh.mesh.vertices.iter().map(|v| spec.pose * v).collect();
    let pressure: Vec<f64> = mesh.extent.iter().map(|e| e * modulus).collect();
    app::write_tet_mesh_vtk(
        out,
        &vertices,
        &mesh.mesh.tets,
        &[("extent", &mesh.extent), ("pressure", &pressure)],
    )
    .with_context(|| format!("writing {}", out.display()))?;
    Ok(mesh.mesh.tets.len())
}
