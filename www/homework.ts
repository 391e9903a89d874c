/**
 * The student's homework panel (`?assignment=<URL>`): the assignment's intro
 * and tasks next to the playground. Each task takes its answer from the playground
 * ("Use my current system / tableau / run") or a number field; Check grades it in the
 * engine worker (the core's `gradeAssignment`) and shows the message; the score is the
 * sum of the latest checks. The work autosaves in localStorage under the assignment's
 * digest, and "Download my work" / "Open work" move it as a work file (the public
 * format of src/homework/work.rs). The page's own score in that file is informational:
 * the lecturer's page (www/grading.ts) re-grades every answer.
 *
 * An assignment with `parameters` deals each student their own values from their
 * student id (src/homework/variant.rs); the panel asks for the id and shows the values
 * the core computed for it. A keyed task's check stays in the lecturer's key file: its
 * Check records the answer ("recorded") and shows no value.
 */
import type { EngineClient } from './client';
import type { SolveSpec, TableauSpec } from './engine';
import type { AssignmentSummary as CoreSummary, AssignmentTask as CoreTask, Grade as CoreGrade, TaskGrade as CoreTaskGrade } from './engine-labs';
import { download } from './export';
import type { ScormSession, ScormVersion, TaskReport } from './scorm';

/** One declared parameter's range (src/homework/variant.rs). */
export interface ParameterRange {
  min: number;
  max: number;
  step?: number;
}

/** A task as the core lists it, with whether its check is in the lecturer's key. */
export type AssignmentTask = CoreTask & { keyed?: boolean };
/** A checked assignment, with its declared parameters. */
export type AssignmentSummary = Omit<CoreSummary, 'tasks'> & { tasks: AssignmentTask[]; parameters?: Record<string, ParameterRange> };
/** A task's grade; `recorded` when a keyed task was graded without its key. */
export type TaskGrade = CoreTaskGrade & { recorded?: boolean };
/** A grade, with the student id and the parameter values it was graded with. */
export type Grade = Omit<CoreGrade, 'tasks'> & { tasks: TaskGrade[]; studentId?: string; parameters?: Record<string, number> };

/** The declared parameters' names (none: one variant for every student). */
export function parameterNames(summary: AssignmentSummary): string[] {
  return Object.keys(summary.parameters ?? {});
}

/** "k = 87, c = 0.4" */
export function describeValues(values: Record<string, number> | undefined): string {
  return Object.entries(values ?? {})
    .map(([name, v]) => `${name} = ${v}`)
    .join(', ');
}

/** What the homework panel reads from the playground (main.ts provides it). */
export interface Playground {
  /** The text of your own system, or undefined when a catalogue model is chosen. */
  system(): string | undefined;
  /** The tableau in the "Your method" tab (or of the current run). */
  tableau(): TableauSpec | undefined;
  /** The current run as a solve spec. */
  run(): SolveSpec;
}

/** One answer, keyed as the work format has it. */
export interface Answer {
  tableau?: TableauSpec;
  system?: string;
  value?: number | string;
  spec?: SolveSpec;
}

/** The work file (src/homework/work.rs); `checked` is the page's last results, never trusted. */
export interface Work {
  odelabWork: 1;
  assignment: string;
  student?: string;
  /** Chooses the student's values of an assignment with parameters. */
  studentId?: string;
  answers: Record<string, Answer>;
  score?: number;
  checked?: Record<string, { passed: boolean; points: number; message: string; recorded?: boolean }>;
}

/** An assignment fetched and checked: its text (what the core grades) and summary. */
export interface LoadedAssignment {
  url: string;
  text: string;
  summary: AssignmentSummary;
}

