/**
 * The time cursor `<input type="range" id="time">` and "Animate": moving the cursor sets
 * the store's time (the mechanism, every plot's marker, the phase portrait's dot and the
 * ξ-plane's hλ follow it); "Animate" plays the stored run in real time at a chosen speed
 * (×0.1…×10, optionally looping) without solving again. Step by step, the cursor jumps
 * from one stored step to the next, so the step points show.
 */
import { byId } from './dom';
import { formatNumber } from './format';
import { indexAt } from './run';
import type { Store } from './store';

/** Resolution of the cursor over the run (the input's steps). */
const CURSOR_STEPS = 2000;
/** Seconds per step in step-by-step mode at ×1. */
const SECONDS_PER_STEP = 0.25;

export class Playback {
  private readonly slider = byId<HTMLInputElement>('time');
  private readonly label = byId<HTMLOutputElement>('time-t');
  private readonly speed = byId<HTMLSelectElement>('speed');
  private readonly loop = byId<HTMLInputElement>('loop');
  private readonly steps = byId<HTMLInputElement>('step-mode');
  private readonly button = byId<HTMLButtonElement>('animate');
  private frame = 0;
  private playing = false;
  /** Called when playing starts and stops (the page's status). */
  onPlaying: (playing: boolean) => void = () => undefined;
  /** Step-by-step mode changed. */
  onStepMode: (on: boolean) => void = () => undefined;

  constructor(private readonly store: Store) {
    this.slider.min = '0';
    this.slider.step = 'any';
    this.slider.addEventListener('input', () => {
      this.stop();
      this.store.setTime(this.timeOf(Number(this.slider.value)));
    });
    this.button.addEventListener('click', () => (this.playing ? this.stop() : this.play()));
    this.steps.addEventListener('change', () => this.onStepMode(this.steps.checked));
    store.subscribe('run', () => {
      this.stop();
      this.show();
    });
    store.subscribe('time', () => this.show());
  }

  private range(): [number, number] {
    const t = this.store.run?.t;
    return t && t.length > 0 ? [t[0], t[t.length - 1]] : [0, 0];
  }

  /** The time at slider position `position` (in step mode, the nearest stored step). */
  private timeOf(position: number): number {
    const [t0, t1] = this.range();
    const time = t0 + (position / CURSOR_STEPS) * (t1 - t0);
    const t = this.store.run?.t;
    if (!this.steps.checked || !t) return time;
    const i = indexAt(t, time);
    return i + 1 < t.length && t[i + 1] - time < time - t[i] ? t[i + 1] : t[i];
  }

  private show(): void {
    const [t0, t1] = this.range();
    const time = this.store.time;
    this.slider.max = String(CURSOR_STEPS);
    this.slider.value = String(t1 > t0 ? ((time - t0) / (t1 - t0)) * CURSOR_STEPS : 0);
    this.slider.dataset.t = String(time);
    this.label.textContent = `t = ${formatNumber(time)}`;
  }

  /** Plays from the cursor (from the start if it is at the end). */
  play(): void {
    const run = this.store.run;
    if (!run || run.t.length < 2) return;
    const [t0, t1] = this.range();
    if (this.store.time >= t1) this.store.setTime(t0);
    this.playing = true;
    this.button.textContent = 'Stop';
    this.onPlaying(true);
    let last = performance.now();
    let frames = 0;
    const started = last;
    let stepClock = 0;
    const tick = (now: number): void => {
      if (!this.playing) return;
      const dt = (now - last) / 1000;
      last = now;
      frames++;
      const speed = Number(this.speed.value) || 1;
      let time = this.store.time;
      if (this.steps.checked) {
        stepClock += dt * speed;
        if (stepClock >= SECONDS_PER_STEP) {
          stepClock = 0;
          const i = indexAt(run.t, time);
          time = i + 1 < run.t.length ? run.t[i + 1] : Infinity;
        }
      } else {
        time += dt * speed;
      }
      if (time > t1) {
        if (!this.loop.checked) {
          this.store.setTime(t1);
          this.finish(frames, performance.now() - started);
          return;
        }
        time = t0;
      }
      this.store.setTime(time);
      this.frame = requestAnimationFrame(tick);
    };
    this.frame = requestAnimationFrame(tick);
  }

  /** Records the frame rate of the last playback (`data-fps` on the cursor). */
  private finish(frames: number, ms: number): void {
    if (ms > 0) this.slider.dataset.fps = (frames / (ms / 1000)).toFixed(1);
    this.stop();
  }

  stop(): void {
    if (!this.playing) return;
    this.playing = false;
    cancelAnimationFrame(this.frame);
    this.button.textContent = 'Animate';
    this.onPlaying(false);
  }
}
