/**
 * Pinned runs: `#pin-run` keeps the current run, `<ul id="runs">` lists the pins (method,
 * h or tolerances, f-evaluations, and the error: against the exact solution where the
 * model knows it, else at the run's end against a reference run computed in the worker)
 * with a colour to change, a box to hide and a button to remove each. The pins themselves
 * are drawn by the plots, the phase portrait and the mechanism (they subscribe to the
 * store).
 */
import { CancelledError } from './client';
import type { EngineClient } from './client';
import { referenceSpec } from './comparison';
import { byId } from './dom';
import { formatNumber } from './format';
import { describeRun, maxExactError } from './run';
import type { Run } from './run';
import type { SolveSpec } from './engine';
import { toSpec } from './settings';
import type { Pin, Store } from './store';

/**
 * A pinned run's name in legends and exports: its method id and step size or tolerances,
 * e.g. "rk4 h = 0.01" or "dp45 rtol 1e-6, atol 1e-8" (short, where a number like "pin 2"
 * says nothing; both tolerances, since a run held by its atol differs from another by it).
 */
export function pinName(run: Run): string {
  const s = run.settings;
  const number = (v: number | undefined): string => (v === undefined ? '?' : formatNumber(v, 3));
  if (!run.adaptive) return `${s.method} h = ${number(s.h)}`;
  return s.atol === undefined ? `${s.method} rtol ${number(s.rtol)}` : `${s.method} rtol ${number(s.rtol)}, atol ${number(s.atol)}`;
}

/**
 * For each run, the parameters whose values are not the same in all of `runs` and
 * `others` (the live run beside the pins, or the pins beside it), e.g. ", alpha = 1000":
 * two RK4 pins at one h told apart by the parameter they were run with.
 */
export function differingParams(runs: readonly Run[], others: readonly Run[] = []): string[] {
  const all = [...runs, ...others];
  const keys = [...new Set(all.flatMap((r) => Object.keys(r.settings.params ?? {})))].filter(
    (key) => new Set(all.map((r) => r.settings.params?.[key])).size > 1,
  );
  return runs.map((r) =>
    keys
      .filter((key) => r.settings.params?.[key] !== undefined)
      .map((key) => `, ${key} = ${formatNumber(r.settings.params?.[key] as number, 4)}`)
      .join(''),
  );
}

/**
 * Each run's `pinName` with the parameters that tell it from the others, made unique by
 * a count where two pins would still read the same.
 */
export function pinNames(runs: readonly Run[], others: readonly Run[] = []): string[] {
  const seen = new Map<string, number>();
  const params = differingParams(runs, others);
  return runs.map((run, k) => {
    const name = pinName(run) + params[k];
    const n = (seen.get(name) ?? 0) + 1;
    seen.set(name, n);
    return n === 1 ? name : `${name} (${n})`;
  });
}

/** A pin's error against a reference run: pending, measured, not applicable, or why it failed. */
type ReferenceError = 'pending' | { error: number; method: string } | 'none' | { failed: string };

export class PinList {
  private readonly list = byId<HTMLUListElement>('runs');
  private readonly button = byId<HTMLButtonElement>('pin-run');

  /** Reference errors by pin id (a pin's run never changes, so neither does its error). */
  private readonly referenceErrors = new Map<number, ReferenceError>();
  /** Reference states by request: pins of the same model, parameters and end share one solve. */
  private readonly references = new Map<string, Promise<Float64Array>>();

  constructor(
    private readonly store: Store,
    private readonly engine: EngineClient,
  ) {
    this.button.addEventListener('click', () => {
      if (store.run) store.pin(store.run);
    });
    store.subscribe('pins', () => this.render());
    store.subscribe('run', () => (this.button.disabled = false));
    this.render();
  }