/** Fetches `?assignment=` (relative to the page, or absolute) and checks it in the worker. */
export async function loadAssignment(engine: EngineClient, location: string): Promise<LoadedAssignment> {
  const url = new URL(location, window.location.href).href;
  let text: string;
  try {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`the server answered ${response.status} ${response.statusText}`);
    text = await response.text();
  } catch (e) {
    throw new Error(`The assignment ${url} could not be loaded: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
  try {
    return { url, text, summary: (await engine.readAssignment(text)) as AssignmentSummary };
  } catch (e) {
    throw new Error(`The assignment ${url} has a mistake: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
}

/** The localStorage key of an assignment's work. */
export function storageKey(digest: string): string {
  return `odelab.work.${digest}`;
}

/** Reads a work file's text; an error message for anything that is not one. */
export function parseWork(text: string): { work?: Work; error?: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { error: 'This file is not an odelab work file (it is not JSON).' };
  }
  const w = raw as Partial<Work> | null;
  if (typeof w !== 'object' || w === null || w.odelabWork !== 1 || typeof w.answers !== 'object' || w.answers === null) {
    return { error: 'This file is not an odelab work file.' };
  }
  return { work: { ...w, odelabWork: 1, assignment: String(w.assignment ?? ''), answers: w.answers } };
}

/** What the "Use my current …" button of a kind takes. */
const USE_LABEL: Record<string, string | undefined> = {
  tableau: 'Use my current tableau',
  system: 'Use my current system',
  run: 'Use my current run',
  order: 'Use my current method',
};

function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<HTMLElementTagNameMap[K]> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

/** A short, readable view of a captured answer. */
function describeAnswer(kind: string, answer: Answer | undefined): string {
  if (!answer) return 'no answer yet';
  if (answer.system !== undefined) return answer.system;
  if (answer.tableau) return `A = ${JSON.stringify(answer.tableau.a)}\nb = ${JSON.stringify(answer.tableau.b)}`;
  if (answer.spec) {
    const { method, h, rtol, atol } = answer.spec;
    const parts = [`method ${method}`];
    if (h !== undefined && h !== null) parts.push(`h = ${h}`);
    if (rtol !== undefined && rtol !== null) parts.push(`rtol = ${String(rtol)}`);
    if (atol !== undefined && atol !== null) parts.push(`atol = ${String(atol)}`);
    if (kind === 'order' && method === 'custom') parts.push('(your tableau)');
    return parts.join(', ');
  }
  return 'no answer yet';
}

/** The student's panel; see the module comment. */
export class HomeworkPanel {
  private work: Work;
  private readonly root: HTMLElement;
  private readonly scoreLine: HTMLElement;
  private readonly notice: HTMLElement;
  private readonly values: HTMLElement;
  /** The learning platform's SCORM runtime, when the page was launched from a package. */
  private scorm?: ScormSession;
  private handedIn = false;
  private readonly tasks = new Map<string, { section: HTMLElement; answer: HTMLElement; message: HTMLElement; value?: HTMLInputElement }>();

  constructor(
    private readonly engine: EngineClient,
    private readonly assignment: LoadedAssignment,
    private readonly playground: Playground,
  ) {
    const { summary } = assignment;
    // Results saved in the browser or in a file are never shown as they are: the page
    // shows only points it computed itself, so every answered task is checked again.
    const restored = this.restore();
    this.work = restored ? { ...restored, checked: undefined } : { odelabWork: 1, assignment: summary.digest, answers: {} };
    this.scoreLine = el('p', { id: 'hw-score', className: 'hw-score' });
    this.notice = el('p', { id: 'hw-notice', className: 'hw-notice', hidden: true });
    this.notice.setAttribute('role', 'alert');
    const name = el('input', { id: 'hw-student', type: 'text', value: this.work.student ?? '', autocomplete: 'name' });
    name.addEventListener('input', () => {
      this.work.student = name.value.trim() || undefined;
      this.save();
    });
    const downloadButton = el('button', { id: 'hw-download', type: 'button', textContent: 'Download my work' });
    downloadButton.addEventListener('click', () => this.download());
    const opener = el('input', { id: 'hw-open', type: 'file', accept: '.json,application/json' });
    opener.addEventListener('change', () => {
      const file = opener.files?.[0];
      opener.value = '';
      if (file) void file.text().then((text) => this.open(text));
    });
    this.values = el('p', { id: 'hw-values', className: 'hw-values', hidden: true });
    this.values.setAttribute('role', 'status');
    this.root = el(
      'aside',
      { id: 'homework', className: 'homework' },
      el('h2', { textContent: summary.title || 'Homework' }),
      el('p', { className: 'hw-intro', textContent: summary.intro }),
      el('label', {}, 'Your name ', name),
    );
    if (parameterNames(summary).length > 0) {
      // The id deals the values: it is kept in the work, and the values are the core's.
      const id = el('input', { id: 'hw-student-id', type: 'text', value: this.work.studentId ?? '', autocomplete: 'off' });
      let timer: ReturnType<typeof setTimeout> | undefined;
      id.addEventListener('input', () => {
        this.work.studentId = id.value.trim() || undefined;
        this.save();
        clearTimeout(timer);
        timer = setTimeout(() => void this.showValues(), 300);
      });
      this.values.hidden = false;
      this.root.append(el('label', {}, 'Your student id ', id), this.values);
    }
    this.root.append(this.scoreLine, this.notice);
    this.root.setAttribute('aria-label', 'Homework');
    for (const task of summary.tasks) this.root.append(this.taskSection(task));
    this.root.append(
      el('div', { className: 'buttons secondary' }, downloadButton, el('label', { className: 'file-button', title: 'Open a work file' }, 'Open work', opener)),
      el('p', { className: 'source', textContent: `Assignment ${assignment.url} (${summary.digest.slice(0, 15)}…)` }),
    );
    this.showScore();
    void this.showValues();
    const version = new URLSearchParams(window.location.search).get('scorm');
    if (version === '1.2' || version === '2004') void this.connectScorm(version);
    else if (restored) void this.recheckAnswered();
  }

