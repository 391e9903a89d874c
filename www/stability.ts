/**
 * The ξ-plane view: where a method is absolutely stable. It colours |R(ξ)| (or ρ(M), or
 * the largest root of a multistep method) on a log scale, draws the boundary |R| = 1 of
 * the chosen method and of any methods overlaid, and marks hλᵢ — the eigenvalues of the
 * current model's Jacobian at a chosen time of the last run, times the current step — so
 * a student sees a run blow up exactly when a marker leaves the region. Drag to pan,
 * wheel to zoom; on a touch screen two fingers pinch-zoom (each pointer is tracked, and
 * `touch-action: pan-y` leaves vertical swipes to the page so it still scrolls); from
 * the keyboard the focused plane pans with the arrow keys and zooms with + and −, as
 * the visible +/− buttons do. α and β reshape the slow/fast map (Gil, Sanfelice & Nikravesh 2013 Figs. 2–3).
 * The current window is published as `data-window` on the canvas (re0,re1,im0,im1).
 * `#plane-mode` switches the map to the order star, |R(ξ)e^{−ξ}| against 1 (Wanner,
 * Hairer & Nørsett 1978; Hairer & Wanner, Solving ODEs II, §IV.4).
 */
import { byId, fillDefinitions, sizeCanvas } from './dom';
import { CancelledError } from './client';
import type { EngineClient } from './client';
import type { MethodInfo, TableauSpec } from './engine';
import type { StabilityAnalysis, StabilityFacts, StabilitySpec } from './engine-labs';
import { formatNumber } from './format';
import { colorize, fitAspect, niceTicks, pan, pixelToXi, xiToPixel, zoomAt } from './plane';
import type { PlaneWindow } from './plane';
import { indexAt } from './run';
import type { Store } from './store';

/** Grid of the colour map: enough detail at a cost of a few ms in the worker. */
const MAP_SIZE = 400;
const OVERLAY_COLOURS = ['#e67700', '#2b8a3e', '#862e9c', '#c2255c', '#0b7285', '#5c940d'];
const DEFAULT_WINDOW: PlaneWindow = { re: [-5, 2], im: [-3.5, 3.5] };
/** One key press or button press zooms by this factor; one arrow press pans this fraction. */
const ZOOM_STEP = 1.25;
const PAN_FRACTION = 0.1;


/** What the stability view needs to know about the trajectory view's current run. */
export interface RunContext {
  method: string;
  /** Step size to multiply the eigenvalues by (fixed h, or the h at the scrubbed time). */
  h: number;
  /** Eigenvalues λ at the scrubbed time, interleaved [re, im, …] (empty if unknown). */
  eigenvalues: Float64Array;
  /** Text describing where the eigenvalues were taken. */
  where: string;
  /** Why there are no eigenvalues, when the reason is known. */
  note?: string;
  /** Your tableau, when the method is `custom`. */
  tableau?: TableauSpec;
  /**
   * The slow/fast scheme's fast block ∂g/∂z, interleaved like `eigenvalues`: its modes are
   * integrated by a matrix exponential, not by the scheme whose region is drawn, so they are
   * listed apart; `eigenvalues` then holds the slow block ∂f_x/∂x, whose λₛ define
   * ξ = hλₛ of the map (Gil, Sanfelice & Nikravesh 2013, eq. 51).
   */
  fast?: Float64Array;
}

export class StabilityView {
  private win: PlaneWindow = { ...DEFAULT_WINDOW };
  /** The window of the last drawing: `win` fitted to the canvas's shape. */
  private drawn: PlaneWindow = { ...DEFAULT_WINDOW };
  private readonly canvas = byId<HTMLCanvasElement>('plane');
  private readonly overlays = byId<HTMLElement>('overlay-methods');
  private readonly alpha = byId<HTMLInputElement>('alpha');
  private readonly beta = byId<HTMLInputElement>('beta');
  private readonly factsBox = byId<HTMLElement>('stability-facts');
  private readonly legend = byId<HTMLElement>('stability-legend');
  private readonly mode = byId<HTMLSelectElement>('plane-mode');
  private readonly caption = byId<HTMLElement>('plane-caption');
  /** The caption of the region map, as the page ships it. */
  private readonly regionCaption: string;
  /** Sign changes of |R(ξ)e^{−ξ}| − 1 around the origin of the primary's order star (NaN if not counted). */
  private sectors = NaN;
  private run: RunContext = { method: 'rk4', h: 0, eigenvalues: new Float64Array(), where: '' };
  /** Each shown method's analysis, with the window it was computed for. */
  private analyses = new Map<string, { analysis: StabilityAnalysis; spec: StabilitySpec }>();
  /**
   * |R| (ρ of the amplification matrix) exactly at each marker hλ, in `run.eigenvalues`
   * order, from the engine; empty when there are too many markers to ask for (then the
   * nearest point of the map decides). A marker next to the boundary, such as an undamped
   * mode near 0, is judged by its own value, not by a grid point beside it.
   */
  private markerValues: number[] = [];
  /** The run and map `markerValues` were measured for. */
  private measuredFor?: { eigenvalues: Float64Array; h: number; spec: string };
  private inflight = false;
  private queued = false;
  /** The pointers down on the plane (one pans, two pinch), where they were and are. */
  private readonly pointers = new Map<number, { x: number; y: number }>();
  /** The gesture's start: the window then and the pointers' positions then. */
  private gesture: { win: PlaneWindow; start: Map<number, { x: number; y: number }> } | undefined;
  private runKey = '';
  private store: Store | undefined;
  /**
   * The run and time cursor last followed while shown: the store announces one run
   * both as a run and as a time (and the page syncs on showing), and the same run at
   * the same time gives the same spectrum, markers and map, so it is followed once.
   * Cleared whenever the view is seen hidden (on showing again, it may have resized).
   */
  private synced: { run: Store['run']; time: number } | undefined;

