//! `<link>`: mass, centre of mass and inertia from `<inertial>`, collision geometry; visual
//! geometry and other children are counted and skipped.

use super::super::{ImportError, RobotLink};
use super::geometry::{self, GeometryReport};
use super::xml::{Ctx, Skipped, plain_name, tag};
use crate::math::{Matrix3, Point3};
use nalgebra::SymmetricEigen;
use roxmltree::Node;

/// Relative tolerance of the inertia checks (principal moments ≥ 0, triangle inequality): CAD
/// exports round their last digits.
const INERTIA_TOLERANCE: f64 = 1e-6;

/// Reads one `<link>` (not the world).
pub(super) fn link(
    ctx: &Ctx,
    node: Node,
    report: &mut GeometryReport,
    skipped: &mut Skipped,
) -> Result<RobotLink, ImportError> {
    let name = ctx.name(node)?.to_owned();
    let (mass, center_of_mass, inertia) = match ctx.only_child(node, "inertial")? {
        Some(inertial) => read_inertial(ctx, inertial, report.warnings)?,
        None => (0.0, Point3::origin(), Matrix3::zeros()),
    };
    let mut collisions = Vec::new();
    for child in node.children().filter(Node::is_element) {
        match plain_name(child).unwrap_or_default() {
            "inertial" => {}
            "collision" => collisions.push(geometry::collision(ctx, child, report)?),
            "visual" => {
                geometry::check_visual(ctx, child, report);
                skipped.add("visual geometry".into(), "contact uses the <collision> geometry");
            }
            _ => skipped.add(
                format!("<link>/<{}>", tag(child)),
                "not part of URDF's link; contactlab does not read it",
            ),
        }
    }
    Ok(RobotLink { name, mass, center_of_mass, inertia, collisions, line: ctx.line(node) })
}

/// `<inertial>`: the mass, the centre of mass (`origin xyz`) and the inertia about it turned
/// from the inertial frame (`origin rpy`) into the link frame: I_link = R·I·Rᵀ.
fn read_inertial(
    ctx: &Ctx,
    inertial: Node,
    warnings: &mut Vec<String>,
) -> Result<(f64, Point3, Matrix3), ImportError> {
    let pose = ctx.origin(inertial)?;
    let Some(mass_node) = ctx.only_child(inertial, "mass")? else {
        return Err(ctx.invalid(inertial, "mass", "is missing", "give <mass value=\"...\"/> (kg)"));
    };
    let mass = ctx.number(mass_node, "value", None)?;
    if mass < 0.0 {
        return Err(ctx.invalid(
            mass_node,
            "value",
            format!("is {mass} kg, negative"),
            "give a mass ≥ 0 (kg)",
        ));
    }
    let Some(node) = ctx.only_child(inertial, "inertia")? else {
        return Err(ctx.invalid(
            inertial,
            "inertia",
            "is missing",
            "give <inertia ixx iyy izz ixy ixz iyz/> about the centre of mass (all 0 for a point mass)",
        ));
    };
    let i = |a: &str| ctx.number(node, a, None);
    let (ixx, iyy, izz, ixy, ixz, iyz) = (i("ixx")?, i("iyy")?, i("izz")?, i("ixy")?, i("ixz")?, i("iyz")?);
    let local = Matrix3::new(ixx, ixy, ixz, ixy, iyy, iyz, ixz, iyz, izz);
    check_inertia(ctx, node, &local, warnings)?;
    let r = pose.rotation.to_rotation_matrix().into_inner();
    let mut inertia = r * local * r.transpose();
    // The product is symmetric up to rounding; make it exactly so.
    inertia = 0.5 * (inertia + inertia.transpose());
    if !inertia.iter().all(|x| x.is_finite()) {
        return Err(ctx.invalid(
            node,
            "",
            "overflows when turned into the link frame",
            "check the values' units (kg·m²)",
        ));
    }
    Ok((mass, Point3::from(pose.translation.vector), inertia))
}

/// An inertia tensor: principal moments ≥ 0 (an error otherwise), each at most the sum of the
/// other two (a warning otherwise).
fn check_inertia(
    ctx: &Ctx,
    node: Node,
    inertia: &Matrix3,
    warnings: &mut Vec<String>,
) -> Result<(), ImportError> {
    let size = inertia.amax();
    if size == 0.0 {
        return Ok(());
    }
    // Scaled to entries ≤ 1 so that nothing overflows; a bounded number of sweeps, so that no
    // input can make the decomposition loop.
    let Some(eigen) = SymmetricEigen::try_new(inertia / size, 1e-15, 1000) else {
        return Err(ctx.invalid(node, "", "cannot be diagonalised", "check the six values"));
    };
    let mut m = [eigen.eigenvalues[0], eigen.eigenvalues[1], eigen.eigenvalues[2]];
    m.sort_by(f64::total_cmp);
    let tolerance = INERTIA_TOLERANCE * m[2].abs().max(f64::MIN_POSITIVE);
    let moments = || format!("({:.6e}, {:.6e}, {:.6e}) kg·m²", m[0] * size, m[1] * size, m[2] * size);
    if m[0] < -tolerance {
        return Err(ctx.invalid(
            node,
            "",
            format!("is not positive semidefinite: its principal moments are {}", moments()),
            "check the signs of ixy, ixz, iyz (URDF gives the tensor's entries, e.g. ixy = −∫xy dm) and that the values are about the centre of mass",
        ));
    }
    // Positive definite but no body's: real files have these (the Allegro hand's fingers), and
    // the dynamics stay well posed, so it is a warning.
    if m[2] > m[0] + m[1] + tolerance {
        warnings.push(format!(
            "line {}: <{}> violates the triangle inequality: its largest principal moment exceeds the sum of the other two {}; no rigid body has such an inertia: check the values",
            ctx.line(node),
            super::xml::element_path(node),
            moments()
        ));
    }
    Ok(())
}
