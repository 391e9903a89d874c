/**
 * Registers the offline cache (dist/sw.js, www/service-worker.js) once the page has
 * loaded, so its own first load never waits for it. Only the built page has a sw.js;
 * the dev server's page registers nothing. A browser without service workers, or one
 * that refuses them (private mode, a policy), simply has no offline copy.
 */
export function registerOffline(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const register = (): void => {
    navigator.serviceWorker.register('./sw.js').catch(() => undefined);
  };
  if (document.readyState === 'complete') register();
  else addEventListener('load', register, { once: true });
}