  constructor(
    private readonly engine: EngineClient,
    private readonly methods: MethodInfo[],
    supported: string[],
  ) {
    for (const m of methods.filter((x) => supported.includes(x.id))) {
      const label = document.createElement('label');
      label.className = 'check';
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.value = m.id;
      box.addEventListener('change', () => void this.refresh());
      label.append(box, ` ${m.name}`);
      this.overlays.append(label);
    }
    for (const input of [this.alpha, this.beta]) input.addEventListener('input', () => void this.refresh());
    this.regionCaption = this.caption.textContent ?? '';
    this.mode.addEventListener('change', () => void this.refresh());
    byId('plane-reset').addEventListener('click', () => this.setWindow({ ...DEFAULT_WINDOW }, true));
    byId('plane-zoom-in').addEventListener('click', () => this.zoomCentre(1 / ZOOM_STEP));
    byId('plane-zoom-out').addEventListener('click', () => this.zoomCentre(ZOOM_STEP));
    this.canvas.addEventListener('wheel', (e) => this.onWheel(e), { passive: false });
    this.canvas.addEventListener('keydown', (e) => this.onKey(e));
    this.canvas.addEventListener('pointerdown', (e) => {
      this.pointers.set(e.pointerId, { x: e.offsetX, y: e.offsetY });
      this.canvas.setPointerCapture(e.pointerId);
      this.startGesture();
    });
    this.canvas.addEventListener('pointermove', (e) => {
      if (!this.pointers.has(e.pointerId)) return;
      this.pointers.set(e.pointerId, { x: e.offsetX, y: e.offsetY });
      this.followGesture();
    });
    const release = (e: PointerEvent): void => {
      if (!this.pointers.delete(e.pointerId)) return;
      // The remaining finger (if any) continues as a pan from where it is now.
      this.startGesture();
      if (this.pointers.size === 0) void this.refresh();
    };
    this.canvas.addEventListener('pointerup', release);
    this.canvas.addEventListener('pointercancel', release);
    this.setWindow(this.win, false);
  }

  /** A gesture (re)starts whenever a pointer comes or goes. */
  private startGesture(): void {
    this.gesture = this.pointers.size > 0 ? { win: this.visible(), start: new Map(this.pointers) } : undefined;
  }

  /** One pointer pans; two zoom about their midpoint by the change in their distance (and pan with it). */
  private followGesture(): void {
    const g = this.gesture;
    if (!g) return;
    const { width, height } = this.canvas.getBoundingClientRect();
    const ids = [...g.start.keys()].filter((id) => this.pointers.has(id)).slice(0, 2);
    if (ids.length === 0) return;
    const centre = (points: ({ x: number; y: number } | undefined)[]): [number, number] => {
      const ps = points.filter((p): p is { x: number; y: number } => p !== undefined);
      return [ps.reduce((a, p) => a + p.x, 0) / ps.length, ps.reduce((a, p) => a + p.y, 0) / ps.length];
    };
    const before = ids.map((id) => g.start.get(id));
    const now = ids.map((id) => this.pointers.get(id));
    const [x0, y0] = centre(before);
    const [x1, y1] = centre(now);
    const dRe = ((x0 - x1) / width) * (g.win.re[1] - g.win.re[0]);
    const dIm = ((y1 - y0) / height) * (g.win.im[1] - g.win.im[0]);
    let win = pan(g.win, dRe, dIm);
    if (ids.length === 2) {
      const distance = (p: ({ x: number; y: number } | undefined)[]): number =>
        Math.hypot((p[0]?.x ?? 0) - (p[1]?.x ?? 0), (p[0]?.y ?? 0) - (p[1]?.y ?? 0));
      const d0 = distance(before);
      const d1 = distance(now);
      if (d0 > 0 && d1 > 0) {
        const [re, im] = pixelToXi(win, width, height, x1, y1);
        win = zoomAt(win, re, im, d0 / d1);
      }
    }
    this.setWindow(win, false);
  }

