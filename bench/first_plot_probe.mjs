// What bench/first_plot.mjs and bench/first_plot_trace.mjs share: the probe that runs in
// the page before its own scripts, and a median.
//
// The probe records when the body becomes ready (`ready`: body[data-ready="true"],
// catalogues read, first run solved and drawn) and the first animation frame in which
// the trajectory plot's canvas has ink (`plot`), as performance.now() in the page, i.e.
// milliseconds since navigation start, in `window.__firstPlot`; once it has both it
// logs DONE on the console, so the bench waits with no Playwright script in the page.

/** The console message the probe logs once it has both marks. */
export const DONE = 'odelab-first-plot-done';

/** Runs in the page (Playwright's addInitScript): no closure over this module. */
export function probe() {
  const marks = {};
  window.__firstPlot = marks;
  const done = () => marks.ready !== undefined && marks.plot !== undefined && console.debug('odelab-first-plot-done');
  new MutationObserver(() => {
    if (document.body?.dataset.ready === 'true' && marks.ready === undefined) {
      marks.ready = performance.now();
      done();
    }
  }).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-ready'] });
  const poll = () => {
    const canvas = document.querySelector('#plot-trajectory canvas');
    if (canvas && canvas.width > 0) {
      const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
      for (let i = 3; i < data.length; i += 16) {
        if (data[i] > 0) {
          marks.plot = performance.now();
          done();
          return;
        }
      }
    }
    requestAnimationFrame(poll);
  };
  requestAnimationFrame(poll);
}

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : 0.5 * (s[m - 1] + s[m]);
}
