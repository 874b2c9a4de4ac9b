//! Simulation outputs: CSV histories read back, ParaView series, line plots decoded, progress line.

use contactlab::app::{
    BodyFrame, BodyRow, ContactFrame, EnergyRow, MeshCells, OutputError, Progress, ProgressMode, SimWriter,
    VtkSeries, plot_colour, plot_lines,
};
use contactlab::contact::pressure_field::{ContactPolygon, ContactSurface};
use contactlab::math::{Isometry3, Point3, Twist, UnitQuaternion, Vector3, Wrench};
use std::path::PathBuf;

/// A fresh, empty per-test folder.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("contactlab-sim-outputs-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Splits one CSV line into fields per RFC 4180 (quoted fields, doubled quotes).
fn split_csv(line: &str) -> Vec<String> {
    let (mut fields, mut field, mut quoted) = (Vec::new(), String::new(), false);
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            ('"', _) => quoted = !quoted,
            (',', false) => fields.push(std::mem::take(&mut field)),
            _ => field.push(c),
        }
    }
    fields.push(field);
    fields
}

fn read_lines(path: &std::path::Path) -> Vec<String> {
    std::fs::read_to_string(path).unwrap().lines().map(str::to_owned).collect()
}

fn num(s: &str) -> f64 {
    s.parse().unwrap_or_else(|_| panic!("'{s}' is not a number"))
}

/// A way of creating a writer.
type Create = fn(&std::path::Path) -> Result<SimWriter, OutputError>;

/// The ways of writing: on a thread of the writer's own (stepping aside for parallel sections
/// or not), and on the caller's.
const WRITERS: [Create; 3] = [SimWriter::create, SimWriter::create_sharing_cores, SimWriter::create_here];

#[test]
fn a_writer_that_steps_aside_keeps_up_while_a_parallel_section_never_ends() {
    // A section held throughout (a run's long one, or another run's in this process): the
    // writer's yields are bounded and a backlog stops them, so every row still gets out, in
    // order, in a bounded time.
    let dir = temp_dir("step-aside");
    let _section = contactlab::math::parallel::Section::enter();
    let started = std::time::Instant::now();
    let mut writer = SimWriter::create_sharing_cores(&dir).unwrap();
    let names: Vec<String> = (0..40).map(|i| format!("b{i}")).collect();
    let steps = 2_000;
    for k in 0..steps {
        let t = k as f64 * 1e-3;
        let rows: Vec<BodyRow> = names
            .iter()
            .enumerate()
            .map(|(i, name)| BodyRow {
                name,
                pose: Isometry3::translation(t, i as f64, -t),
                velocity: Twist { linear: Vector3::new(t, 0.0, 1.0), angular: Vector3::zeros() },
            })
            .collect();
        writer.bodies(t, &rows).unwrap();
    }
    writer.finish().unwrap();
    let elapsed = started.elapsed();
    let lines = read_lines(&dir.join("trajectory.csv"));
    assert_eq!(lines.len(), 1 + steps * names.len());
    let last = split_csv(lines.last().unwrap());
    assert_eq!((num(&last[0]), last[1].as_str(), num(&last[3])), (1.999, "b39", 39.0));
    // 80 000 rows: about 0.1 s when written straight; well under a minute with every bounded
    // yield made.
    assert!(elapsed < std::time::Duration::from_secs(60), "{elapsed:?}");
}

#[test]
fn csv_headers_are_the_contract_and_numbers_round_trip_bit_exactly() {
    for create in WRITERS {
        csv_round_trip(create);
    }
}

