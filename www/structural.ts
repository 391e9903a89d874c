/**
 * The second-order view: how the integrators of structural dynamics treat an undamped
 * oscillator q'' = −ω²q, against Ω = ωh on a log axis (Hilber, Hughes & Taylor 1977;
 * Chung & Hulbert 1993 Figs. 1–3): the spectral radius ρ of the amplification
 * matrix (how much a mode of that frequency keeps per step), the numerical damping
 * ratio ξ̄ and the relative period error (T̄ − T)/T of its principal roots. Any
 * methods overlaid; the ρ∞ slider reshapes generalized-α (and HHT-α, at the same ρ∞
 * where it can reach it, ρ∞ ≥ 1/2). The numbers come from `structuralAnalysis` in the
 * worker (src/stability/structural.rs); this view only draws. The drawn ρ∞ is
 * published as `data-rho-inf` on the view, the curves' ρ(ωh → ∞) in its facts list.
 */
import { byId, fillDefinitions } from './dom';
import { CancelledError } from './client';
import type { EngineClient } from './client';
import type { StructuralCurves, StructuralSpec } from './engine-labs';
import { formatNumber } from './format';
import { PALETTE, Plot } from './plot';

/** The methods the analysis knows (src/stability/structural.rs `IDS`), as the view names them. */
export const STRUCTURAL_METHODS: { id: string; name: string }[] = [
  { id: 'generalized-alpha', name: 'generalized-α' },
  { id: 'hht-alpha', name: 'HHT-α' },
  { id: 'newmark', name: 'Newmark, average acceleration' },
  { id: 'midpoint2', name: 'Euler 2 (midpoint2)' },
  { id: 'stormer-verlet', name: 'Störmer–Verlet' },
  { id: 'implicit-midpoint', name: 'implicit midpoint' },
  { id: 'rk4', name: 'RK4' },
  { id: 'heun', name: 'Heun' },
  { id: 'euler', name: 'explicit Euler' },
  { id: 'dp45', name: 'Dormand–Prince 5' },
  { id: 'backward-euler', name: 'backward Euler' },
  { id: 'ros4', name: 'ros4' },
  { id: 'radau5', name: 'Radau IIA 5' },
];
const DEFAULT_METHODS = ['generalized-alpha', 'hht-alpha', 'newmark', 'midpoint2', 'rk4'];
/** Curves are drawn over these ranges; an explicit method's growth leaves the plot. */
const RHO_RANGE: [number, number] = [0, 1.4];
const DAMPING_RANGE: [number, number] = [-0.1, 0.6];
const PERIOD_RANGE: [number, number] = [-0.2, 1];

/** The `methodParams` of `id` at the slider's ρ∞ (HHT-α cannot go below 1/2). */
export function paramsAt(id: string, rhoInf: number): StructuralSpec['methodParams'] {
  if (id === 'generalized-alpha') return { rhoInf };
  if (id === 'hht-alpha') return { rhoInf: Math.max(rhoInf, 0.5) };
  return undefined;
}

/** The legend label of `id` at the slider's ρ∞. */
function labelAt(id: string, name: string, rhoInf: number): string {
  const p = paramsAt(id, rhoInf);
  return p?.rhoInf !== undefined ? `${name}, ρ∞ = ${formatNumber(p.rhoInf, 3)}` : name;
}

/** NaN (real principal roots: no oscillation left) stays a gap; so does ±Infinity. */
function finiteOrNaN(a: Float64Array): Float64Array {
  return a.map((v) => (Number.isFinite(v) ? v : NaN));
}

export class StructuralView {
  private readonly methodsBox = byId<HTMLElement>('structural-methods');
  private readonly slider = byId<HTMLInputElement>('structural-rho');
  private readonly shown = byId<HTMLOutputElement>('structural-rho-value');
  private readonly status = byId<HTMLElement>('structural-status');
  private readonly facts = byId<HTMLElement>('structural-facts');
  private readonly view = byId<HTMLElement>('view-structural');
  private plots: Plot[] = [];
  /** The request being drawn: a newer one (a slider step) supersedes it. */
  private generation = 0;

  constructor(private readonly engine: EngineClient) {
    for (const m of STRUCTURAL_METHODS) {
      const label = document.createElement('label');
      label.className = 'check';
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.value = m.id;
      box.checked = DEFAULT_METHODS.includes(m.id);
      box.addEventListener('change', () => void this.sync());
      label.append(box, ` ${m.name}`);
      this.methodsBox.append(label);
    }
    this.slider.addEventListener('input', () => void this.sync());
  }

  /** The slider's ρ∞. */
  rhoInf(): number {
    return Number(this.slider.value);
  }

  private chosen(): string[] {
    return [...this.methodsBox.querySelectorAll<HTMLInputElement>('input:checked')].map((b) => b.value);
  }

  /** Computes the chosen methods' curves at the slider's ρ∞ and draws them. */
  async sync(): Promise<void> {
    const generation = ++this.generation;
    const rhoInf = this.rhoInf();
    this.shown.value = formatNumber(rhoInf, 3);
    const ids = this.chosen();
    this.setStatus('computing', 'Computing…');
    try {
      const curves = await Promise.all(
        ids.map((id) => {
          const methodParams = paramsAt(id, rhoInf);
          return this.engine.structural({ method: id, ...(methodParams ? { methodParams } : {}) });
        }),
      );
      if (generation !== this.generation) return;
      this.draw(ids, curves, rhoInf);
      this.setStatus('ok', ids.length === 0 ? 'Pick a method to draw.' : '');
    } catch (e) {
      if (generation !== this.generation) return;
      if (e instanceof CancelledError) this.setStatus('warning', 'Cancelled.');
      else this.setStatus('error', e instanceof Error ? e.message : String(e));
    }
  }

  private setStatus(state: string, text: string): void {
    this.status.textContent = text;
    this.status.className = state;
    this.view.dataset.state = state;
  }

  private draw(ids: string[], curves: StructuralCurves[], rhoInf: number): void {
    for (const p of this.plots) p.destroy();
    this.plots = [];
    const names = ids.map((id) => STRUCTURAL_METHODS.find((m) => m.id === id)?.name ?? id);
    const series = ids.map((id, i) => ({ label: labelAt(id, names[i], rhoInf), color: PALETTE[i % PALETTE.length] }));
    const x = curves[0]?.omegaH ?? new Float64Array();
    const panels: [string, string, (c: StructuralCurves) => Float64Array, [number, number]][] = [
      ['plot-structural-rho', 'spectral radius ρ', (c) => c.spectralRadius, RHO_RANGE],
      ['plot-structural-damping', 'damping ratio ξ̄', (c) => c.dampingRatio, DAMPING_RANGE],
      ['plot-structural-period', '(T̄ − T)/T', (c) => c.periodError, PERIOD_RANGE],
    ];
    for (const [id, yLabel, pick, yRange] of panels) {
      const plot = new Plot(byId(id), { xLabel: 'ωh', yLabel, series, logX: true, yRange });
      plot.setData(x, curves.map((c) => finiteOrNaN(pick(c))));
      this.plots.push(plot);
    }
    fillDefinitions(
      this.facts,
      'method',
      curves.map((c, i) => [`ρ(ωh → ∞), ${series[i].label}`, Number.isFinite(c.spectralRadiusAtInfinity) ? formatNumber(c.spectralRadiusAtInfinity, 6) : '∞ (explicit: unstable for large ωh)']),
    );
    this.view.dataset.rhoInf = String(rhoInf);
    this.view.dataset.drawn = String((Number(this.view.dataset.drawn ?? '0') || 0) + 1);
  }
}
