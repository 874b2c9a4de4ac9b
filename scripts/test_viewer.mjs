// The viewer page in a real browser (scripts/test_viewer.sh runs this): loads each page given
// in headless Chromium (software WebGL), fails on any console error or page error, jumps to
// the last frame, takes a screenshot (NAME.png), hides the contacts drawn over the bodies,
// takes another (NAME-bodies.png) and checks that every moving body is drawn where the
// trajectory says: the pixels of the body's colour are centred near its projected centre.
//
// usage: node test_viewer.mjs CHROMIUM SCREENSHOT_DIR PAGE.html…
import { chromium } from 'playwright-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [executablePath, shots, ...pages] = process.argv.slice(2);
const profile = mkdtempSync(join(tmpdir(), 'contactlab-chromium-'));
const browser = await chromium.launchPersistentContext(profile, {
  executablePath,
  headless: true,
  viewport: { width: 1200, height: 800 },
  deviceScaleFactor: 1,
  args: [
    '--no-sandbox',
    '--use-angle=swiftshader',
    '--enable-unsafe-swiftshader',
    '--disable-gpu-sandbox',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});

let failures = 0;
let passed = 0;
const fail = (page, message) => {
  failures++;
  console.log(`FAIL ${page}: ${message}`);
};

for (const file of pages) {
  const name = basename(dirname(resolve(file)));
  const page = await browser.newPage();
  const errors = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(String(e)));
  try {
    await page.goto(pathToFileURL(resolve(file)).href);
    await page.waitForFunction(() => window.contactlab?.ready === true, null, { timeout: 30000 });
    const info = await page.evaluate(() => {
      const c = window.contactlab;
      c.last();
      return { frames: c.frameCount, frame: c.frame(), bodies: c.bodies, colours: c.colours };
    });
    if (info.frame !== info.frames - 1) fail(name, `last() shows frame ${info.frame} of ${info.frames}`);
    // Two animation frames so everything drawn is on screen.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await page.screenshot({ path: join(shots, `${name}.png`) });
    // The bodies alone (contacts drawn over them hidden) for the pixel check.
    await page.evaluate(() => window.contactlab.showContacts(false));
    const shot = await page.screenshot({ path: join(shots, `${name}-bodies.png`) });
    const report = await page.evaluate(checkBodies, [shot.toString('base64'), 0]);
    // The check itself can fail: the same pixels against positions 150 px off.
    const shifted = await page.evaluate(checkBodies, [shot.toString('base64'), 150]);
    if (shifted.some((r) => !r.skipped && r.offset <= r.tolerance)) fail(name, 'the check passes bodies moved 150 px');
    for (const r of report) {
      if (r.skipped) continue;
      const where = `body \`${r.name}\` (${r.colour}) at (${r.x.toFixed(0)}, ${r.y.toFixed(0)})`;
      if (r.count < 20) fail(name, `${where}: only ${r.count} pixels have its colour`);
      else if (!(r.offset <= r.tolerance))
        fail(name, `${where}: its pixels centre ${r.offset.toFixed(1)} px away (tolerance ${r.tolerance.toFixed(1)} px)`);
      else passed++;
    }
    if (!report.some((r) => !r.skipped)) fail(name, 'no moving body was checked');
    // Picking shows the body's name.
    const picked = await page.evaluate(() => {
      window.contactlab.pick(window.contactlab.bodies.length - 1);
      return window.contactlab.pickedText();
    });
    if (!picked.includes(info.bodies[info.bodies.length - 1])) fail(name, `picking shows ${JSON.stringify(picked)}`);
  } catch (e) {
    fail(name, String(e));
  }
  for (const e of errors) fail(name, `console error: ${e}`);
  console.log(`${name}: checked (${shots}/${name}.png)`);
  await page.close();
}
await browser.close();
rmSync(profile, { recursive: true, force: true });
console.log(`${passed} passed, ${failures} failed`);
process.exit(failures > 0 ? 1 : 0);

// In the page: the screenshot's pixels, and for each moving body with a mesh, the number of
// pixels of its hue in the scene's canvas and the distance from their centre to its projected
// centre (window.contactlab.project) (bodies whose hue another moving body shares are skipped: their pixels mix).
async function checkBodies([png, shift]) {
  const image = new Image();
  image.src = `data:image/png;base64,${png}`;
  await image.decode();
  const canvas = new OffscreenCanvas(image.width, image.height);
  const g = canvas.getContext('2d');
  g.drawImage(image, 0, 0);
  const { data, width, height } = g.getImageData(0, 0, image.width, image.height);
  const hsv = (r, gr, b) => {
    const max = Math.max(r, gr, b);
    const d = max - Math.min(r, gr, b);
    let h = 0;
    if (d > 0) h = max === r ? ((gr - b) / d) % 6 : max === gr ? (b - r) / d + 2 : (r - gr) / d + 4;
    return [(h * 60 + 360) % 360, max > 0 ? d / max : 0, max / 255];
  };
  const hueOf = (hex) => hsv(...[1, 3, 5].map((k) => parseInt(hex.slice(k, k + 2), 16)))[0];
  const c = window.contactlab;
  const page = JSON.parse(document.getElementById('page-data').textContent);
  // Bodies without a shape have no mesh: nothing to find.
  const moving = page.bodies.map((b, i) => !b.fixed && !b.plane && b.vertices.length > 0 && c.project(i) !== null);
  const hues = page.bodies.map((b) => hueOf(b.colour));
  const close = (h1, h2) => Math.min(Math.abs(h1 - h2), 360 - Math.abs(h1 - h2)) <= 14;
  const scene = document.getElementById('scene').getBoundingClientRect();
  return page.bodies.map((b, i) => {
    const clash = moving.some((m, j) => m && j !== i && close(hues[i], hues[j]));
    if (!moving[i] || clash) return { name: b.name, skipped: true };
    const matches = (x, y) => {
      const k = 4 * (y * width + x);
      const [h, s, v] = hsv(data[k], data[k + 1], data[k + 2]);
      return s >= 0.25 && v >= 0.15 && close(h, hues[i]);
    };
    const p = c.project(i);
    p.x += shift;
    let [sx, sy, n] = [0, 0, 0];
    for (let y = Math.floor(scene.top); y < Math.min(height, scene.bottom); y++)
      for (let x = Math.floor(scene.left); x < Math.min(width, scene.right); x++)
        if (matches(x, y)) [sx, sy, n] = [sx + x, sy + y, n + 1];
    const offset = n > 0 ? Math.hypot(sx / n - p.x, sy / n - p.y) : Infinity;
    // Half the radius of a disc of the body's pixel count, plus a margin.
    const tolerance = 0.5 * Math.sqrt(n / Math.PI) + 6;
    return { name: b.name, colour: b.colour, x: p.x, y: p.y, count: n, offset, tolerance };
  });
}
