//! Pressure fields: the per-vertex extent ε on tet meshes (0 on the surface, 1 on the core).
