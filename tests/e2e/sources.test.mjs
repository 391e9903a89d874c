// What a reader sees about where odelab comes from: the built site names its sources by
// authors, title and section, never by the project's internal file names; the Sources
// panel lists the four works and the errata, each erratum with a test that exists; the
// landing page introduces itself with three examples, and Help explains the controls.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { useSite, open, DIST } from './harness.mjs';

const site = useSite();
const ROOT = new URL('../../', import.meta.url);
const SCENARIOS = JSON.parse(readFileSync(new URL('www/scenarios.json', ROOT), 'utf8'));

/** Internal names a reader cannot open: our file names and the short ids of the works. */
const INTERNAL = [/seed 0/i, /METHODS\.md/, /\.\.\/shared/, /\b00[0-3] (?:eq|§|Fig|Table|Alg)/];

function filesUnder(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

test('no text the built site shows says "seed 0", "METHODS.md" or "../shared"', () => {
  // Pages, scripts, styles, the example assignments and the WebAssembly modules (whose
  // strings are the catalogues' sources, descriptions and error messages). Source maps
  // are for developers and carry the code's comments; they are not shown.
  const files = filesUnder(DIST).filter((f) => !f.endsWith('.map'));
  for (const kind of ['.html', '.js', '.wasm', '.json']) assert.ok(files.some((f) => f.endsWith(kind)), `dist/ has ${kind} files`);
  const found = [];
  for (const file of files) {
    const text = readFileSync(file).toString('latin1');
    // latin1 keeps every byte; the patterns are ASCII, so UTF-8 text matches the same.
    for (const pattern of INTERNAL) {
      const m = pattern.exec(text);
      if (m) found.push(`${relative(DIST, file)}: …${text.slice(Math.max(0, m.index - 60), m.index + 40)}…`);
    }
  }
  assert.deepEqual(found, []);
});

test('the Sources panel opens from the header and lists the four works and the errata with their tests', async () => {
  const { page, errors } = await open(site.browser, site.server.url);
  assert.equal(await page.isVisible('#sources'), false);
  await page.click('#sources-button');
  await page.waitForSelector('#sources', { state: 'visible' });
  assert.equal(await page.getAttribute('#sources-button', 'aria-expanded'), 'true');
  const works = await page.$$eval('#sources ol.works > li .ref', (els) => els.map((e) => e.textContent));
  assert.equal(works.length, 4);
  for (const [i, words] of [
    ['Schwab', 'Delhaes', 'Lecture Notes Multibody Dynamics B', 'Delft', '2009'],
    ['Negrut', 'Sandu', 'Haug', 'Potra', 'Rosenbrock–Nystrom', 'Part K', '2003'],
    ['Gil', 'Sanfelice', 'Nikravesh', 'Local Linearization Method in the Integration of Multibody Equations'],
    ['Gil', 'Sanfelice', 'Nikravesh', 'Numerical Integration Scheme Using Singular Perturbation Method', 'DETC2013-13330', '2013'],
  ].entries()) {
    for (const word of words) assert.ok(works[i].includes(word), `work ${i + 1} names ${word}: ${works[i]}`);
  }
  // Every example the panel links to is a scenario.
  const links = await page.$$eval('#sources a[href*="scenario="]', (as) => as.map((a) => new URL(a.href).searchParams.get('scenario')));
  assert.ok(links.length >= 20);
  for (const id of links) assert.ok(SCENARIOS.some((s) => s.id === id), `${id} is a scenario`);

  // The errata: the corrections, each naming a test file and a test that exist.
  const rows = await page.$$eval('#sources table.errata tbody tr', (trs) =>
    trs.map((tr) => ({ text: tr.textContent, tests: [...tr.querySelectorAll('td:last-child code')].map((c) => c.textContent) })),
  );
  assert.ok(rows.length >= 15, `${rows.length} errata`);
  const all = rows.map((r) => r.text).join('\n');
  for (const fix of ['−2.34199312711201394970520', '0.450 T', '(β/α)(e', 'i√(k/m', '2k1 + 3k2 + 4k3', '+½ y−1', '→ 2.0']) {
    assert.ok(all.replace(/\s+/g, ' ').includes(fix), `errata say ${fix}`);
  }
  let checked = 0;
  for (const row of rows) {
    // A row's code elements: a file, then the tests in it (or a caption claim's scenario).
    let file;
    for (const name of row.tests) {
      if (name.startsWith('tests/')) {
        file = readFileSync(new URL(name, ROOT), 'utf8');
        continue;
      }
      assert.ok(file, `a test file before ${name}`);
      assert.ok(file.includes(`fn ${name}(`), `${name} is a test in its file`);
      checked++;
    }
  }
  assert.ok(checked >= 12, `${checked} tests named`);
  // × closes it and gives the focus back to the button.
  await page.click('#sources .panel-close');
  assert.equal(await page.isVisible('#sources'), false);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'sources-button');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the landing page introduces odelab with three examples to try, and Help explains the controls and keys', async () => {
  const { page, errors } = await open(site.browser, site.server.url);
  assert.ok(await page.isVisible('#intro'));
  const tries = await page.$$eval('#intro ol.try a', (as) => as.map((a) => new URL(a.href).searchParams.get('scenario')));
  assert.equal(tries.length, 3);
  for (const id of tries) assert.ok(SCENARIOS.some((s) => s.id === id), `${id} is a scenario`);
  await page.click('#help-button');
  await page.waitForSelector('#help', { state: 'visible' });
  const help = await page.textContent('#help');
  for (const word of ['Step size h', 'Pin this run', 'Copy link', 'Stability (ξ-plane)', 'PageUp', 'Home']) assert.ok(help.includes(word), `help mentions ${word}`);
  await page.keyboard.press('Escape');
  assert.equal(await page.isVisible('#help'), false);
  assert.equal(await page.getAttribute('#help-button', 'aria-expanded'), 'false');

  // One of the three opens its scenario, and the introduction makes way for its caption.
  await page.click('#intro ol.try a >> nth=0');
  await page.waitForSelector('body[data-ready="true"]');
  await page.waitForFunction(() => ['ok', 'warning'].includes(document.body.dataset.status));
  assert.equal(await page.isVisible('#intro'), false);
  assert.equal(await page.textContent('#caption-title'), SCENARIOS.find((s) => s.id === tries[0]).title);
  assert.deepEqual(errors, []);
  await page.close();
});
