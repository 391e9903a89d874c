/**
 * The page's one state: the current run, the pinned runs and the time cursor. Views
 * subscribe to what they draw ('run', 'pins', 'time') and redraw from the store; the
 * trajectory view's run lifecycle is the only writer of `run`, the pin list of `pins`,
 * the time cursor of `time`. No view tells another that something changed.
 */
import type { Run } from './run';

/** A run kept by "Pin": drawn on every plot, the phase portrait and the mechanism. */
export interface Pin {
  id: number;
  run: Run;
  color: string;
  hidden: boolean;
}

export type Topic = 'run' | 'pins' | 'time';

/** Pins' colours: none within the plots' tolerance of a live state's colour. */
export const PIN_COLORS = ['#f59f00', '#74c0fc', '#ff8787', '#8ce99a', '#b197fc', '#ffd43b'];

export class Store {
  private current: Run | undefined;
  private pinned: Pin[] = [];
  private cursor = 0;
  private nextPin = 1;
  private readonly listeners = new Map<Topic, Set<() => void>>();

  /** Calls `listener` after every change of `topic`; returns the unsubscribe. */
  subscribe(topic: Topic, listener: () => void): () => void {
    const set = this.listeners.get(topic) ?? new Set();
    set.add(listener);
    this.listeners.set(topic, set);
    return () => set.delete(listener);
  }

  private emit(topic: Topic): void {
    for (const listener of this.listeners.get(topic) ?? []) listener();
  }

  get run(): Run | undefined {
    return this.current;
  }

  get pins(): readonly Pin[] {
    return this.pinned;
  }

  /** The visible pins. */
  get shownPins(): Pin[] {
    return this.pinned.filter((p) => !p.hidden);
  }

  /** The time cursor, in the run's time. */
  get time(): number {
    return this.cursor;
  }

  /** A new current run; the time cursor stays where it was, clamped into the run. */
  setRun(run: Run): void {
    this.current = run;
    this.emit('run');
    const t = run.t;
    this.setTime(t.length === 0 ? 0 : Math.min(Math.max(this.cursor, t[0]), t[t.length - 1]));
  }

  setTime(time: number): void {
    this.cursor = time;
    this.emit('time');
  }

  /** Keeps `run` as a pin (in the next free colour unless one is given). */
  pin(run: Run, style: { color?: string; hidden?: boolean } = {}): Pin {
    const used = new Set(this.pinned.map((p) => p.color));
    const color = style.color ?? PIN_COLORS.find((c) => !used.has(c)) ?? PIN_COLORS[this.pinned.length % PIN_COLORS.length];
    const pin: Pin = { id: this.nextPin++, run, color, hidden: style.hidden ?? false };
    this.pinned = [...this.pinned, pin];
    this.emit('pins');
    return pin;
  }

  unpin(id: number): void {
    this.pinned = this.pinned.filter((p) => p.id !== id);
    this.emit('pins');
  }

  /** Changes a pin's colour or visibility. */
  restyle(id: number, style: { color?: string; hidden?: boolean }): void {
    this.pinned = this.pinned.map((p) => (p.id === id ? { ...p, ...style } : p));
    this.emit('pins');
  }

  clearPins(): void {
    if (this.pinned.length === 0) return;
    this.pinned = [];
    this.emit('pins');
  }
}