fn csv_round_trip(create: Create) {
    let dir = temp_dir("csv");
    let awkward = [0.1 + 0.2, 1.0 / 3.0, -2.5e-300, 6.02214076e23, 5e-324, -0.0, f64::MAX, 1e-5, 1e16];
    let pose = Isometry3::from_parts(
        Vector3::new(awkward[0], awkward[1], awkward[2]).into(),
        UnitQuaternion::from_euler_angles(0.3, -1.1, 2.9),
    );
    let twist = Twist {
        linear: Vector3::new(awkward[3], awkward[4], awkward[5]),
        angular: Vector3::new(awkward[6], awkward[7], awkward[8]),
    };
    let energy = EnergyRow {
        kinetic: awkward[1],
        gravity: -awkward[3],
        elastic: awkward[4],
        dissipated: 0.0,
        total: awkward[0],
        joints: None,
    };
    let wrench = Wrench {
        force: Vector3::new(1.5, -awkward[1], awkward[8]),
        torque: Vector3::new(awkward[2], 0.0, 7.0),
    };

    let mut out = create(&dir).unwrap();
    out.body(0.001, "ball", &pose, &twist).unwrap();
    out.body(0.001, "say \"hi\", world", &pose, &twist).unwrap();
    out.energy(0.001, &energy).unwrap();
    out.contact(0.001, "ball", "floor, main", &wrench, Some(awkward[1])).unwrap();
    out.contact(0.002, "ball", "floor, main", &wrench, None).unwrap();
    out.finish().unwrap();

    let trajectory = read_lines(&dir.join("trajectory.csv"));
    assert_eq!(trajectory[0], "t,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz");
    assert_eq!(trajectory.len(), 3);
    let rows: Vec<Vec<String>> = trajectory[1..].iter().map(|l| split_csv(l)).collect();
    assert_eq!(rows[0][1], "ball");
    assert_eq!(rows[1][1], "say \"hi\", world", "quoted names read back intact");
    let q = pose.rotation.quaternion();
    let expected = [
        0.001,
        f64::NAN, // the name column
        awkward[0],
        awkward[1],
        awkward[2],
        q.w,
        q.i,
        q.j,
        q.k,
        awkward[3],
        awkward[4],
        awkward[5],
        awkward[6],
        awkward[7],
        awkward[8],
    ];
    for row in &rows {
        assert_eq!(row.len(), 15);
        for (k, (field, want)) in row.iter().zip(expected).enumerate() {
            if k != 1 {
                assert_eq!(num(field).to_bits(), want.to_bits(), "column {k}: '{field}'");
            }
        }
    }

    let energy_lines = read_lines(&dir.join("energy.csv"));
    assert_eq!(energy_lines[0], "t,kinetic,gravity,elastic,dissipated,total");
    let e: Vec<f64> = split_csv(&energy_lines[1]).iter().map(|f| num(f)).collect();
    let want = [0.001, energy.kinetic, energy.gravity, energy.elastic, energy.dissipated, energy.total];
    assert_eq!(
        e.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
        want.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
    );

    let contacts = read_lines(&dir.join("contacts.csv"));
    assert_eq!(contacts[0], "t,a,b,fx,fy,fz,tx,ty,tz,area,normal_force,slip_speed");
    let c1 = split_csv(&contacts[1]);
    assert_eq!((c1[1].as_str(), c1[2].as_str()), ("ball", "floor, main"));
    let f = &wrench.force;
    let m = &wrench.torque;
    for (field, want) in c1[3..10].iter().zip([f.x, f.y, f.z, m.x, m.y, m.z, awkward[1]]) {
        assert_eq!(num(field).to_bits(), want.to_bits());
    }
    let c2 = split_csv(&contacts[2]);
    assert_eq!(c2.len(), 12);
    assert_eq!(c2[9], "", "a missing area is an empty field");
    assert_eq!((c2[10].as_str(), c2[11].as_str()), ("", ""), "no centre: empty normal force and slip");
}

#[test]
fn csv_rows_reach_the_disk_when_the_writer_is_dropped_without_finish() {
    for create in WRITERS {
        rows_kept_on_drop(create);
    }
}

