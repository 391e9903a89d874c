// Vite builds the page from index.html; `base: './'` makes dist/ work from any static
// file server and any sub-path (e.g. inside lecture notes).
import { defineConfig } from 'vite';

export default defineConfig({
  base: './',
  build: { outDir: 'dist', target: 'es2022', sourcemap: true },
  // The engine runs in a module worker (www/worker.ts).
  worker: { format: 'es' },
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1' },
});
