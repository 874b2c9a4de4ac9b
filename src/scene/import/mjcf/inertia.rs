//! A body's mass, centre of mass and inertia tensor in its MJCF frame: from `<inertial>`, or
//! summed over its geoms about their common centre of mass (MuJoCo's `inertiafromgeom`), then
//! bounded as the compiler asks (`boundmass`, `boundinertia`, `balanceinertia`).

use super::attrs::Attrs;
use super::compiler::Compiler;
use super::xml::Element;
use crate::math::{Matrix3, Point3, Vector3};
use crate::scene::import::ImportError;
use nalgebra::SymmetricEigen;

#[derive(Clone, Debug)]
pub(super) struct Inertia {
    pub mass: f64,
    pub com: Point3,
    /// About `com`, body-frame axes.
    pub tensor: Matrix3,
}

impl Inertia {
    pub fn zero() -> Inertia {
        Inertia { mass: 0.0, com: Point3::origin(), tensor: Matrix3::zeros() }
    }

    /// The union of parts (mass, centre of mass, tensor about it, all in the body frame): masses
    /// add, and each tensor moves to the common centre of mass (parallel axes).
    pub fn compose(parts: &[Inertia]) -> Inertia {
        let mass: f64 = parts.iter().map(|p| p.mass).sum();
        if parts.len() == 1 || mass <= 0.0 {
            return parts.first().filter(|_| mass > 0.0).cloned().unwrap_or_else(Inertia::zero);
        }
        let com = Point3::from(parts.iter().map(|p| p.com.coords * p.mass).sum::<Vector3>() / mass);
        let tensor = parts
            .iter()
            .map(|p| {
                let d = p.com - com;
                p.tensor + p.mass * (d.norm_squared() * Matrix3::identity() - d * d.transpose())
            })
            .sum();
        Inertia { mass, com, tensor }
    }

    /// `<inertial pos quat|… mass diaginertia|fullinertia>`.
    pub fn read(el: &Element, compiler: &Compiler) -> Result<Inertia, ImportError> {
        let a = Attrs::own(el);
        let Some(mass) = a.real("mass")? else {
            return Err(el.invalid("mass", "is missing", "give the body's mass (kg)"));
        };
        if mass < 0.0 {
            return Err(a.error("mass", format!("= {mass} is negative"), "give a mass ≥ 0 (kg)"));
        }
        let Some(pos) = a.array::<3>("pos")? else {
            return Err(el.invalid(
                "pos",
                "is missing",
                "give the centre of mass in the body frame, e.g. pos=\"0 0 0\"",
            ));
        };
        let rotation = compiler.orientation(&a)?.to_rotation_matrix().into_inner();
        let tensor = match (a.array::<3>("diaginertia")?, a.array::<6>("fullinertia")?) {
            (Some(_), Some(_)) => {
                return Err(a.error("fullinertia", "is given with diaginertia", "give one of them"));
            }
            (Some(d), None) => {
                if let Some(x) = d.iter().find(|x| **x < 0.0) {
                    return Err(a.error(
                        "diaginertia",
                        format!("has a negative moment {x}"),
                        "give moments ≥ 0 (kg·m²)",
                    ));
                }
                rotation * Matrix3::from_diagonal(&Vector3::from(d)) * rotation.transpose()
            }
            (None, Some([xx, yy, zz, xy, xz, yz])) => {
                if rotation != Matrix3::identity() {
                    return Err(el.invalid(
                        "fullinertia",
                        "is given with an orientation",
                        "give fullinertia in the body axes without quat/euler/…, or diaginertia with an orientation",
                    ));
                }
                Matrix3::new(xx, xy, xz, xy, yy, yz, xz, yz, zz)
            }
            (None, None) => {
                return Err(el.invalid(
                    "diaginertia",
                    "is missing (and so is fullinertia)",
                    "give diaginertia=\"ixx iyy izz\" or fullinertia=\"ixx iyy izz ixy ixz iyz\" (kg·m²)",
                ));
            }
        };
        Ok(Inertia { mass, com: Point3::from(pos), tensor })
    }

    /// MuJoCo's compile-time bounds and checks on a body's inertia: `boundmass` and
    /// `boundinertia` as floors, and the principal moments must satisfy A + B ≥ C (averaged
    /// when `balanceinertia` is set). `at` is the element blamed (the inertial, else the body).
    pub fn checked(mut self, compiler: &Compiler, at: &Element) -> Result<Inertia, ImportError> {
        let finite = self.mass.is_finite()
            && self.com.iter().all(|x| x.is_finite())
            && self.tensor.iter().all(|x| x.is_finite());
        if !finite {
            return Err(at.invalid(
                "",
                "the mass or inertia overflows (not finite)",
                "give sizes and masses of reasonable magnitude",
            ));
        }
        self.mass = self.mass.max(compiler.boundmass);
        let scale = self.tensor.abs().max().max(1e-300);
        let Some(eig) = SymmetricEigen::try_new(self.tensor, 1e-15 * scale, 1000) else {
            return Err(at.invalid(
                "",
                "the inertia tensor has no principal axes",
                "give a symmetric, positive inertia",
            ));
        };
        let mut moments = eig.eigenvalues;
        let tol = 1e-9 * scale;
        if let Some(m) = moments.iter().find(|m| **m < -tol) {
            return Err(at.invalid(
                if at.tag == "inertial" { "fullinertia" } else { "" },
                format!("the inertia tensor has a negative principal moment {m:e}"),
                "give a positive definite inertia tensor",
            ));
        }
        let mut changed = false;
        for m in moments.iter_mut() {
            if *m < compiler.boundinertia {
                *m = compiler.boundinertia;
                changed = true;
            }
        }
        let [a, b, c] = [moments[0], moments[1], moments[2]];
        if a + b < c - tol || a + c < b - tol || b + c < a - tol {
            if !compiler.balanceinertia {
                return Err(at.invalid(
                    if at.tag == "inertial" { "diaginertia" } else { "" },
                    format!("the principal moments {a:e}, {b:e}, {c:e} violate A + B ≥ C: no body has them"),
                    "correct the inertia, or set <compiler balanceinertia=\"true\"> to average them",
                ));
            }
            moments = Vector3::repeat((a + b + c) / 3.0);
            changed = true;
        }
        if changed {
            let v = eig.eigenvectors;
            self.tensor = v * Matrix3::from_diagonal(&moments) * v.transpose();
        }
        Ok(self)
    }
}
