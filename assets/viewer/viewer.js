// contactlab viewer (docs/viewer.md): plays a run's frames — bodies at their poses, contact
// patches coloured by pressure or contact markers — beside its energy plot. The page's data is
// the JSON in #page-data (src/app/viewer_page.rs says what each field holds); three.js is the
// module text in #three-module, imported through a blob URL so the page needs no server.
//
// window.contactlab is for tests: the frame count, setFrame/last, and each body's position
// projected to page pixels.

const threeSource = document.getElementById('three-module').textContent;
const THREE = await import(URL.createObjectURL(new Blob([threeSource], { type: 'text/javascript' })));
const data = JSON.parse(document.getElementById('page-data').textContent);

const frameCount = data.times.length;
const hasPatches = data.patches.some((frame) => frame.length > 0);
const canvas = document.getElementById('scene');
const renderer = new THREE.WebGLRenderer({ canvas, antialias: true });
renderer.setPixelRatio(window.devicePixelRatio || 1);
const scene = new THREE.Scene();
scene.background = new THREE.Color('#2a2a2a');

// The scene's size and centre: the camera and the planes are scaled to it.
const lo = new THREE.Vector3(...data.bounds[0]);
const hi = new THREE.Vector3(...data.bounds[1]);
const centre = lo.clone().add(hi).multiplyScalar(0.5);
const size = Math.max(hi.clone().sub(lo).length(), 1e-6);

const camera = new THREE.PerspectiveCamera(40, 1, size * 1e-3, size * 100);
camera.up.set(0, 0, 1);
// Planar PEG scenes move in the x–z plane: looked at from −y.
const planar = data.model === 'peg' && data.bodies.every((b) => b.plane || b.vertices.every((v, i) => i % 3 !== 1 || Math.abs(v * data.length_unit) <= 0.5));
const direction = planar ? new THREE.Vector3(0.25, -1, 0.3) : new THREE.Vector3(1, -1.6, 1.6);
camera.position.copy(centre).addScaledVector(direction.normalize(), (0.5 * size) / Math.sin((20 * Math.PI) / 180) * 1.05);
const controls = new THREE.OrbitControls(camera, canvas);
controls.target.copy(centre);
controls.update();
controls.addEventListener('change', () => render());

scene.add(new THREE.AmbientLight(0xffffff, 0.8));
const sun = new THREE.DirectionalLight(0xffffff, 1.8);
sun.position.set(0.3, -0.4, 1);
camera.add(sun);
scene.add(camera);

// Bodies: one mesh each, built once; a frame only moves them.
const bodies = data.bodies.map((b) => {
  const group = new THREE.Group();
  const colour = new THREE.Color(b.colour);
  let material;
  if (b.plane) {
    // The half space's plane z = 0, a finite square under the scene, with a grid.
    const half = 1.5 * size;
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute('position', new THREE.BufferAttribute(new Float32Array([-half, -half, 0, half, -half, 0, half, half, 0, -half, half, 0]), 3));
    geometry.setIndex([0, 1, 2, 0, 2, 3]);
    geometry.computeVertexNormals();
    material = new THREE.MeshStandardMaterial({ color: colour, roughness: 0.95, side: THREE.DoubleSide, polygonOffset: true, polygonOffsetFactor: 1, polygonOffsetUnits: 1 });
    group.add(new THREE.Mesh(geometry, material));
    const grid = new THREE.GridHelper(2 * half, 20, 0x666666, 0x777777);
    grid.rotation.x = Math.PI / 2;
    group.add(grid);
  } else {
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute('position', new THREE.BufferAttribute(new Float32Array(b.vertices.map((v) => v * data.length_unit)), 3));
    geometry.setIndex(b.triangles);
    const flat = geometry.toNonIndexed();
    flat.computeVertexNormals();
    material = new THREE.MeshStandardMaterial({ color: colour, roughness: 0.7, metalness: 0 });
    const mesh = new THREE.Mesh(flat, material);
    mesh.userData.body = b;
    group.add(mesh);
  }
  scene.add(group);
  return { spec: b, group, material, colour };
});

// A plane is placed once (fixed), centred under the scene's middle.
function placePlanes(frame) {
  for (const [i, body] of bodies.entries()) {
    if (!body.spec.plane) continue;
    const pose = data.poses[frame][i];
    if (!pose) continue;
    const local = centre.clone().sub(new THREE.Vector3(pose[0], pose[1], pose[2]));
    const q = new THREE.Quaternion(pose[4], pose[5], pose[6], pose[3]);
    local.applyQuaternion(q.clone().invert());
    body.group.children.forEach((c) => c.position.set(local.x, local.y, 0));
  }
}

