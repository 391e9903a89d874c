/**
 * `<ode-playground>`: odelab inside any lecture page with one classic script tag.
 *
 *   <script src="https://…/odelab/embed.js"></script>
 *   <ode-playground scenario="rk4-region" readonly></ode-playground>
 *
 * Vite builds this file alone as an IIFE (vite.config.ts), so it loads from a host that
 * sends no CORS headers (a module script would be fetched with CORS and refused there).
 * The element frames the playground page that sits next to this script (an iframe keeps
 * the lecture page's styles, scripts and CSP apart from ours), passing the attributes
 * on: `scenario` (an id of www/scenarios.json), `view`, `readonly` (caption, plots and
 * only the controls the scenario's caption asks for), `controls` ("h,alpha,beta": the
 * controls a read-only embed shows instead of the scenario's own), `link` (a share
 * fragment `#v1=…` instead of a scenario) and `height` (CSS; otherwise the frame follows
 * the height its page reports, see www/embedded.ts) and `loading` (below).
 *
 * The frame is not loaded until the element comes near the viewport, so a lecture with
 * ten embeds starts one engine per screenful, not ten at once; and an embed the reader
 * has scrolled far past is released again (its frame emptied, its height kept) unless
 * the reader has touched it: an untouched embed is exactly what its attributes say, so
 * it is rebuilt when it comes near again. A frame costs the lecture page ~25–35 MB
 * (its document, script context and canvases); released, a long lecture holds the
 * embeds of a few screens, not all of them. `data-frame` on the element says which:
 * `waiting`, `loaded` or `released`. `loading="eager"` (as on an <iframe>) starts the
 * embed with the page and never releases it: for a page printed or saved as PDF, or a
 * lecture opened before class so that every embed is drawn when the lecturer reaches it.
 */

import { HEIGHT_MESSAGE, TOUCHED_MESSAGE } from './embedded';
import { embedUrl } from './embed-url';

/** This script's URL: `currentScript` while a classic script runs; a module has none. */
function scriptUrl(): string {
  const current = document.currentScript;
  if (current instanceof HTMLScriptElement && current.src) return current.src;
  const tagged = [...document.querySelectorAll<HTMLScriptElement>('script[src]')].find((s) => /\/embed\.js(\?|$)/.test(s.src));
  return tagged?.src ?? location.href;
}

/** The folder this script was loaded from, where index.html is. */
const BASE = scriptUrl().replace(/[?#].*$/, '').replace(/[^/]*$/, '');
const ORIGIN = new URL(BASE).origin;
/** How close (px) to the viewport an embed starts loading. */
const NEAR = '600px 0px';
/** How far (px or % of the viewport) from the viewport an untouched embed is released. */
const FAR = '300% 0px';
/** Height before the frame reports its own (and the cap on what it may report). */
const PLACEHOLDER_HEIGHT = { readonly: 480, full: 900 };
const MAX_HEIGHT = 20000;

export class OdePlayground extends HTMLElement {
  static observedAttributes = ['scenario', 'view', 'readonly', 'link', 'height', 'controls', 'loading'];
  private frame: HTMLIFrameElement | undefined;
  private near = false;
  /** The reader has used this embed (its frame said so): it is never released. */
  private touched = false;
  private observer: IntersectionObserver | undefined;
  private farObserver: IntersectionObserver | undefined;
  private readonly onMessage = (e: MessageEvent): void => this.receive(e);

  connectedCallback(): void {
    if (!this.frame) {
      this.frame = document.createElement('iframe');
      this.frame.title = `odelab: ${this.getAttribute('scenario') ?? 'playground'}`;
      this.frame.style.width = '100%';
      this.frame.style.border = '1px solid #d3d8e4';
      this.frame.style.borderRadius = '6px';
      this.frame.style.display = 'block';
      this.frame.style.boxSizing = 'border-box';
      this.append(this.frame);
    }
    if (!this.style.display) this.style.display = 'block';
    window.addEventListener('message', this.onMessage);
    this.observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting) && !this.near) {
          this.near = true;
          this.update();
        }
      },
      { rootMargin: NEAR },
    );
    this.observer.observe(this);
    this.farObserver = new IntersectionObserver(
      (entries) => {
        const far = entries.length > 0 && !entries[entries.length - 1].isIntersecting;
        if (far) this.release();
      },
      { rootMargin: FAR },
    );
    this.farObserver.observe(this);
    this.update();
  }

  disconnectedCallback(): void {
    window.removeEventListener('message', this.onMessage);
    this.observer?.disconnect();
    this.farObserver?.disconnect();
  }

  /** `loading="eager"`: started with the page and kept (see the file's comment). */
  private get eager(): boolean {
    return this.getAttribute('loading')?.trim().toLowerCase() === 'eager';
  }

  /** Empties the frame of an untouched embed far from the viewport (see the file's comment). */
  private release(): void {
    if (!this.frame || !this.near || this.touched || this.eager) return;
    this.near = false;
    // about:blank unloads the page (a removed src would keep it); the height stays.
    this.frame.src = 'about:blank';
    this.dataset.frame = 'released';
  }

  attributeChangedCallback(): void {
    if (this.frame) this.update();
  }

  /** The playground URL these attributes describe. */
  src(): string {
    return embedUrl(BASE, {
      scenario: this.getAttribute('scenario'),
      view: this.getAttribute('view'),
      readonly: this.hasAttribute('readonly'),
      controls: this.getAttribute('controls'),
      link: this.getAttribute('link'),
    });
  }

  /** Follows the height the frame reports, unless `height` fixes it. */
  private receive(e: MessageEvent): void {
    if (!this.frame || e.source !== this.frame.contentWindow || e.origin !== ORIGIN) return;
    const data: unknown = e.data;
    if (typeof data !== 'object' || data === null) return;
    if ((data as { type?: unknown }).type === TOUCHED_MESSAGE) {
      this.touched = true;
      return;
    }
    if ((data as { type?: unknown }).type !== HEIGHT_MESSAGE) return;
    const height = Number((data as { height?: unknown }).height);
    if (this.hasAttribute('height') || !(height > 0) || height > MAX_HEIGHT) return;
    // The frame's border adds 2 px around the page it shows.
    this.frame.style.height = `${Math.ceil(height) + 2}px`;
  }

  private update(): void {
    if (!this.frame) return;
    const fixed = this.getAttribute('height');
    if (fixed) this.frame.style.height = fixed;
    else if (!this.frame.style.height) {
      this.frame.style.height = `${this.hasAttribute('readonly') ? PLACEHOLDER_HEIGHT.readonly : PLACEHOLDER_HEIGHT.full}px`;
    }
    if (this.eager) this.near = true;
    if (!this.near) {
      this.dataset.frame ??= 'waiting';
      return;
    }
    const src = this.src();
    if (this.frame.src !== src) this.frame.src = src;
    this.dataset.frame = 'loaded';
  }
}

if (!customElements.get('ode-playground')) customElements.define('ode-playground', OdePlayground);
