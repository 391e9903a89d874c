/**
 * "Your method": a Butcher tableau editor. Entries may be fractions ("1/6"), decimals or
 * small expressions ("(3-sqrt(3))/6"); the worker checks them and returns the 17 order
 * conditions up to order 5 (which hold, with residuals), the order and embedded order,
 * and R(z), typeset with KaTeX (loaded only when this tab opens). "Use this method"
 * hands the tableau to the trajectory, stability and convergence views as method
 * `custom`.
 */
import { byId, fillTable } from './dom';
import { CancelledError } from './client';
import type { EngineClient } from './client';
import type { TableauSpec } from './engine';
import type { TableauAnalysis } from './engine-labs';
import { formatNumber } from './format';

type Entry = number | string;

/** Textbook tableaux to start from (exact fractions as text). */
export const PRESETS: Record<string, { label: string; tableau: TableauSpec }> = {
  euler: { label: 'Explicit Euler', tableau: { a: [['0']], b: ['1'] } },
  heun: { label: 'Heun (RK2)', tableau: { a: [['0', '0'], ['1', '0']], b: ['1/2', '1/2'] } },
  midpoint: { label: 'Explicit midpoint', tableau: { a: [['0', '0'], ['1/2', '0']], b: ['0', '1'] } },
  ralston: { label: 'Ralston (RK2)', tableau: { a: [['0', '0'], ['2/3', '0']], b: ['1/4', '3/4'] } },
  kutta3: {
    label: 'Kutta 3',
    tableau: { a: [['0', '0', '0'], ['1/2', '0', '0'], ['-1', '2', '0']], b: ['1/6', '2/3', '1/6'] },
  },
  rk4: {
    label: 'Classical RK4',
    tableau: {
      a: [['0', '0', '0', '0'], ['1/2', '0', '0', '0'], ['0', '1/2', '0', '0'], ['0', '0', '1', '0']],
      b: ['1/6', '1/3', '1/3', '1/6'],
    },
  },
  'three-eighths': {
    label: "Kutta's 3/8 rule",
    tableau: {
      a: [['0', '0', '0', '0'], ['1/3', '0', '0', '0'], ['-1/3', '1', '0', '0'], ['1', '-1', '1', '0']],
      b: ['1/8', '3/8', '3/8', '1/8'],
    },
  },
  bs23: {
    label: 'Bogacki–Shampine 3(2) with b̂',
    tableau: {
      a: [['0', '0', '0', '0'], ['1/2', '0', '0', '0'], ['0', '3/4', '0', '0'], ['2/9', '1/3', '4/9', '0']],
      b: ['2/9', '1/3', '4/9', '0'],
      bHat: ['7/24', '1/4', '1/3', '1/8'],
    },
  },
  'implicit-midpoint': { label: 'Implicit midpoint (DIRK)', tableau: { a: [['1/2']], b: ['1'] } },
};


const MAX_EDIT_STAGES = 8;

export class TableauView {
  private readonly grid = byId<HTMLTableElement>('tableau-grid');
  private readonly stagesInput = byId<HTMLInputElement>('tableau-stages');
  private readonly embedded = byId<HTMLInputElement>('tableau-embedded');
  private readonly status = byId<HTMLElement>('tableau-status');
  private readonly conditions = byId<HTMLTableElement>('tableau-conditions');
  private readonly formula = byId<HTMLElement>('tableau-r');
  private tableau: TableauSpec = PRESETS.rk4.tableau;
  private analysis: TableauAnalysis | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Called with a checked tableau when the user wants to run it. */
  onUse: (tableau: TableauSpec, analysis: TableauAnalysis) => void = () => undefined;

  constructor(private readonly engine: EngineClient) {
    const presets = byId<HTMLSelectElement>('tableau-preset');
    for (const [id, p] of Object.entries(PRESETS)) presets.add(new Option(p.label, id));
    presets.value = 'rk4';
    presets.addEventListener('change', () => this.load(PRESETS[presets.value]?.tableau ?? PRESETS.rk4.tableau));
    this.stagesInput.addEventListener('change', () => this.resize(Number(this.stagesInput.value)));
    this.embedded.addEventListener('change', () => {
      this.tableau = { ...this.read(), bHat: this.embedded.checked ? this.tableau.b.map(() => '0') : undefined };
      this.render();
      this.schedule();
    });
    byId('tableau-use').addEventListener('click', () => {
      if (this.analysis) this.onUse(this.read(), this.analysis);
    });
  }

  /** Shows `tableau` in the editor and analyses it. */
  load(tableau: TableauSpec): Promise<void> {
    this.tableau = tableau;
    this.render();
    return this.analyse();
  }

  /** The last tableau that checked out, with its analysis. */
  current(): { tableau: TableauSpec; analysis: TableauAnalysis } | undefined {
    return this.analysis ? { tableau: this.tableau, analysis: this.analysis } : undefined;
  }

  /** The tableau as typed. */
  read(): TableauSpec {
    const cell = (id: string): Entry => byId<HTMLInputElement>(id).value.trim();
    const s = this.tableau.b.length;
    const a = Array.from({ length: s }, (_, i) => Array.from({ length: s }, (_, j) => (j <= i ? cell(`ta-${i}-${j}`) : '0')));
    const b = Array.from({ length: s }, (_, j) => cell(`tb-${j}`));
    const spec: TableauSpec = { a, b };
    if (this.embedded.checked) spec.bHat = Array.from({ length: s }, (_, j) => cell(`tbh-${j}`));
    return spec;
  }

