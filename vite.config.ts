// Vite builds the page from index.html into dist/. `base: './'` makes dist/ work from
// any static file server and any sub-path. Two more files go next to it, by the plugin
// below: dist/embed.js (www/embed.ts as one classic IIFE script, a stable name lecture
// pages link to from any host, CORS or not) and dist/examples/lecture.html (copied as
// written: it is a lecture page like any other, loading ../embed.js). The example
// assignments (examples/assignments/*.json) are served by the dev server from the
// project root and emitted into dist/ by the build, so
// `?assignment=examples/assignments/stability.json` works on both.
import { copyFile, mkdir, readdir, writeFile } from 'node:fs/promises';
import { readFileSync, readdirSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { relative, resolve } from 'node:path';
import { build, defineConfig, type Plugin } from 'vite';

const root = import.meta.dirname;
const outDir = resolve(root, 'dist');

// The dev server injects CSS as <style> elements, which the page's Content Security
// Policy (index.html: style-src 'self') refuses; only the dev server's copy of the page
// allows inline styles. The built pages keep the strict policy.
const devCsp: Plugin = {
  name: 'odelab-dev-csp',
  apply: 'serve',
  transformIndexHtml: (html) => html.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'"),
};

// A module script would be fetched with CORS, which a lecture host may not send; so the
// embed is built separately as an IIFE (one output format per build); the anywidget
// module (www/anywidget.ts) as an ES module of a stable name, dist/anywidget.js.
const embedAndExamples: Plugin = {
  name: 'odelab-embed-and-examples',
  apply: 'build',
  async closeBundle() {
    await build({
      configFile: false,
      logLevel: 'warn',
      build: {
        outDir,
        emptyOutDir: false,
        target: 'es2022',
        sourcemap: true,
        lib: { entry: resolve(root, 'www/embed.ts'), formats: ['iife'], name: 'odelabEmbed', fileName: () => 'embed.js' },
      },
    });
    // The anywidget module: an ES module by definition (notebooks import it).
    await build({
      configFile: false,
      logLevel: 'warn',
      build: {
        outDir,
        emptyOutDir: false,
        target: 'es2022',
        sourcemap: true,
        lib: { entry: resolve(root, 'www/anywidget.ts'), formats: ['es'], fileName: () => 'anywidget.js' },
      },
    });
    await mkdir(resolve(outDir, 'examples'), { recursive: true });
    await copyFile(resolve(root, 'examples/lecture.html'), resolve(outDir, 'examples/lecture.html'));
    await writeServiceWorker();
  },
};

/**
 * dist/package-files.json: the built page's files (no source maps, examples or lecture
 * embeds), which the grading page fetches to put the page into an assignment's SCORM
 * package (www/scorm-package.ts). Written after the bundle is on disk, so the worker's
 * chunks and both engines' .wasm are in it.
 */
const packageFiles: Plugin = {
  name: 'odelab-package-files',
  apply: 'build',
  async writeBundle() {
    const files = (await readdir(outDir, { recursive: true, withFileTypes: true }))
      .filter((e) => e.isFile())
      .map((e) => resolve(e.parentPath, e.name).slice(outDir.length + 1).split('\\').join('/'))
      .filter((f) => !f.endsWith('.map') && !f.startsWith('examples/') && f !== 'embed.js' && f !== 'package-files.json')
      .sort();
    await writeFile(resolve(outDir, 'package-files.json'), `${JSON.stringify(files, null, 1)}\n`);
  },
};

/** Every file of dist/ a page may load (no source maps, not the service worker itself), relative. */
function builtFiles(dir = outDir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = resolve(dir, entry.name);
    if (entry.isDirectory()) return builtFiles(path);
    const name = relative(outDir, path).split('\\').join('/');
    return name.endsWith('.map') || name === 'sw.js' ? [] : [name];
  });
}

/**
 * dist/sw.js, the offline cache (www/service-worker.js): the list of the build's files
 * and a version that is a hash of their names and contents, so each release that changes
 * a byte is a new service worker with a cache of its own.
 */
export async function writeServiceWorker(): Promise<void> {
  const files = builtFiles().sort();
  const hash = createHash('sha256');
  for (const file of files) hash.update(`${file}\0`).update(readFileSync(resolve(outDir, file))).update('\0');
  const version = hash.digest('hex').slice(0, 16);
  const assets = files.map((f) => `./${f}`);
  const body = readFileSync(resolve(root, 'www/service-worker.js'), 'utf8');
  await writeFile(resolve(outDir, 'sw.js'), `const VERSION = ${JSON.stringify(version)};\nconst ASSETS = ${JSON.stringify(assets)};\n${body}`);
}

const exampleAssignments: Plugin = {
  name: 'odelab-example-assignments',
  apply: 'build',
  generateBundle() {
    const dir = resolve(root, 'examples/assignments');
    for (const name of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
      this.emitFile({ type: 'asset', fileName: `examples/assignments/${name}`, source: readFileSync(resolve(dir, name), 'utf8') });
    }
  },
};

// www/start.ts imports the views (www/main.ts) dynamically, after it has started the
// engine; a modulepreload link lets the browser fetch that chunk (and its stylesheet)
// while it parses the page, as it would a static import.
const preloadViews: Plugin = {
  name: 'odelab-preload-views',
  apply: 'build',
  transformIndexHtml: {
    order: 'post',
    handler(_html, { bundle }) {
      const views = Object.values(bundle ?? {}).find((c) => c.type === 'chunk' && c.facadeModuleId?.endsWith('/www/main.ts'));
      if (!views || views.type !== 'chunk') throw new Error('odelab-preload-views: no chunk for www/main.ts');
      const css = [...(views.viteMetadata?.importedCss ?? [])];
      return [
        { tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `./${views.fileName}` }, injectTo: 'head' },
        ...css.map((file) => ({ tag: 'link', attrs: { rel: 'stylesheet', crossorigin: true, href: `./${file}` }, injectTo: 'head' as const })),
      ];
    },
  },
};