  private render(): void {
    const runs = this.store.pins.map((p) => p.run);
    const live = this.store.run ? [this.store.run] : [];
    const names = pinNames(runs, live);
    const params = differingParams(runs, live);
    const items = this.store.pins.map((pin, k) => {
      const name = `pin ${k + 1} (${names[k]})`;
      const item = document.createElement('li');
      item.dataset.pin = String(pin.id);
      item.dataset.method = pin.run.settings.method;
      item.dataset.name = names[k];
      item.classList.toggle('hidden-pin', pin.hidden);
      const color = document.createElement('input');
      color.type = 'color';
      color.value = pin.color;
      color.setAttribute('aria-label', `colour of ${name}`);
      color.addEventListener('input', () => this.store.restyle(pin.id, { color: color.value }));
      const shown = document.createElement('input');
      shown.type = 'checkbox';
      shown.checked = !pin.hidden;
      shown.title = 'show this run';
      shown.setAttribute('aria-label', `show ${name}`);
      shown.addEventListener('change', () => this.store.restyle(pin.id, { hidden: !shown.checked }));
      const text = document.createElement('span');
      const model = pin.run.model.id === this.store.run?.model.id ? '' : `${pin.run.model.name}: `;
      text.textContent = `${model}${describeRun(pin.run)}${params[k]} · ${pin.run.stats.nfev} f-evaluations${this.errorText(pin)}`;
      const remove = document.createElement('button');
      remove.type = 'button';
      remove.textContent = '×';
      remove.className = 'remove-pin';
      remove.setAttribute('aria-label', `remove ${name}`);
      remove.addEventListener('click', () => this.store.unpin(pin.id));
      item.append(shown, color, text, remove);
      return item;
    });
    this.list.replaceChildren(...items);
    this.list.hidden = items.length === 0;
  }

  /** " · max error …" against the exact solution, or " · error at t = … …" against a reference. */
  private errorText(pin: Pin): string {
    const exact = maxExactError(pin.run);
    if (exact !== undefined) return ` · max error ${formatNumber(exact, 3)}`;
    const known = this.referenceErrors.get(pin.id);
    if (known === undefined) void this.measure(pin);
    if (known === undefined || known === 'pending') return ' · error: computing the reference…';
    if (known === 'none') return '';
    if ('failed' in known) return ` · no error measured: the reference stopped (${known.failed})`;
    const t = pin.run.t[pin.run.t.length - 1];
    return ` · error at t = ${formatNumber(t, 4)} ${formatNumber(known.error, 3)} (vs ${known.method})`;
  }

  /** A reference run's values at its `tEval`, shared by the pins that ask the same; a run that stopped short rejects with its reason. */
  private referenceAt(request: SolveSpec): Promise<Float64Array> {
    const key = JSON.stringify(request);
    let pending = this.references.get(key);
    if (!pending) {
      pending = this.engine.solve(request).then((sol) => {
        if (sol.yEval.length === 0 && sol.warning) throw new Error(sol.warning);
        return sol.yEval;
      });
      this.references.set(key, pending);
      // A failed or cancelled solve is not kept: the next render asks again.
      pending.catch(() => this.references.delete(key));
    }
    return pending;
  }

  /** The largest state error at the pin's last time against a reference run (worker). */
  private async measure(pin: Pin): Promise<void> {
    this.referenceErrors.set(pin.id, 'pending');
    const run: Run = pin.run;
    const n = run.t.length;
    let result: ReferenceError = 'none';
    // A formulation run's states are not the model's: compare only the model's own.
    if (n > 0 && run.names.length === run.model.names.length && run.names.every((name, j) => name === run.model.names[j])) {
      const t = run.t[n - 1];
      const spec = toSpec(run.settings, run.model, run.method);
      const stiff = run.method?.needsJacobian ?? false;
      // The reference a stiff method's run gets (ros4) can need millions of steps on a
      // problem that is oscillatory rather than stiff (two modes, ω = 1 and 1000, over
      // 20 s): then dp45 is tried, and the pin says why neither gave a value.
      const stops: string[] = [];
      for (const reference of [referenceSpec(spec, stiff), referenceSpec(spec, !stiff)]) {
        const method = `${reference.method} at rtol ${formatNumber(reference.rtol as number, 1)}`;
        try {
          const yRef = await this.referenceAt({ ...reference, tEval: [t] });
          if (yRef.length === run.names.length) {
            let error = 0;
            for (let j = 0; j < run.names.length; j++) error = Math.max(error, Math.abs(run.y[(n - 1) * run.names.length + j] - yRef[j]));
            result = { error, method };
          }
          break;
        } catch (e) {
          // Cancelled (the worker restarts): try again on the next render.
          if (e instanceof CancelledError) {
            this.referenceErrors.delete(pin.id);
            return;
          }
          const why = e instanceof Error ? e.message : String(e);
          // The first sentence says what stopped it; the advice after it is for a user's own run.
          stops.push(`${method}: ${why.split(/(?<=\.) /)[0]}`);
          result = { failed: stops.join('; ') };
        }
      }
    }
    this.referenceErrors.set(pin.id, result);
    if (this.store.pins.some((p) => p.id === pin.id)) this.render();
  }
}
