// Vite builds the page from index.html; `base: './'` makes dist/ work from any static
// file server and any sub-path (e.g. inside lecture notes).
import { defineConfig, type Plugin } from 'vite';

// The dev server injects CSS as <style> elements, which the page's Content Security
// Policy (index.html: style-src 'self') refuses; only the dev server's copy of the page
// allows inline styles. The built pages keep the strict policy.
const devCsp: Plugin = {
  name: 'odelab-dev-csp',
  apply: 'serve',
  transformIndexHtml: (html) => html.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'"),
};

export default defineConfig({
  base: './',
  plugins: [devCsp],
  build: { outDir: 'dist', target: 'es2022', sourcemap: true },
  // The engine runs in a module worker (www/worker.ts).
  worker: { format: 'es' },
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1' },
});
