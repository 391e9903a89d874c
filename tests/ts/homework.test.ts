// Homework files in the front end (www/homework.ts, www/grading.ts): reading a work file,
// the grading table as CSV.
import { describe, expect, it } from 'vitest';
import type { AssignmentSummary, Grade } from '../../www/engine-labs';
import { gradesToCsv, joinKey, keyOf } from '../../www/grading';
import { describeValues, parseWork, storageKey } from '../../www/homework';
import { scormVersion } from '../../www/scorm';
import { crc32, scormPackage, storedZip } from '../../www/scorm-package';

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
      { id: 'a', kind: 'number', points: 1, prompt: '', keyed: false },
      { id: 'b', kind: 'run', points: 2, prompt: '', keyed: false },
    ],
    parameters: {},
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

describe('keys, variants and SCORM in the front end', () => {
  const summary: AssignmentSummary = {
    digest: 'sha256:ab',
    title: 'T',
    intro: '',
    maxScore: 1,
    tasks: [{ id: 'a', kind: 'number', points: 1, prompt: '', keyed: false }],
    parameters: {},
  };
  it('adds the student id and each parameter value to the CSV of an assignment with parameters', () => {
    const withParameters = { ...summary, parameters: { k: { min: 50, max: 150, step: 1 }, c: { min: 0.2, max: 0.8 } } };
    const grade = {
      score: 1,
      maxScore: 1,
      assignment: 'sha256:ab',
      assignmentMatches: true,
      student: 'Ada',
      studentId: 's1',
      parameters: { k: 87, c: 0.4 },
      tasks: [{ id: 'a', kind: 'number', answered: true, passed: true, points: 1, maxPoints: 1, message: 'ok', measured: null }],
    };
    const lines = gradesToCsv(withParameters, [{ file: 'ada.json', grade }]).trim().split('\n');
    expect(lines[0]).toBe('student,file,score,maxScore,note,a points,a message,studentId,k,c');
    expect(lines[1]).toBe('Ada,ada.json,1,1,,1,ok,s1,87,0.4');
    expect(describeValues(grade.parameters)).toBe('k = 87, c = 0.4');
  });
  it('tells a key file from a work and joins it under "key"', () => {
    expect(keyOf('{ "odelabKey": 1, "checks": {} }')).toEqual({ odelabKey: 1, checks: {} });
    expect(keyOf('{ "odelabWork": 1, "answers": {} }')).toBeUndefined();
    expect(keyOf('not json')).toBeUndefined();
    expect(JSON.parse(joinKey('{ "odelabAssignment": 1, "tasks": [] }', { odelabKey: 1 }))).toEqual({ odelabAssignment: 1, tasks: [], key: { odelabKey: 1 } });
  });
  it('reads the SCORM version of a launch URL', () => {
    expect(scormVersion('?assignment=a.json&scorm=1.2')).toBe('1.2');
    expect(scormVersion('?scorm=2004')).toBe('2004');
    expect(scormVersion('?scorm=3')).toBeUndefined();
  });
});

describe('the SCORM package writer', () => {
  it('computes the zip format\'s CRC-32 (the check value of "123456789" is 0xCBF43926)', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
  });
  it('writes stored entries, a central directory and an end record that count them', () => {
    const zip = storedZip([{ name: 'a.txt', data: new TextEncoder().encode('hello') }]);
    const view = new DataView(zip.buffer);
    expect(view.getUint32(0, true)).toBe(0x04034b50);
    expect(view.getUint32(zip.length - 22, true)).toBe(0x06054b50);
    expect(view.getUint16(zip.length - 22 + 10, true)).toBe(1);
    expect(zip.length).toBe(30 + 5 + 5 + 46 + 5 + 22);
  });
  it('refuses an assignment that carries its key', () => {
    expect(() => scormPackage([], '{ "odelabAssignment": 1, "tasks": [], "key": {} }', '1.2', 'a')).toThrow(/carries its key/);
    const manifestText = new TextDecoder().decode(scormPackage([], '{ "odelabAssignment": 1, "title": "A & B", "tasks": [] }', '2004', 'a'));
    expect(manifestText).toContain('<schemaversion>2004 4th Edition</schemaversion>');
    expect(manifestText).toContain('<title>A &amp; B</title>');
    expect(manifestText).toContain('adlcp:scormType="sco" href="launch.html"');
  });
});
