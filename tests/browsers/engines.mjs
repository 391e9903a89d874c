// The three browser engines a course's students use, each driven by the protocol its
// own project supports, with the browsers Debian ships (scripts/setup.sh installs them):
//   Chromium  — Debian's chromium, over the Chrome DevTools Protocol (playwright-core);
//   Firefox   — Debian's firefox-esr, over WebDriver BiDi (puppeteer-core);
//   WebKit    — WebKitGTK's MiniBrowser (Safari's engine), over classic W3C WebDriver
//               (Debian's webkit2gtk-driver, WebKitWebDriver), in an Xvfb display.
// Every engine offers the same small interface, so one suite runs in all three:
//   const browser = await startBrowser('firefox');
//   const tab = await browser.open(url);
//   await tab.run('return document.title');           // an async function body
//   await tab.waitFor('return document.body.dataset.ready === "true"', { what: 'ready' });
//   await tab.run('return …', { frame: 0 });          // inside the page's first iframe
//   await browser.close();
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { existsSync } from 'node:fs';
import puppeteer from 'puppeteer-core';

export const FIREFOX = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';
export const WEBKIT_DRIVER = process.env.WEBKIT_DRIVER_PATH ?? '/usr/bin/WebKitWebDriver';
export const MINIBROWSER = process.env.MINIBROWSER_PATH ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';

/** How long a condition may take before a test fails: generous, for a loaded machine. */
const WAIT_MS = 120_000;
const POLL_MS = 100;

const wrap = (body) => `(async () => { ${body} })()`;

