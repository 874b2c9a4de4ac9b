use contactlab::commands::sim_world::build_world;
use contactlab::dynamics::simulate::{Flow, Integrator, run};
use contactlab::scene::load_scene;
#[test]
fn speed() {
    let names: Vec<String> = std::env::var("SCENES").map(|s| s.split(",").map(String::from).collect()).unwrap_or(vec!["sphere_drop".into(), "box_drop".into(), "boxes_16".into(), "boxes_64".into()]);
    for name in &names {
        let scene = load_scene(std::path::Path::new(&format!("examples/{name}.toml"))).unwrap();
        let w = build_world(&scene, false).unwrap();
        let t0 = std::time::Instant::now();
        let mut zf = 0.0;
        let stats = run(&w, &Integrator::SemiImplicitEuler { dt: 1e-3 }, std::env::var("DUR").map(|s| s.parse().unwrap()).unwrap_or(1.0), 0.01, |_, y| { zf = y[2]; Ok(Flow::Continue) }).unwrap();
        let wall = t0.elapsed().as_secs_f64();
        eprintln!("{name}: steps {} wall {wall:.3} s rtf {:.1} z0 {zf:.5}", stats.steps, 1.0 / wall);
    }
}
