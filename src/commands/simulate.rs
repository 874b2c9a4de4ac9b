//! `contactlab simulate SCENE.toml --out DIR [--vtk] [--png] [--html]`: integrate a scene and write its
//! trajectory, energies and contacts ([`crate::app::simulation`]), and the viewer page.

use crate::scene::Scene;
use anyhow::Result;

pub use crate::app::simulation::{SimulateArgs, Summary};

/// Runs the simulation, writing outputs as it goes (and with `--html` the viewer page after a
/// run that succeeded). On a failure the outputs written so far are kept and the error says
/// when and which bodies.
pub fn run(scene: &Scene, args: &SimulateArgs) -> Result<Summary> {
    crate::app::simulation::run_with(scene, args, |world| {
        if let Some(title) = &args.html {
            let page = super::view::write_page_for(world, scene, &args.out, title)?;
            eprintln!("contactlab: {}", page.line());
        }
        Ok(())
    })
}