  /** Connects to the platform's SCORM runtime (www/scorm.ts): learner, saved work, reports. */
  private async connectScorm(version: ScormVersion): Promise<void> {
    const { ScormSession } = await import('./scorm');
    const session = ScormSession.open(version);
    if (!session) {
      this.notice.hidden = false;
      this.notice.textContent = `This page was launched for a learning platform (SCORM ${version}), but the platform's runtime was not found: your work is kept in this browser only; download it to hand it in.`;
      void this.recheckAnswered();
      return;
    }
    this.scorm = session;
    const learner = session.learner();
    const saved = learner.work ? parseWork(learner.work).work : undefined;
    if (saved) this.work = { ...saved, assignment: this.assignment.summary.digest, checked: undefined };
    if (learner.id) this.work.studentId = learner.id;
    if (learner.name && !this.work.student) this.work.student = learner.name;
    this.refill();
    // The platform's learner id deals the values: the student does not choose it.
    const idField = this.root.querySelector<HTMLInputElement>('#hw-student-id');
    if (idField && learner.id) idField.readOnly = true;
    const handIn = el('button', { id: 'hw-handin', type: 'button', textContent: 'Hand in' });
    handIn.addEventListener('click', () => {
      this.handedIn = true;
      this.notice.hidden = false;
      this.notice.textContent = 'Handed in: your score and your work were sent to the course. You may still change answers and check them; each check is sent again.';
      this.showScore();
    });
    this.scoreLine.after(handIn);
    window.addEventListener('pagehide', () => session.finish());
    this.save();
    this.showScore();
    void this.showValues();
    void this.recheckAnswered();
  }

  /** Puts the work's name, id and number answers back into the fields and redraws the tasks. */
  private refill(): void {
    const name = this.root.querySelector<HTMLInputElement>('#hw-student');
    if (name) name.value = this.work.student ?? '';
    const id = this.root.querySelector<HTMLInputElement>('#hw-student-id');
    if (id) id.value = this.work.studentId ?? '';
    for (const task of this.assignment.summary.tasks) {
      const entry = this.tasks.get(task.id);
      if (entry?.value) entry.value.value = String(this.work.answers[task.id]?.value ?? '');
      this.showTask(task);
    }
  }

  /** Sends the score the page computed, each task's answer and result, and the work to the platform. */
  private reportScorm(score: number, max: number): void {
    if (!this.scorm) return;
    const tasks: TaskReport[] = this.assignment.summary.tasks.map((t) => {
      const checked = this.work.checked?.[t.id];
      return { id: t.id, answer: this.work.answers[t.id], result: !checked || checked.recorded ? 'neutral' : checked.passed ? 'correct' : 'wrong' };
    });
    const { odelabWork, assignment, student, studentId, answers } = this.work;
    this.scorm.report({ score, max, work: JSON.stringify({ odelabWork, assignment, student, studentId, answers }), tasks, handedIn: this.handedIn });
  }

