// Vite builds the page from index.html and the embeddable element from www/embed.ts
// (as dist/embed.js, a stable name lecture pages can link to). `base: './'` makes dist/
// work from any static file server and any sub-path.
import { readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineConfig, type Plugin } from 'vite';

// The dev server injects CSS as <style> elements, which the page's Content Security
// Policy (index.html: style-src 'self') refuses; only the dev server's copy of the page
// allows inline styles. The built pages keep the strict policy.
const devCsp: Plugin = {
  name: 'odelab-dev-csp',
  apply: 'serve',
  transformIndexHtml: (html) => html.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'"),
};

// The example assignments (examples/assignments/*.json, issue 15) are served by the dev
// server from the project root and copied into dist/ by the build, so
// `?assignment=examples/assignments/stability.json` works on both.
const exampleAssignments: Plugin = {
  name: 'odelab-example-assignments',
  apply: 'build',
  generateBundle() {
    const dir = resolve(import.meta.dirname, 'examples/assignments');
    for (const name of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
      this.emitFile({ type: 'asset', fileName: `examples/assignments/${name}`, source: readFileSync(resolve(dir, name), 'utf8') });
    }
  },
};

export default defineConfig({
  base: './',
  plugins: [devCsp, exampleAssignments],
  build: {
    outDir: 'dist',
    target: 'es2022',
    sourcemap: true,
    rollupOptions: {
      input: { main: resolve(import.meta.dirname, 'index.html'), embed: resolve(import.meta.dirname, 'www/embed.ts') },
      output: { entryFileNames: (chunk) => (chunk.name === 'embed' ? 'embed.js' : 'assets/[name]-[hash].js') },
    },
  },
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1' },
  // The engine runs in a module worker (www/worker.ts).
  worker: { format: 'es' },
});
