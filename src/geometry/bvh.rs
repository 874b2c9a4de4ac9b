//! Bounding-volume hierarchies of oriented boxes, built once in a body frame.
