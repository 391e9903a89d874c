// The system editor in a real browser: CodeMirror loaded on the text's first focus (not
// with the first plot), the core's located error as a lint mark at its line, completion
// of the declared names, the textarea #system kept in step both ways, the keyboard
// never trapped, dark mode, and all of it under the page's Content Security Policy.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { useSite, open } from './harness.mjs';

const AXE = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const site = useSite();
const TYPO = "param k = 4\nx' = v\nv' = -kk*x\nx(0) = 1, v(0) = 0";

/** Opens the page on your own system with CSP violations recorded; returns once it is drawn. */
async function openCustom() {
  const context = await site.browser.newContext({ viewport: { width: 1200, height: 900 } });
  await context.addInitScript(() => {
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(`${e.violatedDirective} blocked ${e.blockedURI || 'inline'}`));
  });
  const scripts = [];
  context.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (path.endsWith('.js')) scripts.push(path);
  });
  const opened = await open(site.browser, `${site.server.url}?model=custom&method=rk4`, context);
  opened.page.on('close', () => context.close().catch(() => undefined));
  await opened.page.waitForSelector('#system-box:not([hidden])');
  await opened.page.waitForSelector('input[data-param="k"]', { state: 'visible', timeout: 15000 });
  return { ...opened, scripts };
}

/** Focuses the text (as a click on it does) and waits for the editor to take its place. */
async function startEditor(page) {
  await page.focus('#system');
  await page.waitForSelector('#system-box .cm-editor .cm-content', { timeout: 15000 });
  await page.waitForFunction(() => document.activeElement?.classList.contains('cm-content'));
}