fn rows_kept_on_drop(create: Create) {
    let dir = temp_dir("csv-drop");
    {
        let mut out = create(&dir).unwrap();
        out.energy(
            0.5,
            &EnergyRow {
                kinetic: 1.0,
                gravity: 2.0,
                elastic: 3.0,
                dissipated: 4.0,
                total: 10.0,
                joints: None,
            },
        )
        .unwrap();
        out.contact(0.5, "a", "b", &Wrench::zero(), Some(0.0)).unwrap();
        // Dropped here, as when a simulation step fails and `?` returns early.
    }
    assert_eq!(
        read_lines(&dir.join("energy.csv")),
        ["t,kinetic,gravity,elastic,dissipated,total", "0.5,1,2,3,4,10"]
    );
    assert_eq!(read_lines(&dir.join("contacts.csv"))[1], "0.5,a,b,0,0,0,0,0,0,0,,");
    assert_eq!(read_lines(&dir.join("trajectory.csv")).len(), 1, "the header alone");
}

#[test]
fn csv_into_a_path_that_is_a_file_is_a_typed_error() {
    let dir = temp_dir("csv-bad");
    let file = dir.join("not_a_folder");
    std::fs::write(&file, "x").unwrap();
    assert!(matches!(SimWriter::create(&file), Err(OutputError::Io { .. })));
}

/// A square of two triangles in the plane z = 0 with pressure rising in x.
fn square_surface(side: f64) -> ContactSurface {
    let v = |x: f64, y: f64| Point3::new(x, y, 0.0);
    let tri = |a: Point3, b: Point3, c: Point3| ContactPolygon {
        pressure: vec![1e3 * a.x, 1e3 * b.x, 1e3 * c.x],
        vertices: vec![a, b, c],
        normal: Vector3::z(),
    };
    ContactSurface {
        polygons: vec![
            tri(v(0., 0.), v(side, 0.), v(side, side)),
            tri(v(0., 0.), v(side, side), v(0., side)),
        ],
    }
}

/// The value of attribute `name` in the first XML element of `text` that has it.
fn attribute<'a>(text: &'a str, name: &str) -> &'a str {
    let key = format!("{name}=\"");
    let start = text.find(&key).unwrap_or_else(|| panic!("no {name}")) + key.len();
    &text[start..start + text[start..].find('"').unwrap()]
}

/// `(timestep, part, file)` of every DataSet of a `.pvd` collection.
fn datasets(pvd: &str) -> Vec<(f64, usize, String)> {
    pvd.lines()
        .filter(|l| l.trim_start().starts_with("<DataSet"))
        .map(|l| {
            (
                num(attribute(l, "timestep")),
                attribute(l, "part").parse().unwrap(),
                attribute(l, "file").into(),
            )
        })
        .collect()
}

