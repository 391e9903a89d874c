// An example assignment as a SCORM package (downloaded from the grading page's button,
// www/scorm-package.ts) in Chromium, hosted the
// way a learning platform hosts one: a page that embeds scorm-again's runtime (the
// SCORM 1.2 `window.API` or the 2004 `window.API_1484_11`) loads the package's launch
// page in a frame. The student answers; the score, the completion, each task as an
// interaction and the work in suspend_data arrive in the runtime. The zip is unpacked
// by Debian's unzip, which checks every entry's CRC.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DIST, launch, serveStatic } from './harness.mjs';

const RUNTIME = readFileSync(new URL('../../node_modules/scorm-again/dist/scorm-again.js', import.meta.url), 'utf8');

/** The platform's page: the runtime with a learner, every SetValue logged, the package's launch page in a frame. */
function host(version, initial) {
  const [global, make, event] = version === '1.2' ? ['API', 'Scorm12API', 'LMSSetValue.cmi.*'] : ['API_1484_11', 'Scorm2004API', 'SetValue.cmi.*'];
  return `<!doctype html><html><head><meta charset="utf-8"><script src="/scorm-again.js"></script><script>
window.setValues = [];
window.${global} = new window.${make}({ autocommit: false, logLevel: 5 });
window.${global}.loadFromFlattenedJSON(${JSON.stringify(initial)}, '');
window.${global}.on(${JSON.stringify(event)}, function (element, value) { window.setValues.push([element, String(value)]); });
</script></head><body><iframe id="sco" src="launch.html" style="width:1400px;height:900px"></iframe></body></html>`;
}