  private resize(stages: number): void {
    const s = Math.max(1, Math.min(MAX_EDIT_STAGES, Math.round(stages) || 1));
    const old = this.read();
    const pick = (rows: Entry[][], i: number, j: number): Entry => rows[i]?.[j] ?? '0';
    this.tableau = {
      a: Array.from({ length: s }, (_, i) => Array.from({ length: s }, (_, j) => pick(old.a, i, j))),
      b: Array.from({ length: s }, (_, j) => old.b[j] ?? '0'),
      bHat: old.bHat ? Array.from({ length: s }, (_, j) => old.bHat?.[j] ?? '0') : undefined,
    };
    this.render();
    this.schedule();
  }

  /** Draws the editable grid: c | A, then b (and b̂); the upper triangle is not editable. */
  private render(): void {
    const s = this.tableau.b.length;
    this.stagesInput.value = String(s);
    this.embedded.checked = this.tableau.bHat !== undefined;
    const input = (id: string, value: Entry | undefined, label: string): HTMLTableCellElement => {
      const td = document.createElement('td');
      const el = document.createElement('input');
      el.id = id;
      el.value = String(value ?? '0');
      el.setAttribute('aria-label', label);
      el.addEventListener('input', () => this.schedule());
      td.append(el);
      return td;
    };
    const text = (value: string, className = ''): HTMLTableCellElement => {
      const td = document.createElement('td');
      td.textContent = value;
      td.className = className;
      return td;
    };
    const rows: HTMLTableRowElement[] = [];
    for (let i = 0; i < s; i++) {
      const tr = document.createElement('tr');
      tr.append(text(this.analysis?.c[i] !== undefined ? formatNumber(this.analysis.c[i], 6) : '', 'c'));
      for (let j = 0; j < s; j++) {
        tr.append(j <= i ? input(`ta-${i}-${j}`, this.tableau.a[i]?.[j], `a${i + 1}${j + 1}`) : text('', 'upper'));
      }
      rows.push(tr);
    }
    const bRow = document.createElement('tr');
    bRow.className = 'weights';
    bRow.append(text('b', 'c'), ...Array.from({ length: s }, (_, j) => input(`tb-${j}`, this.tableau.b[j], `b${j + 1}`)));
    rows.push(bRow);
    if (this.tableau.bHat) {
      const hRow = document.createElement('tr');
      hRow.className = 'weights';
      hRow.append(text('b̂', 'c'), ...Array.from({ length: s }, (_, j) => input(`tbh-${j}`, this.tableau.bHat?.[j], `b̂${j + 1}`)));
      rows.push(hRow);
    }
    this.grid.replaceChildren(...rows);
  }

  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.analyse(), 200);
  }

  /** Checks the tableau in the worker and shows its order conditions and R(z). */
  async analyse(): Promise<void> {
    const tableau = this.read();
    try {
      const analysis = await this.engine.analyzeTableau(tableau);
      this.analysis = analysis;
      this.tableau = tableau;
      this.showAnalysis(analysis);
      document.body.dataset.tableau = 'ok';
    } catch (e) {
      if (e instanceof CancelledError) return;
      this.analysis = undefined;
      this.status.className = 'error';
      this.status.textContent = e instanceof Error ? e.message : String(e);
      this.conditions.replaceChildren();
      this.formula.textContent = '';
      document.body.dataset.tableau = 'error';
    }
  }

  private showAnalysis(a: TableauAnalysis): void {
    this.status.className = 'ok';
    this.status.textContent =
      `${a.explicit ? 'Explicit' : 'Diagonally implicit'}, ${a.stages} stage${a.stages > 1 ? 's' : ''}: order ${a.order}` +
      (a.embeddedOrder !== undefined ? `, embedded order ${a.embeddedOrder} (adaptive)` : '') +
      (a.order === 5 ? ' (conditions checked up to order 5)' : '');
    this.status.dataset.order = String(a.order);
    // The nodes c follow from A: refresh the column.
    this.grid.querySelectorAll('tr').forEach((tr, i) => {
      const cell = tr.querySelector('td.c');
      if (cell && i < a.c.length) cell.textContent = formatNumber(a.c[i], 6);
    });
    fillTable(
      this.conditions,
      ['order', 'condition', 'value', 'target', 'holds'],
      a.conditions.map((c) => ({
        cells: [String(c.order), c.name, formatNumber(c.value, 10), formatNumber(c.target, 10), c.holds ? '✓' : '✗'],
        className: c.holds ? 'holds' : 'fails',
      })),
    );
    void this.typeset(a.stability.tex, a.stability.text);
  }

  /** R(z) in MathML by KaTeX (no inline styles, so the page's CSP holds); text meanwhile. */
  private async typeset(tex: string, text: string): Promise<void> {
    this.formula.textContent = `R(z) = ${text}`;
    try {
      const katex = (await import('katex')).default;
      katex.render(`R(z) = ${tex}`, this.formula, { output: 'mathml', throwOnError: false, displayMode: true });
    } catch {
      // Keep the plain-text formula.
    }
  }
}