#[test]
fn vtk_series_lists_every_frame_with_its_time_and_the_files_hold_the_meshes() {
    let dir = temp_dir("series").join("vtk");
    let tet_vertices = [
        Point3::origin(),
        Point3::new(1., 0., 0.),
        Point3::new(0., 1., 0.),
        Point3::new(0., 0., 1.),
        Point3::new(1., 1., 1.),
    ];
    let tets = [[0, 1, 2, 3], [1, 2, 3, 4]];
    let floor_vertices = [
        Point3::new(-1., -1., 0.),
        Point3::new(1., -1., 0.),
        Point3::new(1., 1., 0.),
        Point3::new(-1., 1., 0.),
    ];
    let floor_triangles = [[0, 1, 2], [0, 2, 3]];
    let surface = square_surface(0.1);
    let times = [0.0, 0.1, 0.2 + 1e-17, 1.0 / 3.0];

    let mut series = VtkSeries::create(&dir).unwrap();
    for (i, &t) in times.iter().enumerate() {
        let moved: Vec<Point3> = tet_vertices.iter().map(|p| p + Vector3::new(0.0, 0.0, t)).collect();
        let bodies = [
            BodyFrame { name: "ball one", vertices: &moved, cells: MeshCells::Tets(&tets) },
            BodyFrame {
                name: "floor",
                vertices: &floor_vertices,
                cells: MeshCells::Triangles(&floor_triangles),
            },
        ];
        // The pair touches in every other frame only.
        let pair = [ContactFrame { a: "ball one", b: "floor", surface: &surface }];
        let contacts: &[ContactFrame] = if i % 2 == 0 { &pair } else { &[] };
        series.write_frame(t, &bodies, contacts).unwrap();
    }
    assert_eq!(series.frames(), times.len());

    let bodies_pvd = std::fs::read_to_string(dir.join("bodies.pvd")).unwrap();
    assert!(bodies_pvd.contains("type=\"Collection\"") && bodies_pvd.trim_end().ends_with("</VTKFile>"));
    let entries = datasets(&bodies_pvd);
    assert_eq!(entries.len(), 2 * times.len());
    for (k, (t, part, file)) in entries.iter().enumerate() {
        assert_eq!(t.to_bits(), times[k / 2].to_bits(), "times are exact");
        assert_eq!(*part, k % 2, "each body keeps its part number");
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        let (points, cells, cell_type) = if k % 2 == 0 { ("5", "2", "10") } else { ("4", "2", "5") };
        assert_eq!(attribute(&text, "NumberOfPoints"), points, "{file}");
        assert_eq!(attribute(&text, "NumberOfCells"), cells, "{file}");
        let types = text.split("Name=\"types\"").nth(1).unwrap();
        assert_eq!(types.lines().nth(1).unwrap().trim(), cell_type);
    }
    // The ball's frame files hold the posed vertices: its apex rises with t.
    let last = std::fs::read_to_string(dir.join(&entries[6].2)).unwrap();
    let apex = format!("0 0 {}", 1.0 + times[3]);
    assert!(last.lines().any(|l| l == apex), "posed vertex '{apex}' in {}", entries[6].2);

    let contact_entries = datasets(&std::fs::read_to_string(dir.join("contacts.pvd")).unwrap());
    assert_eq!(contact_entries.iter().map(|e| e.0).collect::<Vec<_>>(), [times[0], times[2]]);
    for (_, part, file) in &contact_entries {
        assert_eq!(*part, 0);
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        assert_eq!(attribute(&text, "NumberOfPoints"), "6");
        assert_eq!(attribute(&text, "NumberOfCells"), "2");
        let pressure = text.split("Name=\"pressure\"").nth(1).unwrap();
        let values: Vec<f64> = pressure.lines().skip(1).take(6).map(|l| num(l.trim())).collect();
        assert_eq!(values, [0.0, 100.0, 100.0, 0.0, 100.0, 0.0]);
    }
}

#[test]
fn vtk_series_rejects_a_bad_frame_and_keeps_the_earlier_ones() {
    let dir = temp_dir("series-bad");
    let vertices = [Point3::origin(), Point3::new(1., 0., 0.), Point3::new(0., 1., 0.)];
    let mut series = VtkSeries::create(&dir).unwrap();
    let good = [BodyFrame { name: "tri", vertices: &vertices, cells: MeshCells::Triangles(&[[0, 1, 2]]) }];
    series.write_frame(0.0, &good, &[]).unwrap();
    let bad = [BodyFrame { name: "tri", vertices: &vertices, cells: MeshCells::Triangles(&[[0, 1, 3]]) }];
    assert!(matches!(series.write_frame(0.1, &bad, &[]), Err(OutputError::BadInput { .. })));
    let mut surface = square_surface(1.0);
    surface.polygons[1].pressure.pop();
    let pair = [ContactFrame { a: "tri", b: "tri", surface: &surface }];
    assert!(matches!(series.write_frame(0.1, &good, &pair), Err(OutputError::BadInput { .. })));
    let pvd = std::fs::read_to_string(dir.join("bodies.pvd")).unwrap();
    assert_eq!(datasets(&pvd).len(), 1);
    assert_eq!(series.frames(), 1);
}

/// A named line of a plot.
type Series<'a> = (&'a str, &'a [(f64, f64)]);