// Contact patches: rebuilt each frame (fan triangles, vertex colours by pressure).
const patchMaterial = new THREE.MeshBasicMaterial({ vertexColors: true, side: THREE.DoubleSide, polygonOffset: true, polygonOffsetFactor: -2, polygonOffsetUnits: -4 });
const patchMesh = new THREE.Mesh(new THREE.BufferGeometry(), patchMaterial);
patchMesh.renderOrder = 1;
scene.add(patchMesh);
const VIRIDIS = ['#440154', '#472d7b', '#3b528b', '#2c728e', '#21918c', '#28ae80', '#5ec962', '#addc30', '#fde725'].map((c) => new THREE.Color(c));
function viridis(s) {
  const x = Math.min(Math.max(s, 0), 1) * (VIRIDIS.length - 1);
  const k = Math.min(Math.floor(x), VIRIDIS.length - 2);
  return VIRIDIS[k].clone().lerp(VIRIDIS[k + 1], x - k);
}
function showPatches(frame) {
  const positions = [];
  const colours = [];
  const unit = data.length_unit;
  for (const patch of data.patches[frame]) {
    const corner = (v) => {
      positions.push(patch.vertices[3 * v] * unit, patch.vertices[3 * v + 1] * unit, patch.vertices[3 * v + 2] * unit);
      const c = viridis(patch.pressure[v] / 1000);
      colours.push(c.r, c.g, c.b);
    };
    // polygons: [n, i_1 … i_n, n, …], drawn as fans.
    for (let at = 0; at < patch.polygons.length; at += patch.polygons[at] + 1) {
      const n = patch.polygons[at];
      for (let k = 2; k < n; k++) {
        corner(patch.polygons[at + 1]);
        corner(patch.polygons[at + k]);
        corner(patch.polygons[at + k + 1]);
      }
    }
  }
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute('position', new THREE.BufferAttribute(new Float32Array(positions), 3));
  geometry.setAttribute('color', new THREE.BufferAttribute(new Float32Array(colours), 3));
  patchMesh.geometry.dispose();
  patchMesh.geometry = geometry;
}

// Markers where models without surfaces touch (Hertz: the contact point; 6D: the patch
// centre): dots of a fixed size on screen, drawn over the bodies.
const markerMaterial = new THREE.PointsMaterial({ color: '#ffffff', size: 7, sizeAttenuation: false, depthTest: false });
const markerPoints = new THREE.Points(new THREE.BufferGeometry(), markerMaterial);
markerPoints.renderOrder = 2;
scene.add(markerPoints);
function showMarkers(frame) {
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute('position', new THREE.BufferAttribute(new Float32Array(data.markers[frame].flatMap((m) => m.point)), 3));
  markerPoints.geometry.dispose();
  markerPoints.geometry = geometry;
}

// The contacts (patches and markers) can be hidden.
const contactsBox = document.getElementById('contacts');
function applyContacts() {
  patchMesh.visible = contactsBox.checked;
  markerPoints.visible = contactsBox.checked;
  render();
}
contactsBox.addEventListener('change', applyContacts);

// See-through bodies let the patches inside them show; fixed bodies (floors, walls, bins) are
// always see-through, so they hide nothing that moves.
const xray = document.getElementById('xray');
xray.checked = hasPatches;
function applyXray() {
  for (const body of bodies) {
    if (body.spec.plane) continue;
    const clear = body.spec.fixed || xray.checked;
    body.material.transparent = clear;
    body.material.opacity = body.spec.fixed ? 0.35 : clear ? 0.45 : 1;
    body.material.depthWrite = !clear;
    body.material.needsUpdate = true;
  }
  render();
}
xray.addEventListener('change', applyXray);

// Playback: simulated time advances at `speed` × wall time; the frame shown is the last one
// at or before it; at the end it starts over.
let frame = 0;
let playing = frameCount > 1;
let simTime = data.times[0] ?? 0;
let lastWall = null;
const slider = document.getElementById('slider');
const playButton = document.getElementById('play');
const speed = document.getElementById('speed');
slider.max = String(Math.max(frameCount - 1, 0));

function setFrame(k) {
  frame = Math.min(Math.max(k | 0, 0), frameCount - 1);
  simTime = data.times[frame];
  for (const [i, body] of bodies.entries()) {
    const pose = data.poses[frame][i];
    body.group.visible = pose !== null;
    if (pose) {
      body.group.position.set(pose[0], pose[1], pose[2]);
      body.group.quaternion.set(pose[4], pose[5], pose[6], pose[3]);
    }
  }
  placePlanes(frame);
  showPatches(frame);
  showMarkers(frame);
  slider.value = String(frame);
  document.getElementById('time').textContent = `t = ${data.times[frame].toFixed(4)} s`;
  showPicked();
  drawEnergy();
  render();
}