  /** Shows the student's values of the assignment's parameters, as the core deals them. */
  private async showValues(): Promise<void> {
    const names = parameterNames(this.assignment.summary);
    if (names.length === 0) return;
    const id = this.work.studentId;
    if (!id) {
      this.values.textContent = `Enter your student id to get your values of ${names.join(', ')}.`;
      delete this.values.dataset.values;
      return;
    }
    try {
      const grade = (await this.engine.gradeAssignment(this.assignment.text, JSON.stringify({ odelabWork: 1, studentId: id, answers: {} }))) as Grade;
      if (this.work.studentId !== id) return; // typed on meanwhile
      this.values.textContent = `Your values: ${describeValues(grade.parameters)}`;
      this.values.dataset.values = JSON.stringify(grade.parameters ?? {});
    } catch (e) {
      this.values.textContent = e instanceof Error ? e.message : String(e);
    }
  }

  /** The panel's element (main.ts places it next to the playground). */
  get element(): HTMLElement {
    return this.root;
  }

  private taskSection(task: AssignmentTask): HTMLElement {
    const answer = el('pre', { className: 'hw-answer' });
    const message = el('p', { className: 'hw-message' });
    message.setAttribute('role', 'status');
    const section = el(
      'section',
      { className: 'hw-task' },
      el('h3', { textContent: `${task.id} (${task.points} ${task.points === 1 ? 'point' : 'points'}${task.keyed ? ', graded by your lecturer' : ''})` }),
      el('p', { className: 'hw-prompt', textContent: task.prompt }),
    );
    section.dataset.task = task.id;
    section.dataset.kind = task.kind;
    let value: HTMLInputElement | undefined;
    if (task.kind === 'number') {
      value = el('input', { type: 'text', className: 'hw-value', inputMode: 'decimal', autocomplete: 'off' });
      value.setAttribute('aria-label', `answer to ${task.id}`);
      const saved = this.work.answers[task.id]?.value;
      if (saved !== undefined) value.value = String(saved);
      const field = value;
      field.addEventListener('input', () => {
        const text = field.value.trim();
        const n = Number(text.replace('−', '-'));
        this.setAnswer(task.id, text === '' ? undefined : { value: text !== '' && Number.isFinite(n) ? n : text });
      });
      section.append(el('label', {}, 'Your answer ', value));
    } else {
      const use = el('button', { type: 'button', className: 'hw-use', textContent: USE_LABEL[task.kind] ?? 'Use' });
      use.addEventListener('click', () => this.use(task));
      section.append(use, answer);
    }
    const check = el('button', { type: 'button', className: 'hw-check', textContent: 'Check' });
    check.addEventListener('click', () => void this.check(task));
    section.append(el('div', { className: 'buttons' }, check), message);
    this.tasks.set(task.id, { section, answer, message, value });
    this.showTask(task);
    return section;
  }

  /** Takes the task's answer from the playground. */
  private use(task: AssignmentTask): void {
    let answer: Answer | undefined;
    let problem: string | undefined;
    if (task.kind === 'system') {
      const system = this.playground.system();
      if (system === undefined) problem = 'Choose "Your own system" as the model and write it first.';
      else answer = { system };
    } else if (task.kind === 'tableau') {
      const tableau = this.playground.tableau();
      if (!tableau) problem = 'Write a tableau in the "Your method" tab first.';
      else answer = { tableau };
    } else {
      answer = { spec: this.playground.run() };
    }
    const entry = this.tasks.get(task.id);
    if (problem && entry) {
      entry.message.textContent = problem;
      entry.section.dataset.result = 'none';
      return;
    }
    this.setAnswer(task.id, answer);
  }

  private setAnswer(id: string, answer: Answer | undefined): void {
    if (answer) this.work.answers[id] = answer;
    else delete this.work.answers[id];
    // A changed answer has not been checked yet.
    delete this.work.checked?.[id];
    this.save();
    const task = this.assignment.summary.tasks.find((t) => t.id === id);
    if (task) this.showTask(task);
    this.showScore();
  }

