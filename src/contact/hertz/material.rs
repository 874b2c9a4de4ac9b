//! Contact materials of the Modia3D force law: per-solid elastic constants, per-pair
//! restitution/friction/regularization constants, and a named palette of both.
//!
//! The built-in palette holds **typical textbook-style values, not measurements**; scenes that
//! need accuracy should add their own with [`Palette::add_solid`] and [`Palette::add_pair`].

use std::collections::BTreeMap;

/// Why a material, pair material or palette lookup was rejected.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MaterialError {
    #[error("`{key}` must be {range}, got {value}")]
    OutOfRange { key: &'static str, range: &'static str, value: f64 },
    /// `hint` names the material that differs from `name` only in case, if one does.
    #[error("unknown solid material `{name}`{hint}; valid names: {valid}")]
    UnknownSolid { name: String, hint: String, valid: String },
    #[error(
        "no contact pair material for (`{a}`, `{b}`) and no self-pair for `{missing}` to fall back on; \
         add the pair (`{a}`, `{b}`) or the self-pair (`{missing}`, `{missing}`) to the palette"
    )]
    MissingPair { a: String, b: String, missing: String },
    #[error("material names must be non-empty")]
    EmptyName,
}

fn check(key: &'static str, range: &'static str, value: f64, ok: bool) -> Result<(), MaterialError> {
    // `ok` is computed by the caller; NaN fails every comparison so it lands here too.
    if ok && value.is_finite() { Ok(()) } else { Err(MaterialError::OutOfRange { key, range, value }) }
}

/// Elastic constants of one solid.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Material {
    /// Young's modulus E (Pa), > 0.
    pub youngs_modulus: f64,
    /// Poisson's ratio ν. The paper allows 0 < ν < 1 and so do we, although isotropic
    /// materials have ν ≤ 0.5; only ν → 1 makes `E/(1 − ν²)` blow up.
    pub poissons_ratio: f64,
}

impl Material {
    /// Checks the paper's ranges: E > 0, 0 < ν < 1, both finite.
    pub fn validate(&self) -> Result<(), MaterialError> {
        let (e, nu) = (self.youngs_modulus, self.poissons_ratio);
        check("youngs_modulus", "a finite number > 0 (Pa)", e, e > 0.0)?;
        check("poissons_ratio", "a finite number in (0, 1)", nu, nu > 0.0 && nu < 1.0)
    }

    /// Plane-strain modulus `c = E/(1 − ν²)` (Pa).
    pub fn plane_strain_modulus(&self) -> f64 {
        self.youngs_modulus / (1.0 - self.poissons_ratio * self.poissons_ratio)
    }
}

/// Constants of a pair of solids in contact.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairMaterial {
    /// Coefficient of restitution `cor`, in [0, 1].
    pub restitution: f64,
    /// Sliding (kinetic) friction coefficient μ_k ≥ 0.
    pub sliding_friction: f64,
    /// Rotational (rolling) resistance coefficient μ_r ≥ 0.
    pub rolling_resistance: f64,
    /// Regularization speed for the sliding direction (m/s), > 0; also the impact speed at or
    /// below which restitution is switched off so bouncing ends.
    pub v_small: f64,
    /// Regularization angular speed for the rolling direction (rad/s), > 0.
    pub w_small: f64,
}

impl PairMaterial {
    /// Checks the paper's ranges; `v_small`, `w_small` must be > 0 because `reg` divides by them.
    pub fn validate(&self) -> Result<(), MaterialError> {
        let cor = self.restitution;
        check("restitution", "a finite number in [0, 1]", cor, (0.0..=1.0).contains(&cor))?;
        let mu_k = self.sliding_friction;
        check("sliding_friction", "a finite number ≥ 0", mu_k, mu_k >= 0.0)?;
        let mu_r = self.rolling_resistance;
        check("rolling_resistance", "a finite number ≥ 0", mu_r, mu_r >= 0.0)?;
        check("v_small", "a finite number > 0 (m/s)", self.v_small, self.v_small > 0.0)?;
        check("w_small", "a finite number > 0 (rad/s)", self.w_small, self.w_small > 0.0)
    }

    /// Field-wise arithmetic mean; the mean of two valid pairs is valid (every range is convex).
    pub fn mean(&self, other: &Self) -> Self {
        let m = |a: f64, b: f64| 0.5 * (a + b);
        Self {
            restitution: m(self.restitution, other.restitution),
            sliding_friction: m(self.sliding_friction, other.sliding_friction),
            rolling_resistance: m(self.rolling_resistance, other.rolling_resistance),
            v_small: m(self.v_small, other.v_small),
            w_small: m(self.w_small, other.w_small),
        }
    }
}

/// Named solid materials and named (unordered) pairs of them.
#[derive(Debug, Clone, Default)]
pub struct Palette {
    solids: BTreeMap<String, Material>,
    /// Keyed by the lexicographically ordered name pair, so lookup is symmetric.
    pairs: BTreeMap<(String, String), PairMaterial>,
}

fn pair_key(a: &str, b: &str) -> (String, String) {
    if a <= b { (a.to_owned(), b.to_owned()) } else { (b.to_owned(), a.to_owned()) }
}

/// Regularization defaults of the built-in pairs: 0.01 m/s and 0.01 rad/s.
const V_SMALL: f64 = 0.01;
const W_SMALL: f64 = 0.01;

