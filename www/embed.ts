/**
 * `<ode-playground>`: odelab inside any lecture page with one script tag.
 *
 *   <script type="module" src="https://…/odelab/embed.js"></script>
 *   <ode-playground scenario="euler-pendulum-blowup" view="trajectory" readonly></ode-playground>
 *
 * The element frames the playground page that sits next to this script (an iframe keeps
 * the lecture page's styles, scripts and CSP apart from ours), passing the attributes
 * on: `scenario` (an id of www/scenarios.json), `view`, `readonly` (plots and caption
 * only), `link` (a share fragment `#v1=…` instead of a scenario) and `height` (CSS).
 */

/** The folder this script was loaded from, where index.html is. */
const BASE = import.meta.url.replace(/[^/]*$/, '');

export class OdePlayground extends HTMLElement {
  static observedAttributes = ['scenario', 'view', 'readonly', 'link', 'height'];
  private frame: HTMLIFrameElement | undefined;

  connectedCallback(): void {
    if (!this.frame) {
      this.frame = document.createElement('iframe');
      this.frame.title = this.getAttribute('scenario') ?? 'odelab';
      this.frame.loading = 'lazy';
      this.frame.style.width = '100%';
      this.frame.style.border = '1px solid #d3d8e4';
      this.frame.style.borderRadius = '6px';
      this.append(this.frame);
    }
    this.update();
  }

  attributeChangedCallback(): void {
    if (this.frame) this.update();
  }

  /** The playground URL these attributes describe. */
  src(): string {
    const query = new URLSearchParams({ embed: '1' });
    const scenario = this.getAttribute('scenario');
    if (scenario) query.set('scenario', scenario);
    query.set('view', this.getAttribute('view') ?? 'trajectory');
    if (this.hasAttribute('readonly')) query.set('readonly', '1');
    const link = this.getAttribute('link') ?? '';
    return `${BASE}index.html?${query.toString()}${link.startsWith('#v') ? link : ''}`;
  }

  private update(): void {
    if (!this.frame) return;
    this.frame.style.height = this.getAttribute('height') ?? (this.hasAttribute('readonly') ? '640px' : '900px');
    const src = this.src();
    if (this.frame.src !== src) this.frame.src = src;
  }
}

if (!customElements.get('ode-playground')) customElements.define('ode-playground', OdePlayground);
