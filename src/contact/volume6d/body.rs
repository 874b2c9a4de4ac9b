//! What a body brings to the 6D model: its exact intersection geometry
//! ([`crate::geometry::polytope::overlap`]), under the model's names.

pub use crate::geometry::polytope::overlap::{
    OverlapPairError as Volume6dPairError, OverlapShape as Volume6dShape,
    OverlapShapeError as Volume6dShapeError, Piece, PlacedPart, combined, pair_faces, pair_moments,
    pair_pieces, part_pairs,
};