/// Decodes an RGB PNG into (width, height, pixels).
fn decode(path: &std::path::Path) -> (u32, u32, Vec<[u8; 3]>) {
    let decoder = png::Decoder::new(std::fs::File::open(path).unwrap());
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgb);
    let pixels = buf[..info.buffer_size()].chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect();
    (info.width, info.height, pixels)
}

fn count_colour(pixels: &[[u8; 3]], c: [u8; 3]) -> usize {
    pixels.iter().filter(|p| **p == c).count()
}

#[test]
fn plot_draws_each_series_in_its_colour_at_the_requested_size() {
    let dir = temp_dir("plot");
    let path = dir.join("energy.png");
    let kinetic: Vec<(f64, f64)> =
        (0..200).map(|i| (i as f64 * 0.01, (i as f64 * 0.05).sin().powi(2))).collect();
    let gravity: Vec<(f64, f64)> =
        (0..200).map(|i| (i as f64 * 0.01, -(i as f64 * 0.05).cos().powi(2))).collect();
    let total: Vec<(f64, f64)> = (0..200).map(|i| (i as f64 * 0.01, 0.0)).collect();
    let series: [(&str, &[(f64, f64)]); 3] =
        [("kinetic", &kinetic), ("gravity", &gravity), ("total (J)", &total)];
    plot_lines(&path, "Energy vs time", "t (s)", &series, 640, 400).unwrap();
    let (w, h, pixels) = decode(&path);
    assert_eq!((w, h), (640, 400));
    let counts: Vec<usize> = (0..3).map(|i| count_colour(&pixels, plot_colour(i))).collect();
    for (i, n) in counts.iter().enumerate() {
        // Far more than the legend swatch: the line itself is drawn.
        assert!(*n > 500, "series {i} has only {n} pixels of its colour");
    }
    let colours: std::collections::HashSet<[u8; 3]> = (0..10).map(plot_colour).collect();
    assert_eq!(colours.len(), 10, "the first ten series have distinct colours");
}

#[test]
fn plot_survives_nan_empty_constant_and_extreme_series() {
    let dir = temp_dir("plot-edge");
    let with_nan =
        [(0.0, 1.0), (0.4, 1.5), (0.5, f64::NAN), (1.0, 2.0), (1.4, 1.0), (f64::INFINITY, 3.0), (2.0, 2.5)];
    let empty: [(f64, f64); 0] = [];
    let constant = [(0.0, 4.0), (1.0, 4.0), (2.0, 4.0)];
    let cases: [(&str, Vec<Series>); 6] = [
        ("mixed.png", vec![("nan", &with_nan), ("empty", &empty), ("flat", &constant)]),
        ("nothing.png", vec![]),
        ("only_empty.png", vec![("empty", &empty)]),
        ("flat.png", vec![("flat", &constant)]),
        ("huge.png", vec![("huge", &[(0.0, -1e308), (1.0, 1.7e308), (1e-300, 5e-324)])]),
        ("one_point.png", vec![("one", &[(3.0, 3.0)])]),
    ];
    for (name, series) in &cases {
        let path = dir.join(name);
        plot_lines(&path, "edge / case 100%", "t (s)", series, 300, 200).unwrap();
        assert_eq!(decode(&path).0, 300);
    }
    let (_, _, pixels) = decode(&dir.join("flat.png"));
    assert!(count_colour(&pixels, plot_colour(0)) > 300, "a constant series is drawn as a line");
    let (_, _, pixels) = decode(&dir.join("mixed.png"));
    assert!(count_colour(&pixels, plot_colour(0)) > 100, "finite parts of a series with NaN are drawn");
    let many: Vec<(String, Vec<(f64, f64)>)> =
        (0..60).map(|i| (format!("pair {i}"), vec![(0.0, i as f64), (1.0, i as f64 + 1.0)])).collect();
    let many: Vec<(&str, &[(f64, f64)])> = many.iter().map(|(n, p)| (n.as_str(), p.as_slice())).collect();
    plot_lines(&dir.join("many.png"), "many", "t", &many, 200, 120).unwrap();
    assert!(matches!(
        plot_lines(&dir.join("tiny.png"), "", "", &[], 10, 10),
        Err(OutputError::BadInput { .. })
    ));
    assert!(matches!(
        plot_lines(&dir.join("wide.png"), "", "", &[], 100_000, 100),
        Err(OutputError::BadInput { .. })
    ));
}