let browser;
let site;
const dirs = [];
before(async () => {
  browser = await launch();
  site = await serveStatic(DIST);
});
after(async () => {
  await browser?.close();
  await site?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Downloads the package from the grading page, unpacks it with unzip, serves it with the platform's page; returns the server. */
async function platform(version, initial, assignment = 'stability') {
  const dir = mkdtempSync(join(tmpdir(), `odelab-scorm${version}-`));
  dirs.push(dir);
  const zip = join(dir, 'package.zip');
  const context = await browser.newContext({ acceptDownloads: true });
  const grading = await context.newPage();
  await grading.goto(`${site.url}?assignment=examples/assignments/${assignment}.json&grade=1`);
  await grading.waitForSelector('body[data-homework="ready"]');
  const [download] = await Promise.all([grading.waitForEvent('download'), grading.click(`#grade-scorm-${version.replace('.', '')}`)]);
  assert.equal(download.suggestedFilename(), `${assignment}-scorm${version.replace('.', '')}.zip`);
  await download.saveAs(zip);
  assert.match(await grading.textContent('#grade-status'), /package written \([0-9.]+ MB\)/);
  await context.close();
  execFileSync('unzip', ['-tq', zip]);
  execFileSync('unzip', ['-q', zip, '-d', join(dir, 'sco')]);
  const manifest = readFileSync(join(dir, 'sco', 'imsmanifest.xml'), 'utf8');
  assert.match(manifest, new RegExp(`<schemaversion>${version === '1.2' ? '1\\.2' : '2004 4th Edition'}</schemaversion>`));
  assert.match(manifest, /href="launch\.html"/);
  for (const f of ['index.html', 'assignment.json', 'launch.html']) assert.match(manifest, new RegExp(`<file href="${f.replace('.', '\\.')}"/>`));
  assert.match(manifest, /<file href="assets\/[^"]+\.wasm"\/>/, 'the engine is in the package');
  return serveStatic(join(dir, 'sco'), { '/host.html': host(version, initial), '/scorm-again.js': RUNTIME });
}

/** Opens the platform's page and answers the three number tasks of the stability assignment in the frame. */
async function answerNumbers(server) {
  const page = await browser.newPage({ viewport: { width: 1450, height: 950 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${server.url}host.html`);
  const frame = await (await page.waitForSelector('#sco')).contentFrame();
  await frame.waitForURL(/index\.html\?assignment=assignment\.json&scorm=/);
  await frame.waitForSelector('body[data-homework="ready"]', { timeout: 30000 });
  await frame.waitForSelector('#hw-handin');
  for (const [id, value] of [['euler-limit', '0.005'], ['rk4-limit', '0.2875'], ['rk4-intercept', '-2.785']]) {
    await frame.fill(`[data-task="${id}"] .hw-value`, value);
    await frame.click(`[data-task="${id}"] .hw-check`);
    await frame.waitForFunction((sel) => document.querySelector(sel)?.dataset.result === 'passed', `[data-task="${id}"]`, { timeout: 60000 });
  }
  return { page, frame, errors };
}

/** The last value the package set for `element`. */
async function last(page, element) {
  const values = await page.evaluate(() => window.setValues);
  return values.filter(([e]) => e === element).at(-1)?.[1];
}

test('a SCORM 1.2 package reports its score, completion, interactions and the work to scorm-again', async () => {
  const server = await platform('1.2', { 'cmi.core.student_id': 's1234567', 'cmi.core.student_name': 'Lovelace, Ada' });
  const { page, frame, errors } = await answerNumbers(server);
  assert.equal(await frame.inputValue('#hw-student'), 'Lovelace, Ada', 'the learner comes from the platform');
  // 4 of 9 points: 1.2's score.raw is a percentage.
  assert.equal(await last(page, 'cmi.core.score.raw'), '44.44');
  assert.equal(await last(page, 'cmi.core.lesson_status'), 'incomplete');
  await frame.click('#hw-handin');
  await page.waitForFunction(() => window.API.cmi.core.lesson_status === 'completed');
  assert.equal(await page.evaluate(() => window.API.cmi.core.score.raw), '44.44');
  const ids = (await page.evaluate(() => window.setValues)).filter(([e]) => /^cmi\.interactions\.\d+\.id$/.test(e)).map(([, v]) => v);
  assert.ok(ids.includes('task-euler-limit') && ids.includes('task-spring-system'), ids.join());
  assert.equal(await last(page, 'cmi.interactions.0.result'), 'correct');
  assert.equal(await last(page, 'cmi.interactions.5.result'), 'neutral', 'an unanswered task');
  const work = JSON.parse(await page.evaluate(() => window.API.cmi.suspend_data));
  assert.deepEqual(work.answers['euler-limit'], { value: 0.005 });
  assert.deepEqual(errors, []);
  await page.close();
  await server.close();
});

test('a SCORM 2004 package reports a scaled score and completion, and restores the work from suspend_data', async () => {
  const server = await platform('2004', { 'cmi.learner_id': 's1234567', 'cmi.learner_name': 'Lovelace, Ada' });
  const { page, frame, errors } = await answerNumbers(server);
  await frame.click('#hw-handin');
  await page.waitForFunction(() => window.API_1484_11.cmi.completion_status === 'completed');
  assert.equal(await page.evaluate(() => String(window.API_1484_11.cmi.score.scaled)), '0.4444');
  assert.equal(await page.evaluate(() => String(window.API_1484_11.cmi.score.raw)), '4');
  assert.equal(await page.evaluate(() => String(window.API_1484_11.cmi.score.max)), '9');
  assert.equal(await last(page, 'cmi.interactions.0.result'), 'correct');
  const saved = await page.evaluate(() => window.API_1484_11.cmi.suspend_data);
  assert.deepEqual(errors, []);
  await page.close();
  await server.close();

  // The next session: the platform hands back suspend_data; the answers are there and checked again.
  const again = await platform('2004', { 'cmi.learner_id': 's1234567', 'cmi.suspend_data': saved });
  const next = await browser.newPage({ viewport: { width: 1450, height: 950 } });
  await next.goto(`${again.url}host.html`);
  const frame2 = await (await next.waitForSelector('#sco')).contentFrame();
  await frame2.waitForSelector('body[data-homework="ready"]', { timeout: 30000 });
  await frame2.waitForFunction(() => document.querySelector('#hw-score')?.textContent === 'Score: 4 / 9', null, { timeout: 60000 });
  assert.equal(await frame2.inputValue('[data-task="rk4-limit"] .hw-value'), '0.2875');
  await next.waitForFunction(() => String(window.API_1484_11.cmi.score.raw) === '4');
  await next.close();
  await again.close();
});

test("in a package, the platform's learner id deals the student's values and cannot be changed on the page", async () => {
  const server = await platform('1.2', { 'cmi.core.student_id': 's1234567', 'cmi.core.student_name': 'Lovelace, Ada' }, 'springs');
  const page = await browser.newPage({ viewport: { width: 1450, height: 950 } });
  await page.goto(`${server.url}host.html`);
  const frame = await (await page.waitForSelector('#sco')).contentFrame();
  await frame.waitForSelector('body[data-homework="ready"]', { timeout: 30000 });
  await frame.waitForFunction(() => document.querySelector('#hw-values')?.dataset.values);
  // The values the core deals to s1234567 for this assignment (tests/homework/variants.rs documents the hash).
  assert.deepEqual(JSON.parse(await frame.getAttribute('#hw-values', 'data-values')), { L: 0.7, c: 0.7, k: 125 });
  assert.equal(await frame.getAttribute('#hw-student-id', 'readonly'), '');
  // A keyed task is reported as an interaction with a neutral result, never graded in the browser.
  await frame.fill('[data-task="euler-limit"] .hw-value', '0.0056');
  await frame.click('[data-task="euler-limit"] .hw-check');
  await frame.waitForFunction(() => document.querySelector('[data-task="euler-limit"]')?.dataset.result === 'recorded');
  await page.waitForFunction(() => window.setValues.some(([e, v]) => e === 'cmi.interactions.0.student_response' && v === '{"value":0.0056}'));
  assert.equal(await last(page, 'cmi.interactions.0.result'), 'neutral');
  assert.equal(await last(page, 'cmi.core.score.raw'), '0');
  await page.close();
  await server.close();
});
