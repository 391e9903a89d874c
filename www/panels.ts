/**
 * Help and Sources: the header's buttons show or hide their panels (static text in
 * index.html, so nothing is built here). A button names its panel by `aria-controls` and
 * says whether it is open by `aria-expanded`; × or Escape closes a panel and returns
 * focus to its button.
 */
export function attachPanels(root: Document = document): void {
  const buttons = [...root.querySelectorAll<HTMLButtonElement>('button.panel-button')];
  const panelOf = (button: HTMLButtonElement): HTMLElement | null => root.getElementById(button.getAttribute('aria-controls') ?? '');
  const show = (button: HTMLButtonElement, open: boolean): void => {
    const panel = panelOf(button);
    if (!panel) return;
    panel.hidden = !open;
    button.setAttribute('aria-expanded', String(open));
    if (open) {
      const heading = panel.querySelector<HTMLElement>('h2');
      if (heading) {
        heading.tabIndex = -1;
        heading.focus();
      }
    }
  };
  for (const button of buttons) {
    button.addEventListener('click', () => show(button, panelOf(button)?.hidden ?? false));
    panelOf(button)?.addEventListener('keydown', (e) => {
      if (e.key !== 'Escape') return;
      show(button, false);
      button.focus();
    });
  }
  for (const close of root.querySelectorAll<HTMLButtonElement>('button.panel-close')) {
    close.addEventListener('click', () => {
      const button = buttons.find((b) => b.getAttribute('aria-controls') === close.dataset.close);
      if (!button) return;
      show(button, false);
      button.focus();
    });
  }
}
