// Vite builds the page from index.html and the embeddable element from www/embed.ts
// (as dist/embed.js, a stable name lecture pages can link to). `base: './'` makes dist/
// work from any static file server and any sub-path.
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

export default defineConfig({
  base: './',
  plugins: [devCsp],
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
