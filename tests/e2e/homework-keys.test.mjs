// Homework a course can grade, in Chromium: an assignment whose keyed checks stay in
// the lecturer's key file (the student's page, its storage and every response it
// receives carry no key value), a variant per student dealt by the student id, and a
// grading run stopped by Cancel with the page still working.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { useSite, open } from './harness.mjs';

const KEY_PATH = new URL('../../examples/assignments/keys/springs.key.json', import.meta.url);

// An assignment whose one run task an answer can keep busy: 1,000 states stepped by
// Euler at h = 1e-7 (10⁷ steps of 1,000 states: the grader's work budget of 10⁹ units
// stops it after 10⁶ steps, seconds of work).
const HEAVY = JSON.stringify({
  odelabAssignment: 1,
  title: 'heavy',
  tasks: [{ id: 'decay', kind: 'run', check: { reference: { system: 'param N = 1000\nu[i]\' = -u[i] for i = 1..N\nu[i](0) = 1 for i = 1..N' }, t1: 1, maxError: 1e-3 } }],
});
const HEAVY_WORK = (student) => JSON.stringify({ odelabWork: 1, student, answers: { decay: { spec: { method: 'euler', h: 1e-7, adaptive: false, maxSteps: 10000000 } } } });
const LIGHT_WORK = JSON.stringify({ odelabWork: 1, student: 'Light', answers: { decay: { spec: { method: 'rk4', h: 0.01, adaptive: false } } } });

const site = useSite({ '/heavy.json': HEAVY });

/** |R(z)| of RK4 at z = (re, im). */
function rk4Amplification(re, im) {
  const mul = ([a, b], [c, d]) => [a * c - b * d, a * d + b * c];
  const z = [re, im];
  const z2 = mul(z, z);
  const z3 = mul(z2, z);
  const z4 = mul(z3, z);
  return Math.hypot(1 + z[0] + z2[0] / 2 + z3[0] / 6 + z4[0] / 24, z[1] + z2[1] / 2 + z3[1] / 6 + z4[1] / 24);
}

/** The answers the key grades for a spring k, c: Euler's limit c/k and RK4's by bisection on |R(hλ)| = 1. */
function limits({ k, c }) {
  const w = Math.sqrt(k - (c * c) / 4);
  let [lo, hi] = [1e-6, 1];
  for (let i = 0; i < 200; i++) {
    const mid = (lo + hi) / 2;
    if (rk4Amplification((-c / 2) * mid, w * mid) <= 1) lo = mid;
    else hi = mid;
  }
  return { euler: c / k, rk4: lo };
}

/** Ways a number may be written on a page or in a file: full, and to 4 and 6 significant digits (plain and exponent form). */
function spellings(x) {
  const out = new Set([String(x)]);
  for (const p of [4, 6]) {
    out.add(Number(x.toPrecision(p)).toString());
    out.add(x.toExponential(p - 1));
  }
  return [...out];
}

async function check(page, id) {
  const task = `[data-task="${id}"]`;
  await page.click(`${task} .hw-check`);
  await page.waitForFunction((sel) => ['passed', 'failed', 'recorded'].includes(document.querySelector(sel)?.dataset.result ?? ''), task, { timeout: 60000 });
  return { result: await page.getAttribute(task, 'data-result'), message: await page.textContent(`${task} .hw-message`) };
}

const ready = (page) => page.waitForFunction(() => document.body.dataset.status === 'ok');