  private onKey(e: KeyboardEvent): void {
    const win = this.visible();
    const w = win.re[1] - win.re[0];
    const h = win.im[1] - win.im[0];
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [-PAN_FRACTION * w, 0],
      ArrowRight: [PAN_FRACTION * w, 0],
      ArrowUp: [0, PAN_FRACTION * h],
      ArrowDown: [0, -PAN_FRACTION * h],
    };
    const move = moves[e.key];
    if (move) this.setWindow(pan(win, move[0], move[1]), true);
    else if (e.key === '+' || e.key === '=') this.zoomCentre(1 / ZOOM_STEP);
    else if (e.key === '-' || e.key === '_') this.zoomCentre(ZOOM_STEP);
    else if (e.key === '0') this.setWindow({ ...DEFAULT_WINDOW }, true);
    else return;
    e.preventDefault();
  }

  private zoomCentre(factor: number): void {
    const win = this.visible();
    this.setWindow(zoomAt(win, (win.re[0] + win.re[1]) / 2, (win.im[0] + win.im[1]) / 2, factor), true);
  }

  /**
   * The window as drawn: the one asked for, widened along one axis to the canvas's
   * shape, so that Re ξ and Im ξ have one scale (|1 + ξ| = 1 is a circle, not an
   * ellipse, at any width). Panning and zooming start from it.
   */
  private visible(): PlaneWindow {
    // Hidden, the canvas has no size (and measuring it would lay the page out for nothing).
    if (this.hidden()) return this.win;
    const { width, height } = this.canvas.getBoundingClientRect();
    return fitAspect(this.win, width, height);
  }

  /** Moves the window: redraws the current image at once, recomputes the maps if `recompute`. */
  private setWindow(win: PlaneWindow, recompute: boolean): void {
    this.win = win;
    this.publishWindow(this.visible());
    if (recompute) void this.refresh();
    else this.draw();
  }

  /** The window drawn, as `data-window` (re0,re1,im0,im1) on the canvas. */
  private publishWindow(win: PlaneWindow): void {
    this.canvas.dataset.window = [...win.re, ...win.im].map((v) => formatNumber(v, 12)).join(',');
  }

  /**
   * Follows the page's store: the current run's method and h, and hλ at the time cursor
   * (`#scrub` picks a stored step and moves the cursor there). Only while visible.
   */
  follow(store: Store): void {
    this.store = store;
    const scrub = byId<HTMLInputElement>('scrub');
    scrub.addEventListener('input', () => {
      const run = store.run;
      if (run && run.t.length > 0) store.setTime(run.t[Math.min(Number(scrub.value), run.t.length - 1)]);
    });
    store.subscribe('run', () => void this.sync());
    store.subscribe('time', () => void this.sync());
  }

  /** Feeds the view the current run's method, h and its eigenvalues at the cursor's step. */
  async sync(): Promise<void> {
    const run = this.store?.run;
    if (!this.store || this.hidden()) {
      this.synced = undefined;
      return;
    }
    if (run && this.synced?.run === run && Object.is(this.synced.time, this.store.time)) return;
    this.synced = run ? { run, time: this.store.time } : undefined;
    const settings = run?.settings;
    let eigenvalues: Float64Array = new Float64Array();
    let h = settings?.h ?? NaN;
    let where = 'no run yet';
    let note: string | undefined;
    let fast: Float64Array | undefined;
    if (run && settings && run.t.length > 0) {
      const n = run.t.length;
      const dim = run.names.length;
      const scrub = byId<HTMLInputElement>('scrub');
      const i = indexAt(run.t, this.store.time);
      scrub.max = String(n - 1);
      scrub.value = String(i);
      const y = Array.from({ length: dim }, (_, j) => run.y[i * dim + j]);
      const source = run.model.id === 'custom' ? { system: settings.system } : { model: run.model.id };
      // A formulation run's hλ are those of its own ODE (y in its coordinates; a
      // state-space run's independent coordinates are those of the last re-partition
      // before t).
      const native = run.names.join() === run.model.names.join();
      const c = native ? undefined : run.constraint;
      const independent =
        c?.formulation === 'state-space'
          ? (c.repartitions.filter((r) => r.t <= run.t[i]).pop()?.independent ?? c.independent)
          : undefined;
      // An index-3 run is a DAE: its "eigenvalues" are those of a matrix pencil with
      // infinite ones on the algebraic rows, not hλ of an ODE to place in the ξ-plane.
      const ode = c?.formulation === 'index-3' ? undefined : c?.formulation;
      const spec = {
        ...source,
        params: settings.params,
        t: run.t[i],
        y,
        ...(ode ? { formulation: ode } : {}),
        ...(independent ? { independent } : {}),
        ...(c?.formulation === 'augmented' && settings.stabilization === 'baumgarte' ? { stabilization: 'baumgarte' as const } : {}),
      };
      try {
        if (c?.formulation === 'index-3') {
          eigenvalues = new Float64Array();
          note =
            'No hλ markers: an index-3 run integrates a differential-algebraic system, whose spectrum is that of a matrix pencil (infinite on the constraint rows); the augmented or state-space formulation shows the hλ of an ODE.';
        } else if (settings.method === 'slowfast' && !c) {
          [eigenvalues, fast] = await Promise.all([
            this.engine.spectrum({ ...spec, block: 'slow' }),
            this.engine.spectrum({ ...spec, block: 'fast' }),
          ]);
        } else eigenvalues = await this.engine.spectrum(spec);
      } catch (e) {
        eigenvalues = new Float64Array();
        fast = undefined;
        // The engine's reason (too many states, no Jacobian, a singular configuration).
        note = `No hλ markers: ${e instanceof Error ? e.message : String(e)}`;
      }
      // An adaptive run's step at that time (the one leaving it, or the last one); a
      // custom tableau's adaptivity comes from the engine's analysis (`run.adaptive`).
      if (run.adaptive && n > 1) h = i + 1 < n ? run.t[i + 1] - run.t[i] : run.t[i] - run.t[i - 1];
      // A fixed step longer than the run (h = 100 to t1 = 10) is one step of t1 − t0:
      // the markers are that step's hλ, not the h typed.
      else if (n > 1) h = Math.min(h, run.t[n - 1] - run.t[0]);
      where = `t = ${formatNumber(run.t[i])}`;
      byId('scrub-t').textContent = where;
      if (c) where += `, eigenvalues of the ${c.formulation} ODE`;
    }
    const method = settings?.method ?? this.run.method;
    const key = `${run?.model.id}|${method}|${run?.adaptive ? '' : String(settings?.h)}|${JSON.stringify(settings?.tableau ?? '')}`;
    await this.update({ method, h, eigenvalues, where, note, tableau: settings?.tableau, fast }, key);
  }

  /** The methods whose maps are shown: the run's method first, then the overlays. */
  private shown(): string[] {
    const extra = [...this.overlays.querySelectorAll<HTMLInputElement>('input:checked')].map((b) => b.value);
    return [this.run.method, ...extra.filter((m) => m !== this.run.method)];
  }

  /**
   * Follows the trajectory view: its method, h and the spectrum at the scrubbed time.
   * When the run itself changes (`key`: model, method, h), the window grows to show
   * every marker hλ; scrubbing time alone never moves the window.
   */
  async update(run: RunContext, key = ''): Promise<void> {
    const stale = run.method !== this.run.method || this.analyses.size === 0;
    this.run = run;
    if (key !== this.runKey) {
      this.runKey = key;
      const fitted = fitMarkers(DEFAULT_WINDOW, run.eigenvalues, run.h);
      if (fitted.re[0] !== this.win.re[0] || fitted.im[1] !== this.win.im[1]) {
        this.setWindow(fitted, false);
        return this.refresh();
      }
    }
    if (stale) return this.refresh();
    await this.measureMarkers();
    this.draw();
  }

  /** Asks the engine for |R| at each marker (up to MAX_MEASURED distinct ones). */
  private async measureMarkers(): Promise<void> {
    const { eigenvalues, h, method } = this.run;
    // R has real coefficients, so a conjugate pair shares one value.
    const points = new Map<string, [number, number]>();
    for (let k = 0; k + 1 < eigenvalues.length; k += 2) {
      const xi: [number, number] = [h * eigenvalues[k], Math.abs(h * eigenvalues[k + 1])];
      points.set(xi.join(), xi);
    }
    this.markerValues = [];
    this.measuredFor = undefined;
    // An order star says nothing about |R(hλ)| ≤ 1: its markers are not judged.
    if (this.orderStar()) return;
    if (points.size === 0 || points.size > MAX_MEASURED || !Number.isFinite(h)) return;
    try {
      const base = this.spec(method);
      const values = new Map<string, number>();
      await Promise.all(
        [...points].map(async ([id, [re, im]]) => {
          const a = await this.engine.stability({ ...base, re: [re, re + 1], im: [im, im + 1], nx: 2, ny: 2 });
          values.set(id, a.values[0]);
        }),
      );
      const measured: number[] = [];
      for (let k = 0; k + 1 < eigenvalues.length; k += 2) measured.push(values.get([h * eigenvalues[k], Math.abs(h * eigenvalues[k + 1])].join()) ?? NaN);
      this.markerValues = measured;
      this.measuredFor = { eigenvalues, h, spec: this.regionKey(method) };
    } catch {
      // Cancelled or refused: the map's nearest points decide.
    }
  }

  private spec(method: string): StabilitySpec {
    const win = this.visible();
    return {
      method,
      re: [...win.re] as [number, number],
      im: [...win.im] as [number, number],
      nx: MAP_SIZE,
      ny: MAP_SIZE,
      // α and β belong to the slow/fast map only (the core refuses them elsewhere).
      ...(method === 'slowfast' ? { alpha: Number(this.alpha.value), beta: Number(this.beta.value) } : {}),
      ...(method === 'custom' && this.run.tableau ? { tableau: this.run.tableau } : {}),
      ...(this.orderStar() ? { mode: 'order-star' } : {}),
    };
  }

  /** Whether the map shows the order star rather than the region. */
  private orderStar(): boolean {
    return this.mode.value === 'order-star';
  }

  /**
   * Counts the sectors of `method`'s order star at the origin: the sign changes of
   * |R(ξ)e^{−ξ}| − 1 around a small square about 0, where R(ξ)e^{−ξ} = 1 + Cξ^{q+1} + …
   * with q the order to which R matches e^ξ, so 2(q + 1) of them. The side is even, so
   * no point lies on an axis, where a symmetric method's boundary runs.
   */
  private async countSectors(method: string): Promise<number> {
    const n = 40;
    const r = 0.05;
    const a = await this.engine.stability({ ...this.spec(method), re: [-r, r], im: [-r, r], nx: n, ny: n });
    const ring: number[] = [];
    for (let i = 0; i < n - 1; i++) ring.push(a.values[i]);
    for (let j = 0; j < n - 1; j++) ring.push(a.values[j * n + n - 1]);
    for (let i = n - 1; i > 0; i--) ring.push(a.values[(n - 1) * n + i]);
    for (let j = n - 1; j > 0; j--) ring.push(a.values[j * n]);
    let changes = 0;
    for (let k = 0; k < ring.length; k++) if (ring[k] > 1 !== ring[(k + 1) % ring.length] > 1) changes++;
    return changes;
  }

  /** Recomputes the maps in the worker (coalescing while one is in flight), then draws. */
  async refresh(): Promise<void> {
    if (this.inflight) {
      this.queued = true;
      return;
    }
    this.inflight = true;
    // Until the new maps are drawn, the canvas shows the old ones under the new window.
    document.body.dataset.stability = 'computing';
    byId('alpha-beta').hidden = !this.shown().includes('slowfast');
    try {
      const specs = this.shown().map((m) => this.spec(m));
      const star = this.orderStar();
      // An overlay without an order star (a multistep method) is left out, not an error.
      const results = await Promise.all(
        specs.map((spec, i) =>
          star && i > 0
            ? this.engine.stability(spec).catch((e: unknown) => {
                if (e instanceof CancelledError) throw e;
                return undefined;
              })
            : this.engine.stability(spec),
        ),
      );
      this.analyses = new Map();
      specs.forEach((spec, i) => {
        const analysis = results[i];
        if (analysis) this.analyses.set(spec.method, { analysis, spec });
      });
      this.sectors = star ? await this.countSectors(this.run.method) : NaN;
      await this.measureMarkers();
      document.body.dataset.stability = 'ok';
    } catch (e) {
      if (!(e instanceof CancelledError)) {
        this.analyses.clear();
        const message = e instanceof Error ? e.message : String(e);
        this.factsBox.textContent = message;
        if (this.orderStar()) {
          // The core's reason says what to pick; its "invalid spec:" prefix is for API users.
          const reason = message.replace(/^invalid spec: /, '');
          this.caption.textContent = `No order star for ${this.name(this.run.method)}: ${reason}, or show the region of absolute stability.`;
          // Said once, in the caption.
          this.factsBox.replaceChildren();
        }
        document.body.dataset.stability = 'error';
      }
    } finally {
      this.inflight = false;
    }
    this.draw();
    if (this.queued) {
      this.queued = false;
      await this.refresh();
    }
  }

  private onWheel(e: WheelEvent): void {
    e.preventDefault();
    const { width, height } = this.canvas.getBoundingClientRect();
    const win = fitAspect(this.win, width, height);
    const [re, im] = pixelToXi(win, width, height, e.offsetX, e.offsetY);
    this.setWindow(zoomAt(win, re, im, e.deltaY > 0 ? 1.2 : 1 / 1.2), true);
  }

  /** Whether another tab is open (the ξ-plane is not on screen). */
  private hidden(): boolean {
    return byId('view-stability').hidden;
  }

  /** Draws the primary map, every boundary, the axes and the hλ markers. */
  draw(): void {
    // Nothing to see, and measuring the canvas would force a layout of the whole page
    // (18 ms of the first plot); sync() draws on showing.
    if (this.hidden()) return;
    const { width, height } = this.canvas.getBoundingClientRect();
    const ctx = sizeCanvas(this.canvas, width, height);
    if (!ctx) return;
    this.drawn = fitAspect(this.win, width, height);
    this.publishWindow(this.drawn);
    const primary = this.analyses.get(this.run.method);
    if (primary) {
      // The map was computed for the window it was asked with; while dragging, the
      // window has moved on, so the image is placed where its corners now fall.
      const { analysis: a, spec } = primary;
      const off = document.createElement('canvas');
      off.width = a.nx;
      off.height = a.ny;
      off.getContext('2d')?.putImageData(new ImageData(colorize(a.values, a.nx, a.ny), a.nx, a.ny), 0, 0);
      const [re, im] = [spec.re ?? this.drawn.re, spec.im ?? this.drawn.im];
      const [x0, y0] = xiToPixel(this.drawn, width, height, re[0], im[1]);
      const [x1, y1] = xiToPixel(this.drawn, width, height, re[1], im[0]);
      ctx.imageSmoothingEnabled = true;
      ctx.drawImage(off, x0, y0, x1 - x0, y1 - y0);
      // Its pixels now live in the plot: give the backing store back now, not at some GC.
      off.width = off.height = 0;
    }
    this.drawAxes(ctx, width, height);
    const legend: [string, string][] = [];
    this.shown().forEach((m, i) => {
      const a = this.analyses.get(m)?.analysis;
      if (!a) return;
      const colour = i === 0 ? '#111' : OVERLAY_COLOURS[(i - 1) % OVERLAY_COLOURS.length];
      legend.push([m, colour]);
      ctx.strokeStyle = colour;
      ctx.lineWidth = i === 0 ? 2 : 1.6;
      const { xy, offsets } = a.contour;
      for (let k = 0; k + 1 < offsets.length; k++) {
        ctx.beginPath();
        for (let p = offsets[k]; p < offsets[k + 1]; p++) {
          const [x, y] = xiToPixel(this.drawn, width, height, xy[2 * p], xy[2 * p + 1]);
          if (p === offsets[k]) ctx.moveTo(x, y);
          else ctx.lineTo(x, y);
        }
        ctx.stroke();
      }
    });
    this.drawMarkers(ctx, width, height);
    this.showLegend(legend);
    this.showFacts(primary?.analysis.facts);
    if (primary) this.showCaption();
  }

  private name(m: string, custom = 'your method'): string {
    if (m === 'custom') return custom;
    const info = this.methods.find((x) => x.id === m);
    if (!info) return m;
    // A variable-order method has no one region: the engine draws the fixed-step formula
    // of its highest order (the catalogue's order), and the label says so.
    return info.family.includes('variable step and order') ? `${info.name}: its order-${info.order} formula` : info.name;
  }

  /** The region's caption, or what the order star shows, with the sectors counted at its origin. */
  private showCaption(): void {
    if (!this.orderStar()) {
      this.caption.textContent = this.regionCaption;
      delete this.caption.dataset.sectors;
      return;
    }
    const m = this.run.method;
    const order = this.methods.find((x) => x.id === m)?.order;
    const n = this.sectors;
    const q = n / 2 - 1;
    let origin: string;
    if (!(Number.isInteger(q) && q >= 1)) origin = 'Its sectors at the origin are too thin to count at this resolution.';
    else if (m !== 'custom' && order === q)
      origin = `${n} sectors meet at the origin: ${this.name(m)} has order ${q}, so R(ξ)e^−ξ = 1 + Cξ${superscript(q + 1)} + …, whose sign alternates in 2(${q} + 1) sectors.`;
    else origin = `${n} sectors meet at the origin: R(ξ) matches e^ξ to order ${q}, so R(ξ)e^−ξ = 1 + Cξ${superscript(q + 1)} + …, whose sign alternates in 2(${q} + 1) sectors.`;
    this.caption.textContent =
      `Order star of ${this.name(m)}: red where |R(ξ)| > |e^ξ| (a step amplifies more than the exact solution), ` +
      `blue where |R(ξ)| < |e^ξ| (it damps more); the line is |R(ξ)e^−ξ| = 1. ${origin} ` +
      "The facts beside are the region's. Drag or arrow keys to pan; wheel, pinch or + and − to zoom.";
    this.caption.dataset.sectors = String(n);
  }

  private drawAxes(ctx: CanvasRenderingContext2D, width: number, height: number): void {
    ctx.font = '11px system-ui, sans-serif';
    ctx.fillStyle = '#334';
    ctx.strokeStyle = 'rgba(40, 50, 70, 0.35)';
    ctx.lineWidth = 1;
    const [ox, oy] = xiToPixel(this.drawn, width, height, 0, 0);
    ctx.beginPath();
    ctx.moveTo(0, oy);
    ctx.lineTo(width, oy);
    ctx.moveTo(ox, 0);
    ctx.lineTo(ox, height);
    ctx.stroke();
    for (const re of niceTicks(this.drawn.re[0], this.drawn.re[1], Math.max(4, Math.round(width / 110)))) {
      const [x] = xiToPixel(this.drawn, width, height, re, 0);
      const label = formatNumber(re, 4);
      // A label that would run off the right edge is left out.
      if (x + 2 + ctx.measureText(label).width <= width) ctx.fillText(label, x + 2, height - 4);
    }
    for (const im of niceTicks(this.drawn.im[0], this.drawn.im[1], Math.max(4, Math.round(height / 70)))) {
      const [, y] = xiToPixel(this.drawn, width, height, 0, im);
      if (im !== 0) ctx.fillText(`${formatNumber(im, 4)}i`, 4, y - 2);
    }
    ctx.fillText('Re ξ', width - 34, oy - 6);
    ctx.fillText('Im ξ', ox + 6, 12);
  }

  private drawMarkers(ctx: CanvasRenderingContext2D, width: number, height: number): void {
    const { eigenvalues, h } = this.run;
    const markers = byId('stability-markers');
    if (this.orderStar()) {
      markers.textContent = 'hλ markers are judged on the region map (Show: Region of absolute stability): an order star compares R(ξ) with e^ξ, not with 1.';
      delete markers.dataset.outside;
      delete markers.dataset.fastUnstable;
      return;
    }
    let outside = 0;
    let unjudged = 0;
    let largest = 0;
    ctx.lineWidth = 2;
    for (let k = 0; k + 1 < eigenvalues.length; k += 2) {
      const re = h * eigenvalues[k];
      const im = h * eigenvalues[k + 1];
      const [x, y] = xiToPixel(this.drawn, width, height, re, im);
      ctx.strokeStyle = '#000';
      ctx.fillStyle = '#ffd43b';
      ctx.beginPath();
      ctx.arc(x, y, 5, 0, 2 * Math.PI);
      ctx.fill();
      ctx.stroke();
      if (!this.judged(k / 2)) {
        unjudged++;
        continue;
      }
      const value = this.markerValue(k / 2, re, im);
      if (value > 1 + 1e-9) {
        outside++;
        largest = Math.max(largest, value);
      }
    }
    const unknown = this.run.eigenvalues.length / 2 - outside - this.countInside() - unjudged;
    const n = eigenvalues.length / 2;
    const slow = this.run.fast ? ' of the slow block (ξ = hλₛ)' : '';
    markers.textContent =
      n === 0
        ? (this.run.note ?? 'No eigenvalues to mark: run a model with a Jacobian.')
        : `${n} markers hλ${slow} (h = ${formatNumber(h)}, ${this.run.where}); ${outside} outside the region of ${this.name(this.run.method)}` +
          (unknown > 0 ? `, ${unknown} beyond the window` : '') +
          (unjudged > 0
            ? `, ${unjudged} real, not judged here (the ξ-plane of a second-order method stands for the complex pair λ, λ̄ of an underdamped mode; a real λ belongs to an overdamped pair)`
            : '') +
          // Barely outside (an undamped mode at the edge): say how little it grows.
          (outside > 0 && largest < 1 + 1e-4 ? ` (|R| ≤ 1 + ${formatNumber(largest - 1, 2)}: they grow that much a step)` : '') +
          '.' +
          (this.run.fast ? ` ${fastVerdict(this.run.fast)}` : '');
    markers.dataset.outside = String(outside);
    if (this.run.fast) markers.dataset.fastUnstable = String(fastUnstable(this.run.fast));
    else delete markers.dataset.fastUnstable;
  }

  private countInside(): number {
    const { eigenvalues, h } = this.run;
    let inside = 0;
    for (let k = 0; k + 1 < eigenvalues.length; k += 2) {
      if (this.judged(k / 2) && this.markerValue(k / 2, h * eigenvalues[k], h * eigenvalues[k + 1]) <= 1 + 1e-9) inside++;
    }
    return inside;
  }

  /**
   * Whether marker `i` can be judged on this map. A second-order method's ξ-plane stands
   * for the complex pair λ, λ̄ of an underdamped mode (Ω² = |ξ|², 2βΩ = −2 Re ξ, Schwab &
   * Delhaes after eq. 7.13); a real λ belongs to an overdamped pair, which it would read as
   * critically damped: Euler 2 on the spring with c = 1000 (λ = −0.1, −999.9) is stable
   * up to h = 0.0019998, where the map puts hλ = −1.5 of h = 0.0015 outside.
   */
  private judged(i: number): boolean {
    const { eigenvalues, method } = this.run;
    const re = eigenvalues[2 * i];
    const im = eigenvalues[2 * i + 1];
    const secondOrder = this.methods.find((m) => m.id === method)?.secondOrder ?? false;
    return !secondOrder || Math.abs(im) > 1e-12 * Math.hypot(re, im);
  }

  /** What decides a method's region, whatever the window: α, β, your tableau. */
  private regionKey(method: string): string {
    const spec: Partial<StabilitySpec> = { ...this.spec(method) };
    delete spec.re;
    delete spec.im;
    return JSON.stringify(spec);
  }

  /** |R| at marker `i` (ξ = re + i·im): measured exactly, else interpolated in the map. */
  private markerValue(i: number, re: number, im: number): number {
    const m = this.measuredFor;
    const current = m && m.eigenvalues === this.run.eigenvalues && m.h === this.run.h && m.spec === this.regionKey(this.run.method);
    return (current ? this.markerValues[i] : undefined) ?? this.valueAt(re, im);
  }

  /** The primary map's value at ξ, interpolated in the grid (`interpolateLog`); NaN outside it. */
  private valueAt(re: number, im: number): number {
    const entry = this.analyses.get(this.run.method);
    const a = entry?.analysis;
    const win = entry?.spec;
    if (!a || !win?.re || !win.im) return NaN;
    const fx = ((re - win.re[0]) / (win.re[1] - win.re[0])) * (a.nx - 1);
    const fy = ((im - win.im[0]) / (win.im[1] - win.im[0])) * (a.ny - 1);
    if (!(fx >= -0.5 && fy >= -0.5 && fx <= a.nx - 0.5 && fy <= a.ny - 0.5)) return NaN;
    return interpolateLog(a.values, a.nx, a.ny, fx, fy);
  }

  private showLegend(entries: [string, string][]): void {
    const name = (m: string): string => this.name(m, 'Your method');
    // For the PNG (www/png.ts): the boundaries drawn and the markers.
    this.canvas.dataset.legend = JSON.stringify([
      ...entries.map(([m, colour]) => ({ label: `${this.orderStar() ? '|R(ξ)e^−ξ|' : '|R|'} = 1 of ${name(m)}`, color: colour })),
      ...(this.run.eigenvalues.length > 0 ? [{ label: `hλ (h = ${formatNumber(this.run.h)}, ${this.run.where})`, color: '#f0b400' }] : []),
    ]);
    this.canvas.dataset.title = `${this.orderStar() ? 'Order star' : 'Stability region'} in the ξ = hλ plane: ${entries.map(([m]) => name(m)).join(', ')}`;
    this.legend.replaceChildren(
      ...entries.map(([m, colour]) => {
        const item = document.createElement('span');
        item.className = 'legend-item';
        const swatch = document.createElement('span');
        swatch.className = 'swatch';
        swatch.style.background = colour;
        item.append(swatch, name(m));
        return item;
      }),
    );
  }

  private showFacts(facts: StabilityFacts | undefined): void {
    if (!facts) return;
    // An unbounded interval reads as what it means, not as "-Infinity".
    const intercept = (x: number): string => (Number.isFinite(x) ? formatNumber(x, 12) : '−∞ (the whole negative real axis)');
    const extent = (y: number): string => (Number.isFinite(y) ? `${formatNumber(y, 12)}i` : '∞ (the whole imaginary axis)');
    const rows: [string, string][] = [
      ['real-axis intercept', facts.realIntercept === undefined ? 'none' : intercept(facts.realIntercept)],
      ['imaginary-axis extent', facts.imagExtent === undefined ? 'none' : extent(facts.imagExtent)],
      ['A-stable', facts.aStable ? 'yes' : 'no'],
      ['|R(−∞)|', formatNumber(facts.valueAtMinusInfinity, 3)],
      ['L-stable', facts.lStable ? 'yes' : 'no'],
    ];
    fillDefinitions(this.factsBox, 'fact', rows);
  }
}

