//! Polytopal exact geometry (Williams, Lu & Trinkle 2017), `kind = "peg"`: rigid convex
//! polytopes (and polygons in planar scenes), the contacts between features within the contact
//! tolerance ε, and the constraint sets built from them — unilateral (U), inter-contact (I: one
//! feature against several, one force-carrying primary) and cross-contact (X) — or, under
//! `formulation = "standard"`, one unilateral contact per closest feature pair. The
//! complementarity time stepping is in `dynamics::peg_step`. See docs/peg.md.

mod capability;
pub mod contact;
pub mod model;
pub mod planar;
pub mod settings;
pub mod shape;
pub mod solid;
pub mod spatial;