/**
 * uPlot builds an `Intl.NumberFormat` and an `Intl.DateTimeFormat` when its module is
 * evaluated. A renderer's first use of Intl loads its locale data, ~10–20 ms of the main
 * thread on the way to the first plot, for formatters our plots never call (www/plot.ts
 * labels every axis itself; the legend shows values only under the cursor; no axis is a
 * time axis). This rewrites both into formatters built on first use, line for line (so
 * the source map stays right). The texts are matched exactly: if an upgrade of uPlot
 * changes them the build fails here, not silently (tests/ts/uplot-intl.test.ts).
 */
export const UPLOT_INTL_REWRITES: readonly (readonly [string, string])[] = [
  [
    "const numFormatter = new Intl.NumberFormat(domEnv ? nav.language : 'en-US');\nconst fmtNum = val => numFormatter.format(val);",
    "let numFormatter;\nconst fmtNum = val => (numFormatter ??= new Intl.NumberFormat(domEnv ? nav.language : 'en-US')).format(val);",
  ],
  [
    'const localTz = new Intl.DateTimeFormat().resolvedOptions().timeZone;',
    'let localTzName; const localTz = () => (localTzName ??= new Intl.DateTimeFormat().resolvedOptions().timeZone);',
  ],
  ['else if (tz == localTz)', 'else if (tz == localTz())'],
];

/** uPlot's ES module with its Intl formatters built on first use; throws if a text to rewrite is not there exactly once. */
export function deferUplotIntl(code: string): string {
  for (const [from, to] of UPLOT_INTL_REWRITES) {
    const at = code.indexOf(from);
    if (at < 0 || code.indexOf(from, at + 1) >= 0) {
      throw new Error(`odelab-lazy-uplot-intl: expected exactly one ${JSON.stringify(from)} in uPlot's module; has uPlot changed?`);
    }
    code = code.slice(0, at) + to + code.slice(at + from.length);
  }
  return code;
}

/**
 * V8's explicit compile hint (Chrome 136+; to other engines a comment): a script whose
 * first line it is has every function compiled on the background thread that streams
 * it in, while the page is still being laid out, instead of each function on the main
 * thread when it is first called. Traced on a cold load, lazy compilation took ~17 ms of
 * the main thread's ~100 ms before the first plot (439 functions, most of them uPlot's
 * and the views' that draw the first run); with the hint, 3 ms. Only the chunks of the
 * first plot get it: the entry (index.html's, www/start.ts), the views (www/main.ts) and
 * the engine worker (www/worker.ts). Chunks loaded on first use (KaTeX, the labs glue)
 * would compile code nobody calls yet.
 */
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad';

/** The modules whose chunks start with `COMPILE_HINT`: the page's two, and the worker (a build of its own). */
export const EAGER_ENTRIES = { page: ['/index.html', '/www/main.ts'], worker: ['/www/worker.ts'] };

/**
 * Puts `COMPILE_HINT` on the first line of the first plot's chunks, after every other
 * change to them (Vite prepends its preload helper in generateBundle too), and shifts
 * their source maps by that one line. Fails the build if one of them is missing.
 */
export function compileHints(): Plugin {
  return {
    name: 'odelab-compile-hints',
    apply: 'build',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
        const chunkOf = (entry: string) => chunks.find((c) => c.facadeModuleId?.endsWith(entry));
        const entries = chunkOf(EAGER_ENTRIES.worker[0]) ? EAGER_ENTRIES.worker : EAGER_ENTRIES.page;
        for (const entry of entries) {
          const chunk = chunkOf(entry);
          if (!chunk) return this.error(`odelab-compile-hints: no chunk for ${entry}`);
          if (chunk.code.startsWith(COMPILE_HINT)) continue;
          chunk.code = `${COMPILE_HINT}\n${chunk.code}`;
          if (chunk.map) chunk.map.mappings = `;${chunk.map.mappings}`;
          const mapFile = bundle[`${chunk.fileName}.map`];
          if (mapFile?.type === 'asset') {
            const map = JSON.parse(String(mapFile.source)) as { mappings: string };
            map.mappings = `;${map.mappings}`;
            mapFile.source = JSON.stringify(map);
          }
        }
      },
    },
  };
}

const UPLOT_MODULE = /\/node_modules\/uplot\/dist\/uPlot\.esm\.js$/;

/** Applies `deferUplotIntl` to uPlot's module; fails the build if it never saw that module. */
export function lazyUplotIntl(): Plugin {
  let rewritten = false;
  return {
    name: 'odelab-lazy-uplot-intl',
    apply: 'build',
    buildStart() {
      rewritten = false;
    },
    transform: {
      filter: { id: UPLOT_MODULE },
      handler(code, id) {
        if (!UPLOT_MODULE.test(id)) return null;
        rewritten = true;
        return { code: deferUplotIntl(code), map: null };
      },
    },
    buildEnd(error) {
      if (!error && !rewritten) this.error(`odelab-lazy-uplot-intl: uPlot's module (${UPLOT_MODULE.source}) was not in the build`);
    },
  };
}

export default defineConfig({
  base: './',
  plugins: [devCsp, embedAndExamples, exampleAssignments, packageFiles, preloadViews, lazyUplotIntl(), compileHints()],
  build: {
    outDir,
    target: 'es2022',
    sourcemap: true,
  },
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1' },
  // The engine runs in a module worker (www/worker.ts).
  worker: { format: 'es', plugins: () => [compileHints()] },
});
