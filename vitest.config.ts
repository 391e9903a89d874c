// Vitest runs the pure TypeScript unit tests (and the engine wrapper against the built
// wasm package) in Node.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { include: ['tests/ts/**/*.test.ts'], environment: 'node' },
});
