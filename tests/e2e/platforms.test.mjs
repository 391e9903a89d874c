// The platforms lecturers write in, each with its real tool where a registry has it:
// the anywidget module (dist/anywidget.js) rendered in Chromium with a model built as
// anywidget's documentation specifies (get, set, on, off, save_changes); MyST's
// {anywidget} directive built by mystmd (npm), its node rendered as a MyST theme does;
// the Quarto shortcode (_extensions/odelab/odelab.lua) run by pandoc (Debian) through
// tests/quarto/shortcodes.lua, Quarto's way of calling it (Quarto itself is in no
// registry here), its HTML opened in Chromium; and the bare iframe URL form.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { DIST, launch, serveStatic } from './harness.mjs';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const site = { pages: {} };

before(async () => {
  // odelab's host sends CORS headers, as a notebook importing dist/anywidget.js by URL needs.
  site.dist = await serveStatic(DIST, {}, { cors: true });
  // Lecture pages on another origin; `pages` is filled by each test before it opens one.
  site.host = await serveStatic(DIST, site.pages);
  site.browser = await launch();
});
after(async () => {
  await site.browser?.close();
  await site.host?.close();
  await site.dist?.close();
});

/** A page on the host origin, with errors collected. */
async function openHosted(path) {
  const context = await site.browser.newContext({ viewport: { width: 1100, height: 3000 } });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${site.host.url}${path.replace(/^\//, '')}`);
  return { context, page, errors };
}

/** The frames showing odelab in `page` once `count` are ready. */
async function readyFrames(page, count) {
  await page.waitForFunction((n) => document.querySelectorAll('iframe[src]').length === n, count);
  const frames = [];
  for (const element of await page.locator('iframe').elementHandles()) {
    const frame = await element.contentFrame();
    await frame.waitForSelector('body[data-ready="true"]', { timeout: 60000 });
    frames.push(frame);
  }
  return frames;
}

/**
 * A module script that renders an anywidget module with a model as anywidget's docs
 * specify it (a Backbone-like model: get, set, on/off of `change:<name>`, save_changes),
 * exposed as window.model; window.cleanup is what render returned.
 */
function anywidgetHost(esm, state) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Notebook</title><link rel="icon" href="data:,"></head>
<body><h1>A notebook cell</h1><div id="cell"></div>
<script type="module">
const values = new Map(Object.entries(${JSON.stringify(state)}));
const listeners = new Map();
const model = {
  get: (name) => values.get(name),
  set(name, value) {
    values.set(name, value);
    for (const fn of listeners.get('change:' + name) ?? []) fn();
  },
  on(event, fn) {
    if (!listeners.has(event)) listeners.set(event, new Set());
    listeners.get(event).add(fn);
  },
  off(event, fn) {
    listeners.get(event)?.delete(fn);
  },
  save_changes() {},
  send() {},
};
window.model = model;
window.listeners = listeners;
const widget = await import(${JSON.stringify(esm)});
window.cleanup = await widget.default.render({ model, el: document.getElementById('cell') });
</script></body></html>`;
}

test('the anywidget module renders a scenario from its model, follows changes and cleans up', async () => {
  site.pages['/notebook.html'] = anywidgetHost(`${site.dist.url}anywidget.js`, { scenario: 'rk4-region', readonly: true });
  const { context, page, errors } = await openHosted('/notebook.html');
  let [frame] = await readyFrames(page, 1);
  assert.equal(await page.locator('iframe').getAttribute('src'), `${site.dist.url}index.html?embed=1&scenario=rk4-region&readonly=1`);
  assert.ok(await frame.isVisible('#plane'));
  assert.equal(await frame.isVisible('#tabs'), false, 'read-only: no tab bar');
  // A change of the model's scenario reloads the frame on the new scenario.
  await page.evaluate(() => window.model.set('scenario', 'euler-pendulum-blowup'));
  await frame.waitForURL(/scenario=euler-pendulum-blowup/);
  [frame] = await readyFrames(page, 1);
  assert.equal(await frame.textContent('#caption-title'), 'Explicit Euler gains energy on the pendulum');
  // anywidget calls the returned cleanup when the view goes: the frame and the listeners go.
  await page.evaluate(() => window.cleanup());
  assert.equal(await page.locator('iframe').count(), 0);
  assert.equal(await page.evaluate(() => [...window.listeners.values()].reduce((n, s) => n + s.size, 0)), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('mystmd builds the {anywidget} directive, and its node renders the embed as a MyST theme does', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'odelab-myst-'));
  try {
    // A local site template, so that mystmd builds the page's content without asking the
    // network for a theme (the theme only draws the content this test renders).
    await mkdir(join(dir, 'theme'));
    await writeFile(join(dir, 'theme', 'template.yml'), 'myst: v1\nkind: site\ntitle: local\n');
    await writeFile(join(dir, 'myst.yml'), 'version: 1\nproject:\n  title: Lecture 9\nsite:\n  template: ./theme\n');
    const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
    const block = readme.match(/```markdown\n(:::\{anywidget\}[^]*?:::)\n```/);
    assert.ok(block, 'the README has a MyST {anywidget} example');
    const directive = block[1].replaceAll('https://your.site/odelab/', site.dist.url);
    await writeFile(join(dir, 'index.md'), `# Lecture 9\n\n${directive}\n`);
    await run(join(ROOT, 'node_modules/.bin/myst'), ['build', '--site'], { cwd: dir, env: { ...process.env, CI: 'true' } });
    const content = JSON.parse(await readFile(join(dir, '_build/site/content/index.json'), 'utf8'));
    const nodes = [];
    const visit = (node) => {
      if (node?.type === 'anywidget') nodes.push(node);
      for (const child of node?.children ?? []) visit(child);
    };
    visit(content.mdast);
    assert.equal(nodes.length, 1);
    const [node] = nodes;
    assert.equal(node.model.scenario, 'rk4-region');
    // mystmd keeps a copy of the module with the site (public/); the page loads that copy,
    // and the model's `base` points the frame at odelab.
    // (Served as .js: the test's static server types files by extension, .mjs it does not know.)
    const esm = node.esm.startsWith('http') ? node.esm : `/myst${node.esm.replace(/\.mjs$/, '.js')}`;
    if (!node.esm.startsWith('http')) site.pages[esm] = await readFile(join(dir, '_build/site/public', node.esm.replace(/^\//, '')), 'utf8');
    site.pages['/myst.html'] = anywidgetHost(esm, node.model);
    const { context, page, errors } = await openHosted('/myst.html');
    const [frame] = await readyFrames(page, 1);
    assert.ok(frame.url().startsWith(`${site.dist.url}index.html?embed=1&scenario=rk4-region`), frame.url());
    await frame.waitForFunction(() => document.body.dataset.stability === 'ok', null, { timeout: 30000 });
    assert.deepEqual(errors, []);
    await context.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('the Quarto shortcode emits embed.js once and one <ode-playground> per call, which render', async () => {
  const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
  const shortcodes = [...readme.matchAll(/^\{\{< odelab [^\n]*>\}\}$/gm)].map((m) => m[0]);
  assert.ok(shortcodes.length >= 2, 'the README shows the shortcode');
  const markdown = `---\ntitle: Lecture 9\nodelab:\n  base: ${site.dist.url}\n---\n\nText.\n\n${shortcodes.join('\n\nMore text.\n\n')}\n`;
  const env = { ...process.env, ODELAB_SHORTCODE: join(ROOT, '_extensions/odelab/odelab.lua') };
  const filter = join(ROOT, 'tests/quarto/shortcodes.lua');
  const pandoc = (to) =>
    new Promise((resolve, reject) => {
      const args = ['-f', 'markdown-smart', '-t', to, '--standalone', '--metadata', 'pagetitle=Lecture 9', '--lua-filter', filter];
      const child = execFile('pandoc', args, { env }, (error, stdout) => (error ? reject(error) : resolve(stdout)));
      child.stdin.end(markdown);
    });
  // In a format without scripts (LaTeX, for PDF) each shortcode is a link to its scenario.
  const latex = await pandoc('latex');
  assert.equal(latex.match(/\\href\{[^}]*index\.html\?embed=1\\?&scenario=/g)?.length, shortcodes.length, latex);
  const html = await pandoc('html');
  assert.equal(html.match(/<script src="[^"]*embed\.js"><\/script>/g)?.length, 1, html);
  assert.equal(html.match(/<ode-playground /g)?.length, shortcodes.length, html);
  site.pages['/quarto.html'] = html.replace('<head>', '<head><link rel="icon" href="data:,">');
  const { context, page, errors } = await openHosted('/quarto.html');
  const frames = await readyFrames(page, shortcodes.length);
  assert.deepEqual(await page.locator('ode-playground').evaluateAll((els) => els.map((e) => e.getAttribute('scenario'))), ['rk4-region', 'euler-pendulum-blowup']);
  assert.deepEqual(await page.locator('ode-playground').evaluateAll((els) => els.map((e) => e.getAttribute('loading'))), [null, 'eager']);
  assert.ok(frames.every((f) => f.url().startsWith(`${site.dist.url}index.html?embed=1`)));
  assert.deepEqual(errors, []);
  await context.close();
});

test('the iframe URL form from the README renders without any script on the lecture page', async () => {
  const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
  const iframe = readme.match(/```html\n(<iframe [^]*?<\/iframe>)\n```/);
  assert.ok(iframe, 'the README has an <iframe> example');
  site.pages['/canvas.html'] = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A course page</title><link rel="icon" href="data:,"></head><body><h1>Week 3</h1>${iframe[1].replaceAll('https://your.site/odelab/', site.dist.url)}</body></html>`;
  const { context, page, errors } = await openHosted('/canvas.html');
  assert.equal(await page.locator('script').count(), 0);
  const [frame] = await readyFrames(page, 1);
  assert.ok(await frame.isVisible('#plot-trajectory canvas'));
  assert.deepEqual(errors, []);
  await context.close();
});