/** n in superscript digits (ξ⁵). */
function superscript(n: number): string {
  return [...String(n)].map((d) => '⁰¹²³⁴⁵⁶⁷⁸⁹'[Number(d)]).join('');
}

/** Modes of the fast block that grow (Re λ > 0): the exponential follows them exactly. */
function fastUnstable(fast: ArrayLike<number>): number {
  let n = 0;
  for (let k = 0; k + 1 < fast.length; k += 2) if (fast[k] > 1e-12 * Math.hypot(fast[k], fast[k + 1])) n++;
  return n;
}

/**
 * The fast block's eigenvalues and their verdict. The scheme integrates that block by its
 * matrix exponential, exact on the linearised fast dynamics, so h puts no bound on it: a
 * mode is damped or kept whenever Re λ ≤ 0 (Gil, Sanfelice & Nikravesh 2013, eq. 59).
 */
export function fastVerdict(fast: ArrayLike<number>): string {
  const n = fast.length / 2;
  if (n === 0) return '';
  // Conjugate pairs as ±, repeated values once with their count.
  const seen = new Map<string, number>();
  for (let k = 0; k + 1 < fast.length; k += 2) {
    const [re, im] = [fast[k], fast[k + 1]];
    if (im < 0) continue;
    const r = Math.abs(re) <= 1e-9 * Math.hypot(re, im) ? '' : formatNumber(re, 3);
    const i = im === 0 ? '' : `${formatNumber(im, 3)}i`;
    const text = r && i ? `${r} ± ${i}` : i ? `±${i}` : r || '0';
    seen.set(text, (seen.get(text) ?? 0) + 1);
  }
  const list = [...seen].map(([text, count]) => (count > 1 ? `${text} (×${count})` : text)).join(', ');
  const growing = fastUnstable(fast);
  const verdict =
    growing === 0
      ? 'stable for every h (Re λ ≤ 0)'
      : `${growing} with Re λ > 0 grow${growing === 1 ? 's' : ''}, as the linearised fast motion itself does, whatever h`;
  return `Fast block (${n} eigenvalue${n === 1 ? '' : 's'}, not marked): λ = ${list}, integrated by its matrix exponential — ${verdict}.`;
}