function setPlaying(on) {
  playing = on && frameCount > 1;
  playButton.textContent = playing ? 'Pause' : 'Play';
  lastWall = null;
}
playButton.addEventListener('click', () => {
  if (!playing && frame === frameCount - 1) setFrame(0);
  setPlaying(!playing);
});
slider.addEventListener('input', () => {
  setPlaying(false);
  setFrame(Number(slider.value));
});

function tick(wall) {
  if (playing) {
    if (lastWall !== null) {
      simTime += ((wall - lastWall) / 1000) * Number(speed.value);
      let k = frame;
      if (simTime > data.times[frameCount - 1]) {
        simTime = data.times[0];
        k = 0;
      }
      while (k + 1 < frameCount && data.times[k + 1] <= simTime) k++;
      if (k !== frame) {
        const t = simTime;
        setFrame(k);
        simTime = t;
      }
    }
    lastWall = wall;
  }
  requestAnimationFrame(tick);
}

// Picking: a click (not a drag) on a body shows its state at the current frame.
let picked = null;
let down = null;
canvas.addEventListener('pointerdown', (e) => (down = [e.clientX, e.clientY]));
canvas.addEventListener('pointerup', (e) => {
  if (!down || Math.hypot(e.clientX - down[0], e.clientY - down[1]) > 4) return;
  const rect = canvas.getBoundingClientRect();
  const ndc = new THREE.Vector2(((e.clientX - rect.left) / rect.width) * 2 - 1, -((e.clientY - rect.top) / rect.height) * 2 + 1);
  const ray = new THREE.Raycaster();
  ray.setFromCamera(ndc, camera);
  const hit = ray.intersectObjects(bodies.filter((b) => b.group.visible && !b.spec.plane).map((b) => b.group.children[0]))[0];
  pick(hit ? bodies.findIndex((b) => b.group.children[0] === hit.object) : null);
});

function pick(i) {
  if (picked !== null) bodies[picked].material.emissive?.set(0x000000);
  picked = i;
  if (picked !== null) bodies[picked].material.emissive?.set(0x555555);
  showPicked();
  render();
}

const fmt = (v) => (Math.abs(v) >= 1e4 || (Math.abs(v) < 1e-3 && v !== 0) ? v.toExponential(3) : v.toFixed(4));
const vec = (a) => `(${a.map(fmt).join(', ')})`;
function showPicked() {
  const box = document.getElementById('picked');
  if (picked === null) {
    box.textContent = 'Click a body to see its state.';
    return;
  }
  const b = data.bodies[picked];
  const pose = data.poses[frame][picked];
  const twist = data.twists[frame][picked];
  const force = data.forces[frame][picked];
  if (!pose) {
    box.textContent = `${b.name}\nnot present at this time`;
    return;
  }
  box.textContent = [
    `${b.name}${b.fixed ? ' (fixed)' : ''}`,
    `position  ${vec(pose.slice(0, 3))} m`,
    `velocity  ${vec(twist.slice(0, 3))} m/s`,
    `angular   ${vec(twist.slice(3))} rad/s`,
    `contact F ${vec(force)} N`,
    `|F|       ${fmt(Math.hypot(...force))} N`,
  ].join('\n');
}

