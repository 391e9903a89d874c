/**
 * The lecturer's page (`?assignment=<URL>&grade=1`): any number of work files,
 * dropped or picked, each re-graded in the engine worker from its answers (a score
 * written in the file is never read), shown as a students × tasks table with the
 * messages, and exported as CSV. `gradesToCsv` is pure and unit-tested.
 *
 * Keyed tasks (their checks in a key file that stays with the lecturer,
 * src/homework/key.rs) are graded once the key is opened (picked, or dropped with the
 * works): the page hands the core the assignment with the key joined under `key`, and
 * re-grades every file it holds. Each student's row shows the values their student id
 * dealt them (src/homework/variant.rs). The SCORM buttons put the assignment (never
 * the key) and this page into a package for a learning platform (www/scorm-package.ts).
 */
import { CancelledError, type EngineClient } from './client';
import { download } from './export';
import { describeValues, parameterNames, type AssignmentSummary, type Grade, type LoadedAssignment } from './homework';

/** One graded file: its grade, or why it could not be graded; `text` to grade it again. */
export interface GradedFile {
  file: string;
  grade?: Grade;
  error?: string;
  text?: string;
}

/** The key file's object if `text` is one (`odelabKey`), else undefined. */
export function keyOf(text: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null && 'odelabKey' in value ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The assignment's text with the key joined under `key` (the digest leaves it out). */
export function joinKey(assignment: string, key: Record<string, unknown>): string {
  return JSON.stringify({ ...(JSON.parse(assignment) as Record<string, unknown>), key });
}

/**
 * A CSV field, quoted when it has a comma, quote or line break. A text that a
 * spreadsheet would read as a formula (it starts with = + - @, a tab or a carriage
 * return: a student may name themselves `=HYPERLINK(…)`) gets a leading apostrophe,
 * so it opens as the text it is; numbers are written as numbers.
 */
function field(value: string | number): string {
  const s = typeof value === 'string' && /^[=+\-@\t\r]/.test(value) ? `'${value}` : String(value);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * The table as CSV: student, file, score, max, then points and message per task, and
 * for an assignment with parameters the student id and each parameter's value.
 */
export function gradesToCsv(summary: AssignmentSummary, rows: GradedFile[]): string {
  const head = ['student', 'file', 'score', 'maxScore', 'note'];
  for (const t of summary.tasks) head.push(`${t.id} points`, `${t.id} message`);
  const names = parameterNames(summary);
  if (names.length > 0) head.push('studentId', ...names);
  const lines = [head.map(field).join(',')];
  for (const r of rows) {
    const g = r.grade;
    const cells: (string | number)[] = [g?.student ?? '', r.file, g ? g.score : '', summary.maxScore, r.error ?? (g && !g.assignmentMatches ? 'written for another version of the assignment' : '')];
    for (const t of summary.tasks) {
      const tg = g?.tasks.find((x) => x.id === t.id);
      cells.push(tg ? tg.points : '', tg ? tg.message : '');
    }
    if (names.length > 0) cells.push(g?.studentId ?? '', ...names.map((n) => g?.parameters?.[n] ?? ''));
    lines.push(cells.map(field).join(','));
  }
  return `${lines.join('\n')}\n`;
}

function cell(tag: 'td' | 'th', text: string): HTMLTableCellElement {
  const c = document.createElement(tag);
  c.textContent = text;
  return c;
}

/** The grading page; see the module comment. */
export class GradingPage {
  private readonly rows: GradedFile[] = [];
  private readonly table: HTMLTableElement;
  private readonly status: HTMLElement;
  private readonly cancel: HTMLButtonElement;
  /** The Cancel button was pressed during the current `add`. */
  private cancelled = false;
  /** The text graded against: the assignment, with the key joined once it is opened. */
  private assignmentText: string;
  private readonly keyStatus: HTMLElement;
  readonly element: HTMLElement;

  constructor(
    private readonly engine: EngineClient,
    private readonly assignment: LoadedAssignment,
  ) {
    const { summary } = assignment;
    this.assignmentText = assignment.text;
    const title = document.createElement('h2');
    title.textContent = `Grading: ${summary.title || assignment.url}`;
    const help = document.createElement('p');
    help.textContent = `Drop the students' work files here, or pick them. Each is re-graded in this browser from its answers against ${assignment.url}; a score written in a file is ignored.`;
    const picker = Object.assign(document.createElement('input'), { type: 'file', id: 'grade-files', multiple: true, accept: '.json,application/json' });
    picker.addEventListener('change', () => {
      const files = [...(picker.files ?? [])];
      picker.value = '';
      void this.add(files);
    });
    const pick = document.createElement('label');
    pick.className = 'file-button';
    pick.append('Pick work files', picker);
    const csv = Object.assign(document.createElement('button'), { type: 'button', id: 'grade-csv', textContent: 'Export CSV' });
    csv.addEventListener('click', () => download('grades.csv', new Blob([gradesToCsv(summary, this.rows)], { type: 'text/csv' })));
    // Grading runs the students' systems: the worker can be stopped (engine.cancel()).
    this.cancel = Object.assign(document.createElement('button'), { type: 'button', id: 'grade-cancel', textContent: 'Cancel', hidden: true });
    this.cancel.addEventListener('click', () => {
      this.cancelled = true;
      this.engine.cancel();
    });
    const keyPicker = Object.assign(document.createElement('input'), { type: 'file', id: 'grade-key', accept: '.json,application/json' });
    keyPicker.addEventListener('change', () => {
      const file = keyPicker.files?.[0];
      keyPicker.value = '';
      if (file) void this.add([file]);
    });
    const keyButton = document.createElement('label');
    keyButton.className = 'file-button';
    keyButton.append('Open the key file', keyPicker);
    const keyed = summary.tasks.filter((t) => t.keyed).map((t) => t.id);
    this.keyStatus = Object.assign(document.createElement('p'), { id: 'grade-key-status' });
    this.keyStatus.setAttribute('role', 'status');
    this.keyStatus.hidden = keyed.length === 0;
    this.keyStatus.textContent = `Keyed tasks (${keyed.join(', ')}): open the key file to grade them; until then they show "recorded".`;
    const scorm = (['1.2', '2004'] as const).map((version) => {
      const button = Object.assign(document.createElement('button'), { type: 'button', id: `grade-scorm-${version.replace('.', '')}`, textContent: `SCORM ${version} package` });
      button.title = `Download this assignment with the page as a SCORM ${version} package for Moodle, Canvas or Blackboard`;
      button.addEventListener('click', () => void this.scormPackage(version));
      return button;
    });
    const buttons = document.createElement('div');
    buttons.className = 'buttons secondary';
    buttons.append(pick, csv, ...scorm, this.cancel);
    if (keyed.length > 0) buttons.append(keyButton);
    this.status = Object.assign(document.createElement('p'), { id: 'grade-status' });
    this.status.setAttribute('role', 'status');
    this.table = Object.assign(document.createElement('table'), { id: 'grade-table', className: 'conv-table' });
    this.table.setAttribute('aria-label', 'students × tasks');
    this.element = document.createElement('section');
    this.element.id = 'grading';
    this.element.append(title, help, buttons, this.keyStatus, this.status, this.table);
    for (const type of ['dragover', 'dragenter']) this.element.addEventListener(type, (e) => e.preventDefault());
    this.element.addEventListener('drop', (e) => {
      e.preventDefault();
      void this.add([...(e.dataTransfer?.files ?? [])]);
    });
    this.render();
  }

  /**
   * Opens a key file: checks it against the assignment in the worker (a key for
   * another assignment is refused with the reason) and re-grades every file held.
   */
  private async openKey(name: string, key: Record<string, unknown>): Promise<boolean> {
    const joined = joinKey(this.assignment.text, key);
    try {
      await this.engine.readAssignment(joined);
    } catch (e) {
      this.keyStatus.textContent = `The key ${name} cannot be used: ${e instanceof Error ? e.message : String(e)}`;
      this.keyStatus.dataset.key = 'error';
      return false;
    }
    this.assignmentText = joined;
    this.keyStatus.textContent = `Key ${name} opened: keyed tasks are graded.`;
    this.keyStatus.dataset.key = 'open';
    return true;
  }

  /** Downloads the assignment with the built page as a SCORM package (www/scorm-package.ts). */
  private async scormPackage(version: '1.2' | '2004'): Promise<void> {
    this.status.textContent = `Writing the SCORM ${version} package…`;
    try {
      const base = document.baseURI;
      const listing = await fetch(new URL('package-files.json', base));
      if (!listing.ok) throw new Error('this page has no package-files.json: packages are written from the built page (npx vite build), not the dev server');
      const names = (await listing.json()) as string[];
      const page = await Promise.all(
        names.map(async (name) => {
          const response = await fetch(new URL(name, base));
          if (!response.ok) throw new Error(`${name}: the server answered ${response.status}`);
          return { name, data: new Uint8Array(await response.arrayBuffer()) };
        }),
      );
      const { scormPackage } = await import('./scorm-package');
      const file = this.assignment.url.split('/').pop()?.replace(/\.json$/, '') || 'assignment';
      const zip = scormPackage(page, this.assignment.text, version, file);
      download(`${file}-scorm${version.replace('.', '')}.zip`, new Blob([zip as Uint8Array<ArrayBuffer>], { type: 'application/zip' }));
      this.status.textContent = `SCORM ${version} package written (${(zip.length / 1e6).toFixed(1)} MB): upload it to your course as a SCORM activity.`;
    } catch (e) {
      this.status.textContent = `The SCORM ${version} package could not be written: ${e instanceof Error ? e.message : String(e)}`;
    }
  }

  /** Grades one work's text into a row. */
  private async grade(file: string, text: string): Promise<GradedFile> {
    return { file, text, grade: (await this.engine.gradeAssignment(this.assignmentText, text)) as Grade };
  }

  /** Grades the files one after the other (each in the worker) and adds their rows. */
  async add(files: File[]): Promise<void> {
    this.cancelled = false;
    this.cancel.hidden = false;
    let left = 0;
    const works: { name: string; text: string }[] = [];
    for (const file of files) {
      const text = await file.text();
      const key = keyOf(text);
      // A key among the dropped files is opened first; the files already graded
      // are graded again with it.
      if (key) {
        if (await this.openKey(file.name, key)) works.push(...this.rows.splice(0).map((r) => ({ name: r.file, text: r.text ?? '' })));
      } else works.push({ name: file.name, text });
    }
    for (const [k, work] of works.entries()) {
      this.status.textContent = `Grading ${work.name}…`;
      try {
        this.rows.push(await this.grade(work.name, work.text));
      } catch (e) {
        if (e instanceof CancelledError || this.cancelled) {
          left = works.length - k;
          break;
        }
        this.rows.push({ file: work.name, text: work.text, error: e instanceof Error ? e.message : String(e) });
      }
      this.render();
    }
    this.render();
    this.cancel.hidden = true;
    const graded = `${this.rows.length} ${this.rows.length === 1 ? 'file' : 'files'} graded.`;
    this.status.textContent = left > 0 ? `Cancelled: ${left} ${left === 1 ? 'file was' : 'files were'} not graded. ${graded}` : graded;
    this.element.dataset.graded = String(this.rows.length);
  }

  private render(): void {
    const { tasks, maxScore } = this.assignment.summary;
    const names = parameterNames(this.assignment.summary);
    const head = document.createElement('tr');
    head.append(cell('th', 'Student'), cell('th', 'File'), cell('th', `Score (of ${maxScore})`), ...tasks.map((t) => cell('th', `${t.id} (${t.points})`)));
    if (names.length > 0) head.append(cell('th', 'Student id: values'));
    const body = this.rows.map((r) => {
      const tr = document.createElement('tr');
      tr.dataset.file = r.file;
      const score = cell('td', r.grade ? String(r.grade.score) : '—');
      score.dataset.score = r.grade ? String(r.grade.score) : '';
      const note = r.grade && !r.grade.assignmentMatches ? ' (work for another version of the assignment)' : '';
      tr.append(cell('td', `${r.grade?.student ?? ''}${note}`), cell('td', r.file), score);
      if (!r.grade) {
        const error = cell('td', r.error ?? '');
        error.colSpan = tasks.length;
        error.className = 'error';
        tr.append(error);
        return tr;
      }
      if (!r.grade.assignmentMatches) tr.className = 'other-version';
      for (const t of tasks) {
        const tg = r.grade.tasks.find((x) => x.id === t.id);
        const td = cell('td', tg ? `${tg.recorded ? '…' : tg.passed ? '✓' : '✗'} ${tg.points}: ${tg.message}` : '');
        td.dataset.task = t.id;
        td.className = tg?.passed ? 'holds' : 'fails';
        tr.append(td);
      }
      if (names.length > 0) {
        const values = cell('td', `${r.grade.studentId ?? ''}: ${describeValues(r.grade.parameters)}`);
        values.dataset.values = JSON.stringify(r.grade.parameters ?? {});
        tr.append(values);
      }
      return tr;
    });
    this.table.replaceChildren(head, ...body);
  }
}