impl Palette {
    /// An empty palette.
    pub fn new() -> Self {
        Self::default()
    }

    /// The built-in palette: Steel, DryWood, BilliardBall, BilliardTable, BilliardCushion, with
    /// a self-pair for each (so every combination resolves) and the pairs that matter most.
    ///
    /// Typical values from handbooks and billiards literature, not measurements:
    /// - Steel: E = 200 GPa, ν = 0.30 (structural steel).
    /// - DryWood: E = 11 GPa, ν = 0.35 (hardwood along the grain).
    /// - BilliardBall: E = 5.4 GPa, ν = 0.30 (cast phenolic resin).
    /// - BilliardTable: E = 50 GPa, ν = 0.25 (slate bed; the cloth's softness shows only in the
    ///   ball–table restitution and friction).
    /// - BilliardCushion: E = 10 MPa, ν = 0.49 (cushion rubber, nearly incompressible).
    /// - Pairs: ball–ball cor 0.89, μ_k 0.06; ball–cloth cor 0.5, μ_k 0.2, rolling resistance
    ///   0.01; ball–cushion cor 0.75, μ_k 0.2; steel–steel cor 0.7, μ_k 0.5, μ_r 0.001.
    pub fn builtin() -> Self {
        let mut p = Self::new();
        let solid = |e: f64, nu: f64| Material { youngs_modulus: e, poissons_ratio: nu };
        let pair = |cor: f64, mu_k: f64, mu_r: f64| PairMaterial {
            restitution: cor,
            sliding_friction: mu_k,
            rolling_resistance: mu_r,
            v_small: V_SMALL,
            w_small: W_SMALL,
        };
        let solids = [
            ("Steel", solid(2.0e11, 0.30)),
            ("DryWood", solid(1.1e10, 0.35)),
            ("BilliardBall", solid(5.4e9, 0.30)),
            ("BilliardTable", solid(5.0e10, 0.25)),
            ("BilliardCushion", solid(1.0e7, 0.49)),
        ];
        let pairs = [
            ("Steel", "Steel", pair(0.70, 0.50, 0.001)),
            ("DryWood", "DryWood", pair(0.50, 0.35, 0.005)),
            ("Steel", "DryWood", pair(0.55, 0.40, 0.003)),
            ("BilliardBall", "BilliardBall", pair(0.89, 0.06, 0.001)),
            ("BilliardTable", "BilliardTable", pair(0.50, 0.30, 0.010)),
            ("BilliardCushion", "BilliardCushion", pair(0.70, 0.80, 0.010)),
            ("BilliardBall", "BilliardTable", pair(0.50, 0.20, 0.010)),
            ("BilliardBall", "BilliardCushion", pair(0.75, 0.20, 0.001)),
        ];
        // The literals above are in range, so these inserts cannot fail; ignore rather than
        // unwrap so no panic path exists.
        for (name, m) in solids {
            let _ = p.add_solid(name, m);
        }
        for (a, b, m) in pairs {
            let _ = p.add_pair(a, b, m);
        }
        p
    }

    /// Adds or replaces a solid material; returns the one it replaced.
    pub fn add_solid(&mut self, name: &str, material: Material) -> Result<Option<Material>, MaterialError> {
        if name.is_empty() {
            return Err(MaterialError::EmptyName);
        }
        material.validate()?;
        Ok(self.solids.insert(name.to_owned(), material))
    }

    /// Adds or replaces the pair material of (`a`, `b`) (order does not matter); returns the one
    /// it replaced.
    pub fn add_pair(
        &mut self,
        a: &str,
        b: &str,
        pair: PairMaterial,
    ) -> Result<Option<PairMaterial>, MaterialError> {
        if a.is_empty() || b.is_empty() {
            return Err(MaterialError::EmptyName);
        }
        pair.validate()?;
        Ok(self.pairs.insert(pair_key(a, b), pair))
    }

    /// The solid called `name` (names are case-sensitive); the error lists the valid names and
    /// points at one that differs only in case.
    pub fn solid(&self, name: &str) -> Result<Material, MaterialError> {
        self.solids.get(name).copied().ok_or_else(|| MaterialError::UnknownSolid {
            name: name.to_owned(),
            hint: self
                .solid_names()
                .find(|known| known.eq_ignore_ascii_case(name))
                .map_or_else(String::new, |known| {
                    format!(" (names are case-sensitive: did you mean `{known}`?)")
                }),
            valid: self.solid_names().collect::<Vec<_>>().join(", "),
        })
    }

    /// Names of the solids, sorted.
    pub fn solid_names(&self) -> impl Iterator<Item = &str> {
        self.solids.keys().map(String::as_str)
    }

    /// The pair material of (`a`, `b`), symmetric in its arguments. A pair that is not listed
    /// falls back to the field-wise mean of the self-pairs (`a`, `a`) and (`b`, `b`); if one of
    /// those is missing too, the error names it and says what to add.
    pub fn pair(&self, a: &str, b: &str) -> Result<PairMaterial, MaterialError> {
        if let Some(p) = self.pairs.get(&pair_key(a, b)) {
            return Ok(*p);
        }
        let self_pair = |n: &str| {
            self.pairs.get(&pair_key(n, n)).copied().ok_or_else(|| MaterialError::MissingPair {
                a: a.to_owned(),
                b: b.to_owned(),
                missing: n.to_owned(),
            })
        };
        Ok(self_pair(a)?.mean(&self_pair(b)?))
    }
}
