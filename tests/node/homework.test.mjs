// Homework in the built labs package (pkg-labs/) in Node: gradeAssignment, readAssignment and
// assignmentDigest take JSON text or plain objects, return plain objects, throw Errors
// naming the place, and give the same grades and digests as the native core
// (tests/homework/: the same messages, the same pinned digest).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import init, { gradeAssignment, readAssignment, assignmentDigest } from '../../pkg-labs/odelab_labs.js';

before(async () => {
  await init({ module_or_path: readFileSync(new URL('../../pkg-labs/odelab_labs_bg.wasm', import.meta.url)) });
});

const stiffness = readFileSync(new URL('../../examples/assignments/stiffness.json', import.meta.url), 'utf8');

test('assignmentDigest is the SHA-256 of the canonical JSON, as natively', () => {
  const pinned = 'sha256:6e5a5c25819233ef283562cf25e89d2ce78fee22f6c57f51927707f2cab1374b';
  assert.equal(assignmentDigest('{ "tasks" : [ ],\n "odelabAssignment": 1 }'), pinned);
  assert.equal(assignmentDigest({ odelabAssignment: 1, tasks: [] }), pinned);
  assert.equal(readAssignment(stiffness).digest, assignmentDigest(stiffness));
});

test('readAssignment lists the tasks and throws naming the place of a mistake', () => {
  const summary = readAssignment(stiffness);
  assert.deepEqual(summary.tasks.map((t) => [t.id, t.kind, t.points]), [['vdp-system', 'system', 2], ['vdp-budget', 'run', 3], ['w-frozen', 'run', 3]]);
  assert.equal(summary.maxScore, 8);
  const bad = { odelabAssignment: 1, tasks: [{ id: 'q', kind: 'number', check: { relTol: 0.1 } }] };
  assert.throws(() => readAssignment(bad), { message: 'tasks[0].check: "value" is missing' });
  assert.throws(() => readAssignment('{ "odelabAssignment": 1, '), /the assignment is not valid JSON: .*line 1/);
});

test('gradeAssignment in wasm gives the native grades and messages; a submitted score is not read', () => {
  const work = {
    odelabWork: 1,
    score: 8,
    answers: {
      'vdp-budget': { spec: { method: 'dp45', rtol: 1e-4, atol: 1e-4 } },
      'w-frozen': { spec: { method: 'w2', rtol: 1e-4, atol: 1e-4 } },
    },
  };
  const grade = gradeAssignment(stiffness, JSON.stringify(work));
  assert.equal(grade.score, 0);
  assert.equal(grade.maxScore, 8);
  assert.equal(grade.assignmentMatches, false);
  assert.deepEqual(grade.tasks.map((t) => [t.id, t.answered, t.passed, t.points]), [['vdp-system', false, false, 0], ['vdp-budget', true, false, 0], ['w-frozen', true, false, 0]]);
  assert.match(grade.tasks[1].message, /✓ but 80,697 f-evaluations > 20,000$/);
  assert.match(grade.tasks[2].message, /^w2 on van-der-pol \(mu = 100\) to t = 200: error 5\.4e-3 > 1e-3/);
  assert.equal(grade.tasks[1].measured.nfev, 80697, 'measured is a plain object');
  assert.throws(() => gradeAssignment(stiffness, { answers: {} }), { message: 'the work: "odelabWork" is missing: this is not an odelab work file' });
});
