/**
 * Comparisons of the current run against more accurate ones, as tables: a reference run
 * of the same model (Negrut et al. 2003 §3.1, Tables 4 and 6) and the augmented against the
 * state-space formulation (Negrut et al. 2003 Tables 4–6). Computed in the worker.
 */
import { byId, fillTable } from './dom';
import { CancelledError } from './client';
import type { EngineClient } from './client';
import type { SolveSpec } from './engine';
import { formatNumber } from './format';

/**
 * The reference run for `spec`: the same model over the same interval, by dp45 at rtol
 * 1e-12, or by ros4 at 1e-10 for a stiff method's run (one that needs a Jacobian).
 */
export function referenceSpec(spec: SolveSpec, needsJacobian: boolean): SolveSpec {
  const reference: SolveSpec = {
    ...(spec.system !== undefined ? { system: spec.system } : { model: spec.model }),
    params: spec.params,
    t1: spec.t1,
    method: needsJacobian ? 'ros4' : 'dp45',
    rtol: needsJacobian ? 1e-10 : 1e-12,
    atol: needsJacobian ? 1e-12 : 1e-14,
    maxSteps: 2_000_000,
  };
  if (spec.events) reference.events = spec.events;
  if (spec.t0 !== undefined) reference.t0 = spec.t0;
  if (spec.y0 !== undefined) reference.y0 = spec.y0;
  return reference;
}

export class Comparisons {
  constructor(private readonly engine: EngineClient) {}

  /**
   * Compares the current run with a reference run of the same model over the same
   * interval ([`referenceSpec`]), as Negrut et al. 2003 §3.1 does in its Tables 4 and 6.
   */
  async compare(spec: SolveSpec, needsJacobian: boolean): Promise<void> {
    const reference = referenceSpec(spec, needsJacobian);
    const caption = byId('compare-caption');
    byId('compare-box').hidden = false;
    caption.textContent = `Running the reference (${reference.method}, rtol ${reference.rtol})…`;
    try {
      const c = await this.engine.compare(spec, reference);
      caption.textContent =
        `Against ${reference.method} at rtol ${reference.rtol} (${c.referenceStats.nfev} f-evaluations), ` +
        'interpolated by a cubic spline:';
      fillTable(
        byId('compare-table'),
        ['state', 'max error Δ', 't*', 'relative', 'RMS'],
        c.table.map((r) => ({
          cells: [r.name, formatNumber(r.maxError, 3), formatNumber(r.tMax, 4), formatNumber(r.relativeError, 3), formatNumber(r.rmsError, 3)],
          data: { state: r.name },
        })),
      );
    } catch (e) {
      if (e instanceof CancelledError) return;
      caption.textContent = e instanceof Error ? e.message : String(e);
      byId('compare-table').replaceChildren();
    }
  }

  /**
   * The augmented and the state-space formulation of the current mechanism (a catalogue
   * model or one typed in the system language; with radau5 also the index-3 DAE) side by
   * side against a fine reference, in the layout of Negrut et al. 2003 Tables 4–6.
   */
  async compareFormulations(current: SolveSpec): Promise<void> {
    const box = byId('formulations-box');
    const caption = byId('formulations-caption');
    box.hidden = false;
    caption.textContent = 'Running the formulations and the reference…';
    const { formulation: _ignored, ...spec } = current;
    void _ignored;
    try {
      const c = await this.engine.formulations(spec);
      const [position, rate] = [c.rows[0]?.position.quantity ?? 'φ1', c.rows[0]?.velocity.quantity ?? 'φ̇1'];
      const model = spec.system !== undefined ? 'your mechanism' : c.model;
      caption.textContent = `${model}, ${c.method}; reference: ${c.reference} (${c.referenceSteps} steps). Errors of ${position} and ${rate}:`;
      const head = ['formulation', 'steps', 'rejected', 'f-evals', 'max ‖Φ‖', 'ms', `${position}: t*`, 'Δ', 'RelErr %', 'RMS', `${rate}: Δ`];
      const rows = c.rows.map((r) => {
        const cells = [
          r.formulation,
          String(r.naccept),
          String(r.nreject),
          String(r.nfev),
          formatNumber(r.maxDrift, 2),
          formatNumber(r.timeMs, 3),
          formatNumber(r.position.tStar, 4),
          formatNumber(r.position.max, 3),
          formatNumber(r.position.relErrPercent, 3),
          formatNumber(r.position.rms, 3),
          formatNumber(r.velocity.max, 3),
        ];
        return { cells, data: { formulation: r.formulation } };
      });
      fillTable(byId('formulations-table'), head, rows);
    } catch (e) {
      if (e instanceof CancelledError) return;
      caption.textContent = e instanceof Error ? e.message : String(e);
      byId('formulations-table').replaceChildren();
    }
  }
}