/** Most distinct markers whose |R| is asked of the engine one by one (a message each). */
const MAX_MEASURED = 32;

/** Largest window the view grows to when fitting markers (beyond, they are listed). */
const MAX_FIT = 1e4;

/** `base` grown to contain every hλ (with a margin), up to ±MAX_FIT. */
export function fitMarkers(base: PlaneWindow, eigenvalues: ArrayLike<number>, h: number): PlaneWindow {
  let [re0, re1] = base.re;
  let im1 = Math.max(Math.abs(base.im[0]), Math.abs(base.im[1]));
  for (let k = 0; k + 1 < eigenvalues.length; k += 2) {
    const re = h * eigenvalues[k];
    const im = Math.abs(h * eigenvalues[k + 1]);
    if (!Number.isFinite(re) || !Number.isFinite(im)) continue;
    re0 = Math.max(-MAX_FIT, Math.min(re0, 1.15 * re));
    re1 = Math.min(MAX_FIT, Math.max(re1, 1.15 * re));
    im1 = Math.min(MAX_FIT, Math.max(im1, 1.15 * im));
  }
  return { re: [re0, re1], im: [-im1, im1] };
}

/**
 * A map's value at the fractional grid position (fx, fy), bilinear in log |R|: log |R|
 * is nearly linear across a cell near the boundary (log |R(x + iy)| ≈ x for small ξ),
 * where |R| itself is convex, so a marker on the boundary (hλ = ±iω of an undamped
 * mode, |R| = 1 − O(ξ⁶) for RK4) is judged by its own value, not by the nearest grid
 * point's, which lies on either side of the line depending on the window. A cell with a
 * value that is not finite falls back to the nearest point.
 */
export function interpolateLog(values: ArrayLike<number>, nx: number, ny: number, fx: number, fy: number): number {
  const ix = Math.max(0, Math.min(nx - 2, Math.floor(fx)));
  const iy = Math.max(0, Math.min(ny - 2, Math.floor(fy)));
  const nearest = values[Math.max(0, Math.min(ny - 1, Math.round(fy))) * nx + Math.max(0, Math.min(nx - 1, Math.round(fx)))];
  if (nx < 2 || ny < 2) return nearest;
  const corners = [values[iy * nx + ix], values[iy * nx + ix + 1], values[(iy + 1) * nx + ix], values[(iy + 1) * nx + ix + 1]];
  if (!corners.every((v) => Number.isFinite(v) && v > 0)) return nearest;
  const [u, v] = [Math.max(0, Math.min(1, fx - ix)), Math.max(0, Math.min(1, fy - iy))];
  const [l00, l10, l01, l11] = corners.map(Math.log);
  return Math.exp((1 - u) * (1 - v) * l00 + u * (1 - v) * l10 + (1 - u) * v * l01 + u * v * l11);
}
