// Homework in Chromium: a student opens an example assignment, answers every
// task from the playground, sees full marks, reloads and finds the work kept, downloads
// it; the lecturer's page re-grades that file and tampered copies from their answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { useSite, open } from './harness.mjs';

// A hand-written assignment with a mistake (the value of its number task is missing).
const BAD = JSON.stringify({ odelabAssignment: 1, tasks: [{ id: 'q', kind: 'number', check: { relTol: 0.1 } }] });
const site = useSite({ '/bad.json': BAD });

/** Presses Check on a task and returns its result ("passed" / "failed") and message. */
async function check(page, id) {
  const task = `[data-task="${id}"]`;
  await page.click(`${task} .hw-check`);
  await page.waitForFunction((sel) => ['passed', 'failed'].includes(document.querySelector(sel)?.dataset.result ?? ''), task, { timeout: 60000 });
  return { result: await page.getAttribute(task, 'data-result'), message: await page.textContent(`${task} .hw-message`) };
}

async function assertPasses(page, id) {
  const { result, message } = await check(page, id);
  assert.equal(result, 'passed', `${id}: ${message}`);
}

const ready = (page) => page.waitForFunction(() => document.body.dataset.status === 'ok');

test('the stability assignment answered from the playground scores full marks, survives a reload and is re-graded by the lecturer', async () => {
  const context = await site.browser.newContext({ viewport: { width: 1400, height: 900 }, acceptDownloads: true });
  const url = `${site.server.url}?assignment=examples/assignments/stability.json&model=mass-spring-damper&method=rk4`;
  const { page, errors } = await open(site.browser, url, context);
  await page.waitForSelector('body[data-homework="ready"]');
  assert.match(await page.textContent('#homework h2'), /Stability of explicit methods/);
  assert.equal(await page.locator('#homework [data-task]').count(), 6);
  await page.fill('#hw-student', 'Ada');

  // Numbers: the two step-size limits, and RK4's intercept read off the Stability tab.
  await page.fill('[data-task="euler-limit"] .hw-value', '0.005');
  await page.fill('[data-task="rk4-limit"] .hw-value', '0.2875');
  await page.click('#tabs [data-view="stability"]');
  await page.waitForFunction(() => /^-2\.78/.test(document.querySelector('dd[data-fact="real-axis intercept"]')?.textContent ?? ''));
  const intercept = (await page.textContent('dd[data-fact="real-axis intercept"]')).trim();
  await page.fill('[data-task="rk4-intercept"] .hw-value', intercept);

  // A tableau of order 3 from the "Your method" tab, then the same method in a run.
  await page.click('#tabs [data-view="tableau"]');
  await page.waitForFunction(() => document.body.dataset.tableau === 'ok');
  await page.selectOption('#tableau-preset', 'kutta3');
  await page.waitForFunction(() => document.querySelector('#tableau-status')?.dataset.order === '3');
  await page.click('[data-task="order3"] .hw-use');
  await page.click('#tableau-use');
  await page.waitForFunction(() => document.querySelector('#method')?.value === 'custom');
  await ready(page);
  await page.click('[data-task="order3-observed"] .hw-use');
  assert.match(await page.textContent('[data-task="order3-observed"] .hw-answer'), /method custom/);

  // The spring as your own system, in other names.
  await page.selectOption('#model', 'custom');
  await page.waitForSelector('#system-box:not([hidden])');
  await page.fill('#system', "param k = 100, c = 0.5, g = 9.81\npos' = vel\nvel' = g - k*pos - c*vel\npos(0) = 0, vel(0) = 0");
  await ready(page);
  await page.click('[data-task="spring-system"] .hw-use');
  assert.match(await page.textContent('[data-task="spring-system"] .hw-answer'), /pos' = vel/);

  for (const id of ['euler-limit', 'rk4-limit', 'order3', 'order3-observed', 'rk4-intercept', 'spring-system']) await assertPasses(page, id);
  assert.equal(await page.textContent('#hw-score'), 'Score: 9 / 9');
  assert.match(await page.textContent('[data-task="spring-system"] .hw-message'), /matches the reference/);

  // Reload: the work is kept (answers, name) and checked again by the page itself.
  await page.reload();
  await page.waitForSelector('body[data-homework="ready"]');
  await page.waitForFunction(() => document.querySelector('#hw-score')?.textContent === 'Score: 9 / 9', null, { timeout: 90000 });
  assert.equal(await page.inputValue('#hw-student'), 'Ada');
  assert.equal(await page.inputValue('[data-task="euler-limit"] .hw-value'), '0.005');
  assert.match(await page.textContent('[data-task="spring-system"] .hw-answer'), /pos' = vel/);
  assert.equal(await page.getAttribute('[data-task="order3"]', 'data-result'), 'passed');

  // Download the work; make two tampered copies: a score edited, a wrong answer with a claimed full score.
  const [saved] = await Promise.all([page.waitForEvent('download'), page.click('#hw-download')]);
  const text = await readFile(await saved.path(), 'utf8');
  const work = JSON.parse(text);
  assert.equal(work.odelabWork, 1);
  assert.match(work.assignment, /^sha256:[0-9a-f]{64}$/);
  const edited = JSON.stringify({ ...work, student: 'Bob', score: 100 });
  const wrong = JSON.stringify({ ...work, student: 'Eve', score: 9, answers: { ...work.answers, 'euler-limit': { value: 0.01 } } });

  // A forged work file opened on the student's page: its claimed results are not shown;
  // the page checks the answers and shows what it computed.
  const forged = JSON.stringify({
    ...work,
    score: 1000,
    answers: { ...work.answers, 'euler-limit': { value: 0.01 } },
    checked: { ...work.checked, 'euler-limit': { passed: true, points: 1000, message: '✓' } },
  });
  await page.setInputFiles('#hw-open', { name: 'forged.json', mimeType: 'application/json', buffer: Buffer.from(forged) });
  assert.doesNotMatch(await page.textContent('#hw-score'), /1000/);
  await page.waitForFunction(() => document.querySelector('#hw-score')?.textContent === 'Score: 8 / 9', null, { timeout: 90000 });
  assert.equal(await page.getAttribute('[data-task="euler-limit"]', 'data-result'), 'failed');
  assert.deepEqual(errors, []);
  await page.close();

  // The lecturer's page: drop the files, pick one more, read the table, export CSV.
  const grading = await open(site.browser, `${site.server.url}?assignment=examples/assignments/stability.json&grade=1`);
  await grading.page.waitForSelector('body[data-homework="ready"]');
  assert.equal(await grading.page.isVisible('#controls'), false);
  await grading.page.evaluate(
    ([a, b]) => {
      // Runs in the page: its DataTransfer, File and DragEvent.
      const { DataTransfer, File, DragEvent } = globalThis;
      const dt = new DataTransfer();
      dt.items.add(new File([a], 'ada.json', { type: 'application/json' }));
      dt.items.add(new File([b], 'bob.json', { type: 'application/json' }));
      document.querySelector('#grading').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    },
    [text, edited],
  );
  await grading.page.waitForFunction(() => document.querySelector('#grading')?.dataset.graded === '2', null, { timeout: 60000 });
  await grading.page.setInputFiles('#grade-files', { name: 'eve.json', mimeType: 'application/json', buffer: Buffer.from(wrong) });
  await grading.page.waitForFunction(() => document.querySelector('#grading')?.dataset.graded === '3', null, { timeout: 60000 });
  const score = (file) => grading.page.getAttribute(`tr[data-file="${file}"] td[data-score]`, 'data-score');
  assert.equal(await score('ada.json'), '9');
  assert.equal(await score('bob.json'), '9', 'an edited score is not read: the answers are re-graded');
  assert.equal(await score('eve.json'), '8', 'a wrong answer loses its point whatever score the file claims');
  assert.match(await grading.page.textContent('tr[data-file="eve.json"] td[data-task="euler-limit"]'), /✗ 0: 0\.01 is too large/);
  assert.match(await grading.page.textContent('tr[data-file="bob.json"]'), /Bob/);
  const [csv] = await Promise.all([grading.page.waitForEvent('download'), grading.page.click('#grade-csv')]);
  const lines = (await readFile(await csv.path(), 'utf8')).trim().split('\n');
  assert.equal(lines.length, 4);
  assert.match(lines[0], /^student,file,score,maxScore,note,euler-limit points,euler-limit message/);
  assert.match(lines[3], /^Eve,eve\.json,8,9,/);
  assert.deepEqual(grading.errors, []);
  await grading.page.close();
  await context.close();
});

test('the stiffness assignment — a system in other names, a stiff method within budget, w2 with a frozen Jacobian', async () => {
  const url = `${site.server.url}?assignment=examples/assignments/stiffness.json&model=van-der-pol&method=ros4`;
  const { page, errors } = await open(site.browser, url);
  await page.waitForSelector('body[data-homework="ready"]');
  await ready(page);
  await page.fill('#rtol', '1e-6');
  await page.fill('#atol', '1e-6');
  await ready(page);
  await page.click('[data-task="vdp-budget"] .hw-use');
  await page.selectOption('#method', 'w2');
  await page.fill('#rtol', '1e-4');
  await page.fill('#atol', '1e-4');
  await ready(page);
  await page.click('[data-task="w-frozen"] .hw-use');
  const tooLoose = await check(page, 'w-frozen');
  assert.equal(tooLoose.result, 'failed');
  assert.match(tooLoose.message, /^w2 on van-der-pol \(mu = 100\) to t = 200: error 5\.4e-3 > 1e-3/);
  await page.fill('#rtol', '1e-5');
  await page.fill('#atol', '1e-5');
  await ready(page);
  await page.click('[data-task="w-frozen"] .hw-use');
  await page.selectOption('#model', 'custom');
  await page.waitForSelector('#system-box:not([hidden])');
  await page.fill('#system', "param mu = 100\nu' = w\nw' = mu*(1 - u^2)*w - u\nu(0) = 2, w(0) = 0");
  await ready(page);
  await page.click('[data-task="vdp-system"] .hw-use');
  for (const id of ['vdp-system', 'vdp-budget', 'w-frozen']) await assertPasses(page, id);
  assert.equal(await page.textContent('#hw-score'), 'Score: 8 / 8');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a mistake in an assignment is shown with its place, a missing one says so, and the playground keeps working', async () => {
  const { page } = await open(site.browser, `${site.server.url}?assignment=/bad.json`);
  await page.waitForSelector('body[data-homework="error"]');
  assert.match(await page.textContent('#homework'), /has a mistake: tasks\[0\]\.check: "value" is missing/);
  await ready(page);
  await page.close();
  const missing = await open(site.browser, `${site.server.url}?assignment=examples/assignments/missing.json`);
  await missing.page.waitForSelector('body[data-homework="error"]');
  assert.match(await missing.page.textContent('#homework'), /could not be loaded: the server answered 404/);
  await missing.page.close();
});