  private showTask(task: AssignmentTask): void {
    const entry = this.tasks.get(task.id);
    if (!entry) return;
    const answer = this.work.answers[task.id];
    entry.answer.textContent = describeAnswer(task.kind, answer);
    const checked = this.work.checked?.[task.id];
    entry.message.textContent = checked?.message ?? '';
    entry.section.dataset.result = checked ? (checked.recorded ? 'recorded' : checked.passed ? 'passed' : 'failed') : 'none';
  }

  private showScore(): void {
    const { tasks } = this.assignment.summary;
    // Keyed tasks are graded by the lecturer: the page counts only what it can check.
    const keyed = tasks.filter((t) => t.keyed).reduce((sum, t) => sum + t.points, 0);
    const max = this.assignment.summary.maxScore - keyed;
    const score = Object.values(this.work.checked ?? {}).reduce((sum, c) => sum + c.points, 0);
    this.work.score = score;
    this.scoreLine.textContent = keyed > 0 ? `Score: ${score} / ${max} on the practice tasks; ${keyed} ${keyed === 1 ? 'point' : 'points'} graded by your lecturer` : `Score: ${score} / ${max}`;
    this.scoreLine.dataset.score = String(score);
    this.scoreLine.dataset.max = String(max);
    this.reportScorm(score, max);
  }

  /** Grades one task in the worker (a work with only its answer). */
  private async check(task: AssignmentTask): Promise<void> {
    const entry = this.tasks.get(task.id);
    if (!entry) return;
    entry.section.dataset.result = 'checking';
    entry.message.textContent = 'Checking…';
    const answer = this.work.answers[task.id];
    const work = { odelabWork: 1, assignment: this.work.assignment, studentId: this.work.studentId, answers: answer ? { [task.id]: answer } : {} };
    let result: TaskGrade | undefined;
    try {
      const grade = (await this.engine.gradeAssignment(this.assignment.text, JSON.stringify(work))) as Grade;
      result = grade.tasks.find((t) => t.id === task.id);
    } catch (e) {
      entry.message.textContent = e instanceof Error ? e.message : String(e);
      entry.section.dataset.result = 'failed';
      return;
    }
    if (!result) return;
    this.work.checked = { ...(this.work.checked ?? {}), [task.id]: { passed: result.passed, points: result.points, message: result.message, recorded: result.recorded } };
    this.save();
    this.showTask(task);
    this.showScore();
  }

  private save(): void {
    try {
      localStorage.setItem(storageKey(this.assignment.summary.digest), JSON.stringify(this.work));
    } catch {
      // Storage can be full or forbidden (private mode): the download still works.
    }
  }

  private restore(): Work | undefined {
    try {
      const text = localStorage.getItem(storageKey(this.assignment.summary.digest));
      return text ? parseWork(text).work : undefined;
    } catch {
      return undefined;
    }
  }

  private download(): void {
    const name = (this.work.student ?? 'work').replace(/[^\p{L}\p{N}_-]+/gu, '-');
    const title = this.assignment.summary.title.replace(/[^\p{L}\p{N}_-]+/gu, '-').toLowerCase() || 'assignment';
    download(`${title}-${name}.json`, new Blob([`${JSON.stringify(this.work, null, 2)}\n`], { type: 'application/json' }));
  }

  /** Opens a work file (e.g. saved on another computer) in place of the current work. */
  private open(text: string): void {
    const { work, error } = parseWork(text);
    this.notice.hidden = false;
    if (!work) {
      this.notice.textContent = error ?? 'This file could not be opened.';
      return;
    }
    const same = work.assignment === this.assignment.summary.digest;
    this.notice.textContent = same ? 'Work opened.' : 'Work opened; it was written for another version of this assignment: check your answers again.';
    this.work = { ...work, assignment: this.assignment.summary.digest, checked: undefined };
    this.refill();
    void this.showValues();
    this.save();
    this.showScore();
    void this.recheckAnswered();
  }

  /** Checks every answered task in the worker, one after the other. */
  private async recheckAnswered(): Promise<void> {
    for (const task of this.assignment.summary.tasks) {
      if (this.work.answers[task.id] !== undefined) await this.check(task);
    }
  }
}