#[test]
fn progress_disabled_prints_nothing_and_any_time_is_accepted() {
    let mut quiet = Vec::new();
    {
        let mut p = Progress::with_writer(&mut quiet, 1.0, ProgressMode::Off);
        for t in [0.0, 0.5, 2.0, -1.0, f64::NAN, f64::INFINITY] {
            p.update(t);
        }
        p.finish();
    }
    assert!(quiet.is_empty());

    let mut shown = Vec::new();
    {
        let mut p = Progress::with_writer(&mut shown, 2.0, ProgressMode::Bar);
        p.update(0.5);
        for t in [3.0, -1.0, f64::NAN, f64::NEG_INFINITY, 1e300] {
            p.update(t);
        }
        p.finish();
        p.finish();
        p.update(1.0);
    }
    let text = String::from_utf8(shown).unwrap();
    assert!(text.starts_with("\rsimulating  25% [#####...............] t=0.500 s  rtf "), "{text:?}");
    assert!(text.contains(" eta "), "{text:?}");
    assert!(text.contains("\rsimulating 100% [####################] t=2.000 s"), "{text:?}");
    assert!(text.ends_with('\n') && text.matches('\n').count() == 1, "{text:?}");

    // Zero or nonsense totals and a dropped, unfinished indicator.
    for total in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        let mut out = Vec::new();
        let mut p = Progress::with_writer(&mut out, total, ProgressMode::Bar);
        p.update(0.1);
        drop(p);
        assert!(out.ends_with(b"\n"), "an unfinished line is ended on drop");
    }
}

#[test]
fn progress_without_a_terminal_writes_whole_lines_with_the_time_left() {
    let mut out = Vec::new();
    {
        let mut p = Progress::with_writer(&mut out, 10.0, ProgressMode::Lines)
            .with_line_interval(std::time::Duration::ZERO);
        std::thread::sleep(std::time::Duration::from_millis(20));
        p.update(2.5);
        p.update(5.0);
        p.finish();
    }
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text:?}");
    assert!(!text.contains('\r'), "no carriage returns in a log: {text:?}");
    assert!(lines[0].starts_with("contactlab: simulating 25%: t = 2.500 s of 10 s, rtf "), "{text:?}");
    assert!(lines[1].contains("eta ") && lines[1].ends_with(" s"), "{text:?}");
}

#[test]
fn a_run_over_last_runs_large_files_leaves_only_its_own_rows() {
    // Large files are renamed aside and deleted by the writer (not truncated before the run);
    // small ones are truncated: either way only the new rows remain, and nothing hidden.
    for create in WRITERS {
        let dir = temp_dir("over-last-run");
        std::fs::write(dir.join("trajectory.csv"), "old,row\n".repeat(300_000)).unwrap();
        std::fs::write(dir.join("contacts.csv"), "old\n").unwrap();
        let mut writer = create(&dir).unwrap();
        let pose = Isometry3::translation(1.0, 2.0, 3.0);
        writer.body(0.5, "b", &pose, &Twist::default()).unwrap();
        writer.finish().unwrap();
        let rows = read_lines(&dir.join("trajectory.csv"));
        assert_eq!(rows.len(), 2, "{rows:?}");
        assert!(rows[1].starts_with("0.5,b,1,2,3,"), "{rows:?}");
        assert_eq!(
            read_lines(&dir.join("contacts.csv")),
            ["t,a,b,fx,fy,fz,tx,ty,tz,area,normal_force,slip_speed"]
        );
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names, ["contacts.csv", "energy.csv", "trajectory.csv"]);
    }
}
