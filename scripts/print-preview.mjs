// Writes docs/print-preview.png: the built page (dist/) as the print stylesheet lays it
// out (emulated print media, an A4 page's width at 96 dpi), for the README and reviews.
//
//   vite build && node scripts/print-preview.mjs [scenario]
import { fileURLToPath } from 'node:url';
import { DIST, launch, serveStatic } from '../tests/e2e/harness.mjs';

const scenario = process.argv[2] ?? 'euler-pendulum-blowup';
const out = fileURLToPath(new URL('../docs/print-preview.png', import.meta.url));
const server = await serveStatic(DIST);
const browser = await launch();
try {
  const page = await browser.newPage({ viewport: { width: 794, height: 1123 } });
  await page.goto(`${server.url}?scenario=${scenario}`);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
  await page.emulateMedia({ media: 'print' });
  await page.waitForTimeout(500); // plots follow the new width
  await page.screenshot({ path: out, fullPage: true });
  console.log(`written: ${out}`);
} finally {
  await browser.close();
  await server.close();
}
