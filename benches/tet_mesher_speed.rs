//! Prints tet-mesher throughput on the torus example's surface (run with
//! `cargo bench --bench tet_mesher_speed`): tets, dihedral range and seconds per resolution.

use contactlab::geometry::surface_io::read_surface;
use contactlab::geometry::tet_mesher::mesh_interior;
use std::path::Path;

fn main() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/meshes/torus.obj");
    let surface = read_surface(&path).expect("examples/meshes/torus.obj is a closed mesh");
    println!("{:>10} {:>9} {:>16} {:>9} {:>12}", "resolution", "tets", "dihedral (deg)", "seconds", "tets/s");
    for resolution in [0.008, 0.004, 0.003] {
        let out = mesh_interior(&surface, resolution).expect("the torus meshes at these resolutions");
        let s = &out.stats;
        println!(
            "{resolution:>10} {:>9} {:>7.1}..{:<7.1} {:>9.3} {:>12.0}",
            s.tets,
            s.min_dihedral_deg,
            s.max_dihedral_deg,
            s.seconds,
            s.tets as f64 / s.seconds
        );
    }
}