test('a keyed assignment: the student page and every response it gets carry no key value; the lecturer grades each student against their own values with the key file', async () => {
  const keyText = await readFile(KEY_PATH, 'utf8');
  const context = await site.browser.newContext({ viewport: { width: 1400, height: 900 }, acceptDownloads: true });
  const bodies = [];
  context.on('response', (response) => {
    bodies.push(
      response
        .body()
        .then((b) => `${response.url()}\n${b.toString('latin1')}`)
        .catch(() => ''),
    );
  });
  const url = `${site.server.url}?assignment=examples/assignments/springs.json&model=mass-spring-damper&method=euler`;
  const { page, errors } = await open(site.browser, url, context);
  await page.waitForSelector('body[data-homework="ready"]');
  assert.match(await page.textContent('[data-task="euler-limit"] h3'), /graded by your lecturer/);
  assert.match(await page.textContent('#hw-values'), /Enter your student id/);

  // Two ids, two variants: the page shows the values the core dealt.
  await page.fill('#hw-student-id', 's2000001');
  await page.waitForFunction(() => document.querySelector('#hw-values')?.dataset.values);
  const bob = JSON.parse(await page.getAttribute('#hw-values', 'data-values'));
  await page.fill('#hw-student-id', 's1234567');
  await page.waitForFunction((b) => (document.querySelector('#hw-values')?.dataset.values ?? b) !== b, JSON.stringify(bob));
  const ada = JSON.parse(await page.getAttribute('#hw-values', 'data-values'));
  assert.notDeepEqual(ada, bob);
  assert.match(await page.textContent('#hw-values'), new RegExp(`Your values: .*k = ${ada.k}`));
  await page.fill('#hw-student', 'Ada');

  // Ada answers with her own values; the keyed tasks are recorded, not graded.
  const own = limits(ada);
  await page.fill('[data-task="euler-limit"] .hw-value', String(own.euler));
  await page.fill('[data-task="rk4-limit"] .hw-value', String(own.rk4));
  await page.fill('[data-task="euler-growth"] .hw-value', '1.0025');
  await page.selectOption('#model', 'custom');
  await page.waitForSelector('#system-box:not([hidden])');
  await page.fill('#system', `pos' = vel\nvel' = 9.81 - ${ada.k}*pos - ${ada.c}*vel\npos(0) = 0, vel(0) = 0`);
  await ready(page);
  await page.click('[data-task="spring-system"] .hw-use');
  for (const id of ['euler-limit', 'rk4-limit', 'euler-growth', 'spring-system']) {
    const { result, message } = await check(page, id);
    assert.equal(result, 'recorded', `${id}: ${message}`);
    assert.equal(message, 'recorded: your lecturer grades this task');
  }
  // A practice task guides without the number.
  await page.fill('[data-task="end-value"] .hw-value', '0.5');
  const practice = await check(page, 'end-value');
  assert.equal(practice.result, 'failed');
  assert.equal(practice.message, '0.5 is too large (an answer within 1% of the right one passes)');
  assert.match(await page.textContent('#hw-score'), /^Score: 0 \/ 3 on the practice tasks; 6 points graded by your lecturer$/);

  // Nothing the student's browser holds or received names a key value: the literal
  // of the key file, and this student's computed limits.
  const key = JSON.parse(keyText);
  const secrets = [...spellings(key.checks['euler-growth'].value), ...spellings(own.euler), ...spellings(own.rk4)].filter((s) => s.replace(/[^0-9]/g, '').length >= 4);
  const dom = await page.evaluate(() => `${document.documentElement.outerHTML}\n${document.body.innerText}\n${[...document.querySelectorAll('input')].map((i) => i.value).join('\n')}`);
  const storage = await page.evaluate(() => `${JSON.stringify({ ...globalThis.localStorage })}\n${JSON.stringify({ ...globalThis.sessionStorage })}`);
  const responses = (await Promise.all(bodies)).join('\n');
  assert.ok(responses.includes('springs.json'), 'the responses were recorded');
  assert.ok(!/key\.json/.test((await Promise.all(bodies)).map((b) => b.split('\n')[0]).join('\n')), 'the key file was never fetched');
  for (const s of secrets) {
    // Ada typed her own answers: the inputs and the work hold them, so the DOM and
    // storage are searched for the key's literal only, the responses for all.
    if (s.startsWith('1.0024968') || s.startsWith('1.002497')) {
      assert.ok(!dom.includes(s), `the page shows ${s}`);
      assert.ok(!storage.includes(s), `storage holds ${s}`);
    }
    assert.ok(!responses.includes(s), `a response carries ${s}`);
  }

  const [saved] = await Promise.all([page.waitForEvent('download'), page.click('#hw-download')]);
  const adaWork = JSON.parse(await readFile(await saved.path(), 'utf8'));
  assert.equal(adaWork.studentId, 's1234567');
  // Bob hands in Ada's numbers under his own id.
  const bobWork = { ...adaWork, student: 'Bob', studentId: 's2000001' };
  assert.deepEqual(errors, []);
  await page.close();

  // The lecturer: works first (keyed tasks recorded), then the key file, which re-grades.
  const grading = await open(site.browser, `${site.server.url}?assignment=examples/assignments/springs.json&grade=1`);
  const g = grading.page;
  await g.waitForSelector('body[data-homework="ready"]');
  assert.match(await g.textContent('#grade-key-status'), /open the key file/);
  await g.setInputFiles('#grade-files', [
    { name: 'ada.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(adaWork)) },
    { name: 'bob.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(bobWork)) },
  ]);
  await g.waitForFunction(() => document.querySelector('#grading')?.dataset.graded === '2', null, { timeout: 90000 });
  assert.match(await g.textContent('tr[data-file="ada.json"] td[data-task="euler-limit"]'), /recorded/);
  await g.setInputFiles('#grade-key', { name: 'springs.key.json', mimeType: 'application/json', buffer: Buffer.from(keyText) });
  await g.waitForFunction(() => document.querySelector('#grade-key-status')?.dataset.key === 'open');
  await g.waitForFunction(() => document.querySelector('#grading')?.dataset.graded === '2' && document.querySelector('#grade-status')?.textContent?.endsWith('graded.'), null, { timeout: 90000 });
  const cellOf = (file, task) => g.textContent(`tr[data-file="${file}"] td[data-task="${task}"]`);
  for (const task of ['euler-limit', 'rk4-limit', 'euler-growth', 'spring-system']) assert.match(await cellOf('ada.json', task), /^✓/, task);
  for (const task of ['euler-limit', 'rk4-limit', 'spring-system']) assert.match(await cellOf('bob.json', task), /^✗/, `${task}: Bob is graded against his own values`);
  assert.equal(JSON.parse(await g.getAttribute('tr[data-file="bob.json"] td[data-values]', 'data-values')).k, bob.k);
  assert.deepEqual(grading.errors, []);
  await g.close();
  await context.close();
});

test('a long grading run stops on Cancel and the grading page keeps working', async () => {
  const { page, errors } = await open(site.browser, `${site.server.url}?assignment=/heavy.json&grade=1`);
  await page.waitForSelector('body[data-homework="ready"]');
  const heavy = ['a', 'b', 'c', 'd'].map((s) => ({ name: `${s}.json`, mimeType: 'application/json', buffer: Buffer.from(HEAVY_WORK(s)) }));
  await page.setInputFiles('#grade-files', heavy);
  await page.waitForFunction(() => /^Grading /.test(document.querySelector('#grade-status')?.textContent ?? ''));
  await page.click('#grade-cancel');
  await page.waitForFunction(() => /^Cancelled: /.test(document.querySelector('#grade-status')?.textContent ?? ''), null, { timeout: 60000 });
  assert.ok(Number((await page.getAttribute('#grading', 'data-graded')) ?? '0') < 4, 'not every heavy file was graded');
  assert.equal(await page.isHidden('#grade-cancel'), true);
  await page.setInputFiles('#grade-files', { name: 'light.json', mimeType: 'application/json', buffer: Buffer.from(LIGHT_WORK) });
  await page.waitForSelector('tr[data-file="light.json"] td[data-score]', { timeout: 60000 });
  assert.equal(await page.getAttribute('tr[data-file="light.json"] td[data-score]', 'data-score'), '1');
  assert.deepEqual(errors, []);
  await page.close();
});