/** Replaces the editor's whole text by typing, as a user would. */
async function typeInEditor(page, text) {
  await page.click('#system-box .cm-content');
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

test('the editor is fetched on the first focus of the text, not with the first plot', async () => {
  const { page, errors, scripts } = await openCustom();
  assert.ok(!scripts.some((p) => /code-editor/.test(p)), scripts.join(', '));
  assert.equal(await page.locator('.cm-editor').count(), 0);
  const before = await page.inputValue('#system');
  await startEditor(page);
  assert.equal(scripts.filter((p) => /code-editor/.test(p)).length, 1, scripts.join(', '));
  // The same text, and the textarea stays in the DOM (out of sight and out of the Tab order).
  assert.equal(await page.textContent('#system-box .cm-content'), before.replaceAll('\n', ''));
  assert.equal(await page.locator('#system').count(), 1);
  assert.equal(await page.getAttribute('#system', 'tabindex'), '-1');
  assert.deepEqual(await page.evaluate(() => window.__violations), []);
  assert.deepEqual(errors, []);
  await page.close();
});

test("a typo's line gets a lint mark at the typo, and the editor says it is invalid", async () => {
  const { page, errors } = await openCustom();
  await startEditor(page);
  await typeInEditor(page, TYPO);
  await page.waitForSelector('#system-error:not([hidden])');
  const mark = page.locator('#system-box .cm-lintRange-error');
  await mark.waitFor({ timeout: 10000 });
  // The mark covers "kk" on the third line, where the core located it (line 3, column 7).
  assert.equal(await mark.textContent(), 'kk');
  const line = await mark.evaluate((el) => {
    const row = el.closest('.cm-line');
    return [...row.parentElement.querySelectorAll(':scope > .cm-line')].indexOf(row) + 1;
  });
  assert.equal(line, 3);
  await page.waitForSelector('#system-box .cm-content[aria-invalid="true"]');
  // Its frame turns red, as the textarea's did.
  assert.equal(await page.$eval('.cm-editor', (el) => window.getComputedStyle(el).borderTopColor), 'rgb(224, 49, 49)');
  // Fixed, the mark goes.
  await page.keyboard.press('Control+End');
  await typeInEditor(page, TYPO.replace('kk', 'k'));
  await page.waitForSelector('#system-error[hidden]', { state: 'attached' });
  await page.waitForFunction(() => !document.querySelector('#system-box .cm-lintRange-error'));
  assert.deepEqual(await page.evaluate(() => window.__violations), []);
  assert.deepEqual(errors, []);
  await page.close();
});

test('completion offers a parameter the text declares', async () => {
  const { page, errors } = await openCustom();
  await startEditor(page);
  await typeInEditor(page, "param stiffness = 4\nx' = v\nv' = -x\nx(0) = 1, v(0) = 0\noutput spring = stif");
  const option = page.locator('.cm-tooltip-autocomplete li', { hasText: 'stiffness' });
  await option.first().click();
  await page.waitForFunction(() => document.querySelector('#system').value.endsWith('output spring = stiffness'));
  // The built-in functions are offered too.
  await page.keyboard.insertText('*co');
  await page.locator('.cm-tooltip-autocomplete li', { hasText: 'cos' }).first().waitFor({ timeout: 10000 });
  await page.keyboard.press('Escape');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the textarea and the editor stay in step both ways; each edit is one input event', async () => {
  const { page, errors } = await openCustom();
  await startEditor(page);
  await page.evaluate(() => {
    window.__inputs = [];
    document.querySelector('#system').addEventListener('input', (e) => window.__inputs.push(e.target.value));
  });
  await typeInEditor(page, "x' = -x\nx(0) = 1");
  await page.keyboard.type('0');
  const inputs = await page.evaluate(() => window.__inputs);
  assert.equal(inputs.at(-1), "x' = -x\nx(0) = 10");
  assert.equal(await page.inputValue('#system'), "x' = -x\nx(0) = 10");
  // A script (a lecture page, a test) sets the value: the editor shows it.
  await page.evaluate(() => (document.querySelector('#system').value = "y' = -2*y\ny(0) = 3"));
  assert.equal(await page.textContent('#system-box .cm-content'), "y' = -2*yy(0) = 3");
  // Typing into the textarea itself (as Playwright's fill does) reaches the editor and the page.
  await page.fill('#system', "param k = 9\nx' = v\nv' = -k*x\nx(0) = 1, v(0) = 0");
  await page.waitForSelector('input[data-param="k"]', { state: 'visible' });
  await page.waitForFunction(() => document.querySelector('input[data-param="k"]').value === '9');
  assert.match(await page.textContent('#system-box .cm-content'), /^param k = 9/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('Escape then Tab leaves the editor: the keyboard is never trapped', async () => {
  const { page, errors } = await openCustom();
  await startEditor(page);
  await page.keyboard.press('End');
  await page.keyboard.press('Escape');
  await page.keyboard.press('Tab');
  const inEditor = await page.evaluate(() => Boolean(document.activeElement?.closest('.cm-editor')));
  assert.equal(inEditor, false);
  // Tab without Escape leaves too (Tab is not bound), and Shift+Tab comes back.
  await page.keyboard.press('Shift+Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('cm-content')), true);
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => Boolean(document.activeElement?.closest('.cm-editor'))), false);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the editor is styled under the policy, and dark in the dark scheme', async () => {
  const { page, errors } = await openCustom();
  await page.emulateMedia({ colorScheme: 'dark' });
  await startEditor(page);
  // CodeMirror's own styles apply (its base theme makes the editor a flex column) …
  assert.equal(await page.$eval('.cm-editor', (el) => window.getComputedStyle(el).display), 'flex');
  // … and the dark scheme's background and text.
  assert.equal(await page.$eval('.cm-editor', (el) => window.getComputedStyle(el).backgroundColor), 'rgb(27, 32, 43)');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.waitForFunction(() => window.getComputedStyle(document.querySelector('.cm-editor')).backgroundColor === 'rgb(255, 255, 255)');
  // No <style> element was added: the styles are a constructed sheet.
  assert.equal(await page.evaluate(() => document.querySelectorAll('style').length), 0);
  assert.deepEqual(await page.evaluate(() => window.__violations), []);
  assert.deepEqual(errors, []);
  await page.close();
});

test('axe-core finds no violations in the editor with a mark and completions open', async () => {
  const { page, errors } = await openCustom();
  await startEditor(page);
  await typeInEditor(page, TYPO);
  await page.locator('#system-box .cm-lintRange-error').waitFor({ timeout: 10000 });
  await page.keyboard.insertText('\nx(1) = s');
  await page.locator('.cm-tooltip-autocomplete').waitFor({ timeout: 10000 });
  await page.evaluate(AXE);
  const result = await page.evaluate(() => window.axe.run({ include: [['#system-box']] }, { resultTypes: ['violations'] }));
  assert.deepEqual(
    result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    [],
  );
  // The editor is named by the textarea's label and points at the error message.
  assert.match(await page.getAttribute('#system-box .cm-content', 'aria-label'), /^Your system/);
  assert.match((await page.getAttribute('#system-box .cm-content', 'aria-describedby')) ?? '', /system-error/);
  assert.deepEqual(errors, []);
  await page.close();
});
