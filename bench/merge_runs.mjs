// Merges repeated runs of one runner (bench/wasm_bench.mjs or bench/scipy_bench.py, the
// same cases) into one JSON file whose timed arrays (`runs`, `wall`) hold every run's
// solves, so that the report's minimum is taken over all of them. On a machine loaded by
// other jobs a whole run can land in a busy period (every row ~2× slow, CPU time
// included: a virtual machine's CPU time counts the time its core is taken away);
// repeating the runner at different times and keeping the minimum is what removes that.
// Everything else (counts, errors, end points) is taken from the first file, and the
// runs must agree on it.
//
//   node bench/merge_runs.mjs OUT IN1 IN2 …
import { readFileSync, writeFileSync } from 'node:fs';

const [out, ...inputs] = process.argv.slice(2);
if (!out || inputs.length === 0) throw new Error('usage: node bench/merge_runs.mjs OUT IN1 IN2 …');
const files = inputs.map((p) => JSON.parse(readFileSync(p, 'utf8')));

const TIMED = new Set(['runs', 'wall']);

function merge(values) {
  const [first] = values;
  if (Array.isArray(first)) {
    return first.map((v, i) => merge(values.map((x) => x?.[i])));
  }
  if (first && typeof first === 'object') {
    const result = {};
    for (const [key, v] of Object.entries(first)) {
      const all = values.map((x) => x?.[key]);
      if (TIMED.has(key) && Array.isArray(v) && v.every((t) => typeof t === 'number')) {
        result[key] = all.flatMap((a) => (Array.isArray(a) ? a : []));
      } else {
        result[key] = merge(all);
      }
    }
    return result;
  }
  return first;
}

const merged = merge(files);
merged.mergedRuns = inputs.length;
writeFileSync(out, JSON.stringify(merged));