/** Polls `check()` until it returns a truthy value (returned) or WAIT_MS passes. */
async function poll(check, what) {
  const deadline = Date.now() + WAIT_MS;
  let last;
  for (;;) {
    last = await check();
    if (last) return last;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what} (last value ${JSON.stringify(last)})`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

function tabFrom(name, evaluate, close, screenshot) {
  return {
    name,
    /** A PNG of the viewport (for looking at a page by hand; tests do not compare pixels). */
    screenshot,
    run: (body, opts = {}) => evaluate(body, opts.frame),
    waitFor: (body, opts = {}) => poll(() => evaluate(body, opts.frame).catch(() => undefined), opts.what ?? body),
    close,
  };
}

/** Chromium through playwright-core (the same launch as the Chromium suite). */
async function startChromium() {
  const { launch } = await import('../e2e/harness.mjs');
  const browser = await launch();
  return {
    name: 'chromium',
    version: browser.version(),
    async open(url) {
      const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
      const page = await context.newPage();
      await page.goto(url);
      const evaluate = async (body, frame) => {
        const target = frame === undefined ? page : page.frames().filter((f) => f !== page.mainFrame())[frame];
        if (!target) throw new Error(`no frame ${frame}`);
        return target.evaluate(wrap(body));
      };
      return tabFrom('chromium', evaluate, () => context.close(), () => page.screenshot());
    },
    close: () => browser.close(),
  };
}

/** Firefox ESR through WebDriver BiDi (puppeteer-core; no browser is downloaded). */
async function startFirefox() {
  if (!existsSync(FIREFOX)) throw new Error(`${FIREFOX} is missing: run scripts/setup.sh (it installs firefox-esr)`);
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX,
    headless: true,
    protocolTimeout: WAIT_MS,
    extraPrefsFirefox: {
      // The machine's network is closed: no update, telemetry or remote-settings calls.
      'app.update.enabled': false,
      'browser.safebrowsing.malware.enabled': false,
      'browser.safebrowsing.phishing.enabled': false,
      'datareporting.policy.dataSubmissionEnabled': false,
      'network.captive-portal-service.enabled': false,
    },
  });
  return {
    name: 'firefox',
    version: await browser.version(),
    async open(url) {
      const context = await browser.createBrowserContext();
      const page = await context.newPage();
      await page.setViewport({ width: 1200, height: 900 });
      await page.goto(url);
      const evaluate = async (body, frame) => {
        const target = frame === undefined ? page : page.frames().filter((f) => f !== page.mainFrame())[frame];
        if (!target) throw new Error(`no frame ${frame}`);
        return target.evaluate(wrap(body));
      };
      return tabFrom('firefox', evaluate, () => context.close(), () => page.screenshot());
    },
    close: () => browser.close(),
  };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** An Xvfb display of its own (`-displayfd` picks a free number); resolves to ":N". */
function startXvfb() {
  return new Promise((resolve, reject) => {
    const xvfb = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], {
      stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
    });
    let out = '';
    xvfb.once('error', (e) => reject(new Error(`Xvfb could not start (${e.message}): run scripts/setup.sh (it installs xvfb)`)));
    xvfb.stdio[3].on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve({ display: `:${out.trim()}`, stop: () => xvfb.kill() });
    });
  });
}

/** WebKitGTK's MiniBrowser through WebKitWebDriver (classic W3C WebDriver over HTTP). */
async function startWebKit() {
  for (const file of [WEBKIT_DRIVER, MINIBROWSER]) {
    if (!existsSync(file)) throw new Error(`${file} is missing: run scripts/setup.sh (it installs webkit2gtk-driver)`);
  }
  const xvfb = await startXvfb();
  const port = await freePort();
  const driver = spawn(WEBKIT_DRIVER, [`--port=${port}`], { env: { ...process.env, DISPLAY: xvfb.display }, stdio: 'ignore' });
  const base = `http://127.0.0.1:${port}`;
  const call = async (method, path, body) => {
    const res = await fetch(base + path, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await res.json();
    if (json.value && json.value.error) throw new Error(`WebDriver ${path}: ${json.value.error}: ${json.value.message}`);
    return json.value;
  };
  await poll(() => fetch(`${base}/status`).then((r) => r.ok, () => false), 'WebKitWebDriver to listen');
  const sessions = [];
  let version = '';
  return {
    name: 'webkit',
    get version() {
      return version;
    },
    async open(url) {
      // One MiniBrowser per tab: a fresh session is a fresh profile (no storage shared).
      const session = await call('POST', '/session', {
        capabilities: {
          alwaysMatch: {
            'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation'] },
            timeouts: { script: WAIT_MS, pageLoad: WAIT_MS },
          },
        },
      });
      version = `WebKitGTK ${session.capabilities.browserVersion}`;
      const id = session.sessionId;
      sessions.push(id);
      await call('POST', `/session/${id}/window/rect`, { width: 1200, height: 900 });
      await call('POST', `/session/${id}/url`, { url });
      const evaluate = async (body, frame) => {
        if (frame !== undefined) await call('POST', `/session/${id}/frame`, { id: frame });
        try {
          // The async script's callback gets a value or the error's text (a rejected
          // promise would otherwise only time out).
          const script = `const done = arguments[arguments.length - 1];
            ${wrap(body)}.then((value) => done({ value }), (e) => done({ error: String(e && e.stack || e) }));`;
          const result = await call('POST', `/session/${id}/execute/async`, { script, args: [] });
          if (result && result.error) throw new Error(result.error);
          return result?.value;
        } finally {
          if (frame !== undefined) await call('POST', `/session/${id}/frame`, { id: null });
        }
      };
      const close = async () => {
        await call('DELETE', `/session/${id}`).catch(() => undefined);
        sessions.splice(sessions.indexOf(id), 1);
      };
      const screenshot = async () => Buffer.from(await call('GET', `/session/${id}/screenshot`), 'base64');
      return tabFrom('webkit', evaluate, close, screenshot);
    },
    async close() {
      for (const id of sessions.splice(0)) await call('DELETE', `/session/${id}`).catch(() => undefined);
      driver.kill();
      xvfb.stop();
    },
  };
}

/** The engines `npm test` runs the smoke suite in (ODELAB_BROWSERS narrows it). */
export const ENGINES = (process.env.ODELAB_BROWSERS ?? 'chromium,firefox,webkit').split(',').filter(Boolean);

export function startBrowser(name) {
  switch (name) {
    case 'chromium':
      return startChromium();
    case 'firefox':
      return startFirefox();
    case 'webkit':
      return startWebKit();
    default:
      throw new Error(`unknown browser engine "${name}" (chromium, firefox or webkit)`);
  }
}
