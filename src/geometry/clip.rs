//! Clipping: convex polygons by planes, tets by planes.