// The energy plot: every column of energy.csv, with the current time as a vertical line.
const ENERGY_COLOURS = { kinetic: '#4ea1ff', gravity: '#9be36d', elastic: '#f5a623', dissipated: '#e0559b', total: '#ffffff' };
const energyCanvas = document.getElementById('energy');
const legend = document.getElementById('energy-legend');
for (const [name] of data.energy.series) {
  const span = document.createElement('span');
  const swatch = document.createElement('i');
  swatch.style.background = ENERGY_COLOURS[name] ?? '#aaa';
  span.append(swatch, name);
  legend.append(span);
}
function drawEnergy() {
  const ratio = window.devicePixelRatio || 1;
  const w = energyCanvas.clientWidth;
  const h = energyCanvas.clientHeight;
  if (energyCanvas.width !== Math.round(w * ratio)) energyCanvas.width = Math.round(w * ratio);
  if (energyCanvas.height !== Math.round(h * ratio)) energyCanvas.height = Math.round(h * ratio);
  const g = energyCanvas.getContext('2d');
  g.setTransform(ratio, 0, 0, ratio, 0, 0);
  g.clearRect(0, 0, w, h);
  const t = data.energy.t;
  if (t.length === 0) return;
  const all = data.energy.series.flatMap(([, v]) => v);
  let [ymin, ymax] = [Math.min(...all), Math.max(...all)];
  if (ymax - ymin < 1e-12 * Math.max(1, Math.abs(ymax))) [ymin, ymax] = [ymin - 1, ymax + 1];
  const [t0, t1] = [t[0], t[t.length - 1] > t[0] ? t[t.length - 1] : t[0] + 1];
  const pad = { l: 46, r: 8, t: 8, b: 18 };
  const x = (v) => pad.l + ((v - t0) / (t1 - t0)) * (w - pad.l - pad.r);
  const y = (v) => h - pad.b - ((v - ymin) / (ymax - ymin)) * (h - pad.t - pad.b);
  g.font = '10px system-ui, sans-serif';
  g.fillStyle = '#999';
  g.fillText(fmt(ymax), 2, pad.t + 8);
  g.fillText(fmt(ymin), 2, h - pad.b);
  g.fillText(`${fmt(t0)} s`, pad.l, h - 4);
  g.textAlign = 'right';
  g.fillText(`${fmt(t1)} s`, w - pad.r, h - 4);
  g.textAlign = 'left';
  if (ymin < 0 && ymax > 0) {
    g.strokeStyle = '#444';
    g.beginPath();
    g.moveTo(pad.l, y(0));
    g.lineTo(w - pad.r, y(0));
    g.stroke();
  }
  for (const [name, values] of data.energy.series) {
    g.strokeStyle = ENERGY_COLOURS[name] ?? '#aaa';
    g.lineWidth = 1.5;
    g.beginPath();
    values.forEach((v, k) => (k === 0 ? g.moveTo(x(t[k]), y(v)) : g.lineTo(x(t[k]), y(v))));
    g.stroke();
  }
  g.strokeStyle = '#ff5555';
  g.lineWidth = 1;
  g.beginPath();
  g.moveTo(x(data.times[frame]), pad.t);
  g.lineTo(x(data.times[frame]), h - pad.b);
  g.stroke();
}

function resize() {
  const rect = canvas.parentElement.getBoundingClientRect();
  renderer.setSize(rect.width, rect.height, false);
  camera.aspect = rect.width / Math.max(rect.height, 1);
  camera.updateProjectionMatrix();
  drawEnergy();
  render();
}
window.addEventListener('resize', resize);

function render() {
  renderer.render(scene, camera);
}

// The page's header and the pressure scale.
document.getElementById('title').textContent = data.title;
document.getElementById('subtitle').textContent = `${data.model} · ${data.bodies.length} bodies`;
document.getElementById('budget').textContent =
  `${frameCount} frames shown of ${data.frames_total} output times (budget ${data.frame_budget})`;
if (hasPatches) {
  document.getElementById('legend').hidden = false;
  document.getElementById('legend-bar').style.background = `linear-gradient(to right, ${VIRIDIS.map((c) => `#${c.getHexString()}`).join(', ')})`;
  const p = data.pressure_max;
  document.getElementById('legend-max').textContent = p >= 1e6 ? `${(p / 1e6).toPrecision(3)} MPa` : `${(p / 1e3).toPrecision(3)} kPa`;
}

function bodyCentre(i) {
  const v = data.bodies[i].vertices;
  if (v.length === 0) return new THREE.Vector3();
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  v.forEach((x, k) => {
    lo[k % 3] = Math.min(lo[k % 3], x);
    hi[k % 3] = Math.max(hi[k % 3], x);
  });
  return new THREE.Vector3(...lo.map((l, k) => 0.5 * (l + hi[k]) * data.length_unit));
}

window.contactlab = {
  frameCount,
  bodies: data.bodies.map((b) => b.name),
  colours: data.bodies.map((b) => b.colour),
  frame: () => frame,
  setFrame: (k) => {
    setPlaying(false);
    setFrame(k);
    return frame;
  },
  last: () => window.contactlab.setFrame(frameCount - 1),
  pause: () => setPlaying(false),
  showContacts: (on) => {
    contactsBox.checked = on;
    applyContacts();
  },
  pick: (i) => pick(i),
  pickedText: () => document.getElementById('picked').textContent,
  // Where body i's mesh is centred (its body-frame bounding box's centre placed by the current
  // frame's pose) in page pixels; null while the body is absent.
  project: (i) => {
    const pose = data.poses[frame][i];
    if (!pose) return null;
    const p = bodyCentre(i)
      .applyQuaternion(new THREE.Quaternion(pose[4], pose[5], pose[6], pose[3]))
      .add(new THREE.Vector3(pose[0], pose[1], pose[2]))
      .project(camera);
    const rect = canvas.getBoundingClientRect();
    return { x: rect.left + ((p.x + 1) / 2) * rect.width, y: rect.top + ((1 - p.y) / 2) * rect.height, depth: p.z };
  },
};

applyXray();
resize();
setFrame(0);
setPlaying(playing);
requestAnimationFrame(tick);
window.contactlab.ready = true;
