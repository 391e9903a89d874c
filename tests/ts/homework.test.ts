// Homework files in the front end (www/homework.ts, www/grading.ts): reading a work file,
// the grading table as CSV.
import { describe, expect, it } from 'vitest';
import type { AssignmentSummary, Grade } from '../../www/engine-labs';
import { gradesToCsv } from '../../www/grading';
import { parseWork, storageKey } from '../../www/homework';

describe('work files', () => {
  it('reads a work and refuses other files', () => {
    const text = JSON.stringify({ odelabWork: 1, assignment: 'sha256:ab', answers: { q: { value: 2 } }, score: 99 });
    expect(parseWork(text).work?.answers).toEqual({ q: { value: 2 } });
    expect(parseWork('{ "odelab": 1, "settings": {} }').error).toBe('This file is not an odelab work file.');
    expect(parseWork('not json').error).toMatch(/not JSON/);
  });
  it('keys the autosave by digest', () => {
    expect(storageKey('sha256:ab')).toBe('odelab.work.sha256:ab');
  });
});

describe('grades as CSV', () => {
  const summary: AssignmentSummary = {
    digest: 'sha256:ab',
    title: 'T',
    intro: '',
    maxScore: 3,
    tasks: [
      { id: 'a', kind: 'number', points: 1, prompt: '' },
      { id: 'b', kind: 'run', points: 2, prompt: '' },
    ],
  };
  const grade: Grade = {
    score: 1,
    maxScore: 3,
    assignment: 'sha256:ab',
    assignmentMatches: false,
    student: 'Ada, L.',
    tasks: [
      { id: 'a', kind: 'number', answered: true, passed: true, points: 1, maxPoints: 1, message: '2 is right', measured: null },
      { id: 'b', kind: 'run', answered: true, passed: false, points: 0, maxPoints: 2, message: 'error 1e-2 > 1e-3; "dp45"', measured: null },
    ],
  };
  it('has one row per file, points and message per task, quoted where needed', () => {
    const csv = gradesToCsv(summary, [{ file: 'ada.json', grade }, { file: 'junk.json', error: 'not a work' }]);
    expect(csv.split('\n')).toEqual([
      'student,file,score,maxScore,note,a points,a message,b points,b message',
      '"Ada, L.",ada.json,1,3,written for another version of the assignment,1,2 is right,0,"error 1e-2 > 1e-3; ""dp45"""',
      ',junk.json,,3,not a work,,,,',
      '',
    ]);
  });
  it('writes texts that a spreadsheet would run as formulas as plain text', () => {
    const names = ['=HYPERLINK("http://x","y")', '+cmd|/C calc!A0', '-2+3', '@SUM(A1)', '\tx'];
    const csv = gradesToCsv(
      summary,
      names.map((student) => ({ file: `${student}.json`, grade: { ...grade, student, score: -1 } })),
    );
    const rows = csv.trim().split('\n').slice(1);
    for (const row of rows) expect(row).toMatch(/^"?'[=+\-@\t]/);
    // The numbers stay numbers: a score of −1 is written as -1.
    expect(rows[0]).toContain(',-1,3,');
  });
});
