/**
 * Pinned runs: `#pin-run` keeps the current run, `<ul id="runs">` lists the pins (method,
 * h or tolerances, f-evaluations, the error where the exact solution is known) with a
 * colour to change, a box to hide and a button to remove each. The pins themselves are
 * drawn by the plots, the phase portrait and the mechanism (they subscribe to the store).
 */
import { byId } from './dom';
import { formatNumber } from './format';
import { describeRun, maxExactError } from './run';
import type { Store } from './store';

export class PinList {
  private readonly list = byId<HTMLUListElement>('runs');
  private readonly button = byId<HTMLButtonElement>('pin-run');

  constructor(private readonly store: Store) {
    this.button.addEventListener('click', () => {
      if (store.run) store.pin(store.run);
    });
    store.subscribe('pins', () => this.render());
    store.subscribe('run', () => (this.button.disabled = false));
    this.render();
  }

  private render(): void {
    const items = this.store.pins.map((pin, k) => {
      const item = document.createElement('li');
      item.dataset.pin = String(pin.id);
      item.dataset.method = pin.run.settings.method;
      item.classList.toggle('hidden-pin', pin.hidden);
      const color = document.createElement('input');
      color.type = 'color';
      color.value = pin.color;
      color.setAttribute('aria-label', `colour of pin ${k + 1}`);
      color.addEventListener('input', () => this.store.restyle(pin.id, { color: color.value }));
      const shown = document.createElement('input');
      shown.type = 'checkbox';
      shown.checked = !pin.hidden;
      shown.title = 'show this run';
      shown.setAttribute('aria-label', `show pin ${k + 1}`);
      shown.addEventListener('change', () => this.store.restyle(pin.id, { hidden: !shown.checked }));
      const text = document.createElement('span');
      const error = maxExactError(pin.run);
      const model = pin.run.model.id === this.store.run?.model.id ? '' : `${pin.run.model.name}: `;
      text.textContent =
        `${model}${describeRun(pin.run)} · ${pin.run.stats.nfev} f-evaluations` +
        (error !== undefined ? ` · max error ${formatNumber(error, 3)}` : '');
      const remove = document.createElement('button');
      remove.type = 'button';
      remove.textContent = '×';
      remove.className = 'remove-pin';
      remove.setAttribute('aria-label', `remove pin ${k + 1}`);
      remove.addEventListener('click', () => this.store.unpin(pin.id));
      item.append(shown, color, text, remove);
      return item;
    });
    this.list.replaceChildren(...items);
    this.list.hidden = items.length === 0;
  }
}
