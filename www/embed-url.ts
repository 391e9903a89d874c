/**
 * The embed URL form, one public contract for every route into a lecture: `<ode-playground>`
 * (www/embed.ts), the anywidget module (www/anywidget.ts), the Quarto shortcode
 * (_extensions/odelab/odelab.lua) and a bare iframe pasted into a platform that strips
 * scripts all point a frame at `index.html?embed=1&scenario=…[&view=…][&readonly=1]
 * [&controls=…]` with an optional share fragment `#v1=…`, read by www/embedded.ts.
 */
export interface EmbedOptions {
  scenario?: string | null;
  view?: string | null;
  readonly?: boolean;
  controls?: string | null;
  /** A share fragment from *Copy link* (`#v1=…`); anything else is ignored. */
  link?: string | null;
}

/** The playground URL under `base` (the folder of index.html, ending in `/`) for these options. */
export function embedUrl(base: string, options: EmbedOptions): string {
  const query = new URLSearchParams({ embed: '1' });
  if (options.scenario) query.set('scenario', options.scenario);
  if (options.view) query.set('view', options.view);
  if (options.readonly) query.set('readonly', '1');
  if (options.controls !== null && options.controls !== undefined) query.set('controls', options.controls);
  const link = options.link ?? '';
  return `${base}index.html?${query.toString()}${link.startsWith('#v') ? link : ''}`;
}
