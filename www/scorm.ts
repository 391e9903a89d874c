/**
 * The homework panel inside a learning platform's gradebook (`&scorm=1.2` or
 * `&scorm=2004`, which the launch page of a SCORM package adds; www/scorm-package.ts
 * writes the package). The platform's SCORM runtime is a JS object on an ancestor
 * window (`API` for SCORM 1.2, `API_1484_11` for 2004, ADL's run-time environment
 * books, "API discovery"). This module finds it, takes the learner's id and name from
 * it (the id deals an assignment's per-student values), restores the saved work from
 * `suspend_data`, and after every check reports the score the page computed, one
 * interaction per task (its answer and result), and the work itself; "Hand in" marks
 * the attempt completed. The score is the student's browser's: what a determined
 * student can change in it is said in the README.
 */

export type ScormVersion = '1.2' | '2004';

/** SCORM 1.2's run-time API (the calls this module makes). */
interface Api12 {
  LMSInitialize(arg: ''): string;
  LMSGetValue(element: string): string;
  LMSSetValue(element: string, value: string): string;
  LMSCommit(arg: ''): string;
  LMSFinish(arg: ''): string;
}

/** SCORM 2004's run-time API (the calls this module makes). */
interface Api2004 {
  Initialize(arg: ''): string;
  GetValue(element: string): string;
  SetValue(element: string, value: string): string;
  Commit(arg: ''): string;
  Terminate(arg: ''): string;
}

/** One task's state, as the panel reports it. */
export interface TaskReport {
  id: string;
  answer?: unknown;
  /** 'correct', 'wrong' or 'neutral' (recorded, or not checked yet). */
  result: 'correct' | 'wrong' | 'neutral';
}

/** What the panel reports after each change. */
export interface PanelReport {
  score: number;
  max: number;
  /** The work file's JSON text (kept as suspend_data). */
  work: string;
  tasks: TaskReport[];
  handedIn: boolean;
}

/** The `?scorm=` version of a URL's query, if any. */
export function scormVersion(search: string): ScormVersion | undefined {
  const v = new URLSearchParams(search).get('scorm');
  return v === '1.2' || v === '2004' ? v : undefined;
}

/** Finds the runtime's object on this window's ancestors or opener (at most 10 levels each). */
function discover(name: 'API' | 'API_1484_11'): object | undefined {
  const look = (start: Window | null): object | undefined => {
    let w: Window | null = start;
    for (let level = 0; w && level <= 10; level++) {
      try {
        const api = (w as unknown as Record<string, unknown>)[name];
        if (api && typeof api === 'object') return api;
      } catch {
        // A window of another origin cannot be read: the runtime is not there.
      }
      if (w.parent === w) break;
      w = w.parent;
    }
    return undefined;
  };
  return look(window) ?? look(window.opener as Window | null);
}

/** SCORM 1.2's suspend_data holds 4,096 characters; 2004's 64,000. */
const SUSPEND_LIMIT: Record<ScormVersion, number> = { '1.2': 4096, '2004': 64000 };

/** A task id as an interaction identifier (no spaces; ASCII). */
function interactionId(id: string, index: number): string {
  const clean = id.replace(/[^A-Za-z0-9_.:-]/g, '_');
  return clean ? `task-${clean}` : `task-${index}`;
}

/** Connects the panel to the platform's runtime; `undefined` when none is found. */
export class ScormSession {
  private finished = false;

  private constructor(
    readonly version: ScormVersion,
    private readonly api12: Api12 | undefined,
    private readonly api2004: Api2004 | undefined,
  ) {}

  /** Finds and initialises the runtime of `version`. */
  static open(version: ScormVersion): ScormSession | undefined {
    if (version === '1.2') {
      const api = discover('API') as Api12 | undefined;
      if (!api || String(api.LMSInitialize('')) !== 'true') return undefined;
      return new ScormSession(version, api, undefined);
    }
    const api = discover('API_1484_11') as Api2004 | undefined;
    if (!api || String(api.Initialize('')) !== 'true') return undefined;
    return new ScormSession(version, undefined, api);
  }

  private get(element12: string, element2004: string): string {
    const v = this.api12 ? this.api12.LMSGetValue(element12) : (this.api2004?.GetValue(element2004) ?? '');
    return typeof v === 'string' ? v : '';
  }

  private set(element: string, value: string | number): void {
    if (this.api12) this.api12.LMSSetValue(element, String(value));
    else this.api2004?.SetValue(element, String(value));
  }

  /** The learner as the platform knows them, and the work saved in an earlier session. */
  learner(): { id?: string; name?: string; work?: string } {
    const id = this.get('cmi.core.student_id', 'cmi.learner_id').trim();
    const name = this.get('cmi.core.student_name', 'cmi.learner_name').trim();
    const work = this.get('cmi.suspend_data', 'cmi.suspend_data');
    return { id: id || undefined, name: name || undefined, work: work || undefined };
  }

  /** Reports the panel's state and commits it. */
  report(r: PanelReport): void {
    if (this.finished) return;
    const fraction = r.max > 0 ? r.score / r.max : 0;
    if (this.api12) {
      // 1.2's score.raw is a number from 0 to 100: the page reports a percentage.
      this.set('cmi.core.score.min', 0);
      this.set('cmi.core.score.max', 100);
      this.set('cmi.core.score.raw', Math.round(fraction * 10000) / 100);
      this.set('cmi.core.lesson_status', r.handedIn ? 'completed' : 'incomplete');
      this.set('cmi.core.exit', 'suspend');
    } else {
      this.set('cmi.score.min', 0);
      this.set('cmi.score.max', r.max);
      this.set('cmi.score.raw', r.score);
      this.set('cmi.score.scaled', Math.round(fraction * 10000) / 10000);
      this.set('cmi.completion_status', r.handedIn ? 'completed' : 'incomplete');
      this.set('cmi.exit', 'suspend');
    }
    if (r.work.length <= SUSPEND_LIMIT[this.version]) this.set('cmi.suspend_data', r.work);
    r.tasks.forEach((t, n) => {
      const at = `cmi.interactions.${n}`;
      const answer = t.answer === undefined ? '' : JSON.stringify(t.answer);
      this.set(`${at}.id`, interactionId(t.id, n));
      if (this.api12) {
        this.set(`${at}.type`, 'fill-in');
        // 1.2's student_response holds 255 characters.
        if (answer) this.set(`${at}.student_response`, answer.slice(0, 255));
        this.set(`${at}.result`, t.result);
      } else {
        this.set(`${at}.type`, 'other');
        if (answer) this.set(`${at}.learner_response`, answer.slice(0, 4000));
        this.set(`${at}.result`, t.result === 'wrong' ? 'incorrect' : t.result);
      }
    });
    if (this.api12) this.api12.LMSCommit('');
    else this.api2004?.Commit('');
  }

  /** Ends the session (the page is closing). */
  finish(): void {
    if (this.finished) return;
    this.finished = true;
    if (this.api12) this.api12.LMSFinish('');
    else this.api2004?.Terminate('');
  }
}
