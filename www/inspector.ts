/**
 * The step inspector: a strip under the step-size plot that lists, around the time
 * cursor, every step the method attempted — accepted or rejected and why (the error
 * test, Newton's method, an event that cut the step, the step-size floor), its h, its
 * error norm against 1 and the Newton iterations, Jacobians and LUs it cost, and for a
 * method that changes its order (bdf, ndf) the order each attempt used. The run
 * records attempts only when asked (`inspect: true` in the spec), so the strip asks for
 * them only while it is open: a closed strip leaves every run as fast as before.
 * Redraws from the store's time cursor and the log of the latest solve.
 */
import { fillTable } from './dom';
import type { Row } from './dom';
import type { SolveSpec, Solution, Stats } from './engine';
import { formatNumber } from './format';
import { indexAt } from './run';
import type { Store } from './store';

/** The log of attempted steps a solve returns with `inspect: true`. */
type StepLog = NonNullable<Solution['inspect']>;

/** Attempts shown before and after the cursor's. */
const AROUND = 4;

/** Words for the core's cause names. */
const CAUSE_WORDS: Record<string, string> = {
  accepted: 'accepted',
  error: 'rejected: error test',
  newton: 'rejected: Newton failed',
  event: 'cut: event in the step',
  'step-floor': 'stopped: step-size floor',
  other: 'rejected: singular matrix or blow-up',
};

/** The stats rows of rejections by cause (none when every attempt was accepted). */
export function rejectionRows(stats: Stats): [string, string][] {
  const r = stats.rejectedByCause;
  if (!r) return [];
  const parts: [string, number][] = [
    ['error test', r.error],
    ['Newton', r.newton],
    ['event cuts', r.event],
    ['step floor', r.stepFloor],
    ['other', r.other],
  ];
  const shown = parts.filter(([, n]) => n > 0);
  if (shown.length === 0) return [];
  return [['rejected by cause', shown.map(([what, n]) => `${what} ${n}`).join(', ')]];
}

/** What a variable-order run's orders were: this attempt's, and the range the run used. */
export function orderNote(order: Uint32Array, at: number): string {
  let lo = Infinity;
  let hi = 0;
  for (const k of order) {
    lo = Math.min(lo, k);
    hi = Math.max(hi, k);
  }
  const range = lo === hi ? `order ${lo} throughout` : `orders ${lo} to ${hi}`;
  return `This attempt used order ${order[at]}; the run used ${range}.`;
}

export class StepInspector {
  private readonly box: HTMLDetailsElement;
  private readonly table: HTMLTableElement;
  private readonly note: HTMLElement;
  private log: StepLog | undefined;

  /** Puts the strip after `after` (the step-size figure); `onOpen` re-runs to get a log. */
  constructor(
    private readonly store: Store,
    after: HTMLElement,
    onOpen: () => void,
  ) {
    this.box = document.createElement('details');
    this.box.id = 'step-inspector';
    const summary = document.createElement('summary');
    summary.textContent = 'Inspect steps (every attempt around the time cursor)';
    this.note = document.createElement('p');
    this.note.className = 'inspector-note';
    this.table = document.createElement('table');
    this.table.id = 'inspector-steps';
    this.box.append(summary, this.note, this.table);
    after.after(this.box);
    this.box.addEventListener('toggle', () => {
      if (this.box.open && !this.log) onOpen();
      this.draw();
    });
    store.subscribe('time', () => this.draw());
  }

  /** The spec, asking for the attempts while the strip is open. */
  request(spec: SolveSpec): SolveSpec {
    return this.box.open ? { ...spec, inspect: true } : spec;
  }

  /** The latest solve's log (none when the strip was closed). */
  show(sol: Solution): void {
    this.log = sol.inspect;
    this.draw();
  }

  private draw(): void {
    const log = this.log;
    if (!this.box.open) return;
    if (!log || log.t.length === 0) {
      this.note.textContent = log ? 'No step was attempted.' : 'Running again with every attempt recorded…';
      this.table.replaceChildren();
      return;
    }
    const n = log.t.length;
    const at = indexAt(log.t, this.store.time);
    const from = Math.max(0, at - AROUND);
    const to = Math.min(n, at + AROUND + 1);
    const order = log.order;
    const rows: Row[] = [];
    for (let i = from; i < to; i++) {
      const cause = log.causes[log.cause[i]] ?? 'other';
      const err = log.err[i];
      rows.push({
        cells: [
          formatNumber(log.t[i]),
          formatNumber(log.h[i], 3),
          CAUSE_WORDS[cause] ?? cause,
          Number.isNaN(err) ? '–' : formatNumber(err, 3),
          String(log.newton[i]),
          String(log.jacobians[i]),
          String(log.lus[i]),
          ...(order ? [String(order[i])] : []),
        ],
        data: { cause },
        className: [cause === 'accepted' ? 'accepted' : 'rejected', i === at ? 'at-cursor' : ''].join(' ').trim(),
      });
    }
    const heads = ['t', 'h', 'result', 'error norm', 'Newton', 'J', 'LU', ...(order ? ['order'] : [])];
    fillTable(this.table, heads, rows);
    const rejected = Array.from(log.cause).filter((c) => log.causes[c] !== 'accepted').length;
    this.note.textContent =
      `Attempt ${at + 1} of ${n} (${rejected} not accepted). The error norm is measured against 1: ` +
      `above 1 the error test rejects the step.` +
      (order ? ` ${orderNote(order, at)}` : '') +
      (log.truncated ? ' Only the first 2^20 attempts were recorded.' : '');
  }
}
