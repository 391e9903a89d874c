/**
 * Share links: the run settings in a compact, versioned URL fragment (`#v1=…`, base64url
 * of JSON). Decoding never throws: a damaged link or one from a newer odelab opens with
 * defaults and a message saying why. Everything decoded is checked field by field, so a
 * link stuffed with markup or absurd values cannot reach the page as anything but data.
 * Pinned runs ride along as `pins` (each checked like the settings themselves): a v1
 * link made before pins existed simply has none; so does the open view, `view`. The
 * same holds for the controls added later (per-state atol, the step-size controller,
 * Baumgarte's α and β, the independent coordinates, the Jacobian's refresh and scale):
 * a link without them opens the run it always opened.
 */
import type { PinSettings, RunSettings } from './settings';

export const SHARE_VERSION = 1;
/** Longest system text a link may carry (the engine's own limit is 100 kB). */
const MAX_SYSTEM_CHARS = 100_000;
const MAX_PARAMS = 200;

function toBase64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(data: string): string {
  const b64 = data.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  const binary = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
}

/**
 * The fragment (with its leading `#`) that reproduces `settings`, opened on `view`
 * (the tab: trajectory, stability, …) when given. `view` is a field added to v1 links
 * later: a link without it opens the default view, and an older odelab ignores it.
 */
export function encodeSettings(settings: RunSettings, view?: string): string {
  const data = view === undefined ? settings : { ...settings, view };
  return `#v${SHARE_VERSION}=${toBase64Url(JSON.stringify(data))}`;
}

export interface Decoded {
  settings?: RunSettings;
  /** The view (tab) the link was made on, if it names one. */
  view?: string;
  /** Why the link could not be used, for the page to show. */
  error?: string;
}

const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isId = (v: unknown): v is string => typeof v === 'string' && /^[a-z0-9][a-z0-9-]{0,63}$/.test(v);

/** Reads a fragment made by `encodeSettings`; an empty fragment gives `{}`. */
export function decodeSettings(hash: string): Decoded {
  const fragment = hash.startsWith('#') ? hash.slice(1) : hash;
  if (fragment === '') return {};
  // base64url as written by encodeSettings; plain base64 (+ / =) is accepted too.
  const match = /^v(\d+)=([A-Za-z0-9_+/=-]*)$/.exec(fragment);
  if (!match) return { error: 'This link is damaged (it is not an odelab link); the defaults are shown.' };
  const version = Number(match[1]);
  if (version > SHARE_VERSION) {
    return { error: `This link was made by a newer odelab (link version ${version}); the defaults are shown.` };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(fromBase64Url(match[2]));
  } catch {
    return { error: 'This link is damaged (its data cannot be read); the defaults are shown.' };
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { error: 'This link is damaged (no settings in it); the defaults are shown.' };
  }
  const dropped: string[] = [];
  const settings = checkSettings(raw as Record<string, unknown>, dropped);
  if (!settings) return { error: 'This link names no valid model and method; the defaults are shown.' };
  // Pins (added to v1 links later: a link without them is a link with none).
  const pins = (raw as Record<string, unknown>).pins;
  if (Array.isArray(pins)) {
    settings.pins = pins
      .slice(0, MAX_PINS)
      .map((p: unknown) => (typeof p === 'object' && p !== null ? checkPin(p as Record<string, unknown>) : undefined))
      .filter((p): p is PinSettings => p !== undefined);
  }
  const view = (raw as Record<string, unknown>).view;
  const decoded: Decoded = isId(view) ? { settings, view } : { settings };
  if (dropped.length > 0) {
    decoded.error = `This link could not carry the parameter${dropped.length > 1 ? 's' : ''} ${dropped.map((k) => `"${k}"`).join(', ')}: their defaults are used.`;
  }
  return decoded;
}

/** Most pins a link may carry. */
const MAX_PINS = 12;

function checkPin(r: Record<string, unknown>): PinSettings | undefined {
  const settings: PinSettings | undefined = checkSettings(r);
  if (!settings) return undefined;
  if (typeof r.color === 'string' && /^#[0-9a-fA-F]{6}$/.test(r.color)) settings.color = r.color;
  if (typeof r.hidden === 'boolean') settings.hidden = r.hidden;
  return settings;
}

/** The run settings in `r`, field by field, or undefined without a valid model and method. */
function checkSettings(r: Record<string, unknown>, dropped?: string[]): RunSettings | undefined {
  if (!isId(r.model) || !isId(r.method)) return undefined;
  const settings: RunSettings = { model: r.model, method: r.method };
  if (typeof r.system === 'string' && r.system.length <= MAX_SYSTEM_CHARS) settings.system = r.system;
  for (const key of ['h', 'rtol', 'atol', 'hMax', 't1'] as const) {
    if (isFiniteNumber(r[key])) settings[key] = r[key];
  }
  if (typeof r.events === 'boolean') settings.events = r.events;
  if (typeof r.fixedStep === 'boolean') settings.fixedStep = r.fixedStep;
  if (r.formulation === 'augmented' || r.formulation === 'state-space' || r.formulation === 'index-3') settings.formulation = r.formulation;
  if (r.stabilization === 'baumgarte' || r.stabilization === 'projection') settings.stabilization = r.stabilization;
  // Fields added to v1 links later (a link without them runs the defaults, as before).
  for (const key of ['baumgarteAlpha', 'baumgarteBeta', 'jacobianScale'] as const) {
    if (isFiniteNumber(r[key])) settings[key] = r[key];
  }
  if (Number.isInteger(r.jacobianUpdate) && (r.jacobianUpdate as number) >= 1) settings.jacobianUpdate = r.jacobianUpdate as number;
  if (Array.isArray(r.atolPerState) && r.atolPerState.length <= MAX_STATES && r.atolPerState.every(isFiniteNumber)) {
    settings.atolPerState = r.atolPerState;
  }
  if (Array.isArray(r.independent) && r.independent.length <= MAX_COORDINATES && r.independent.every(isCoordinate)) {
    settings.independent = r.independent;
  }
  const controller = checkController(r.controller);
  if (controller) settings.controller = controller;
  if (typeof r.methodParams === 'object' && r.methodParams !== null && !Array.isArray(r.methodParams)) {
    const p = r.methodParams as Record<string, unknown>;
    const kept = Object.fromEntries((['rhoInf', 'alpha', 'beta', 'gamma', 'maxOrder'] as const).filter((k) => isFiniteNumber(p[k])).map((k) => [k, p[k] as number]));
    if (Object.keys(kept).length > 0) settings.methodParams = kept;
  }
  const tableau = checkTableau(r.tableau);
  if (tableau) settings.tableau = tableau;
  if (typeof r.params === 'object' && r.params !== null && !Array.isArray(r.params)) {
    const all = Object.entries(r.params as Record<string, unknown>);
    const entries = all.filter(([k, v]) => isParamName(k) && isFiniteNumber(v)).slice(0, MAX_PARAMS);
    settings.params = Object.fromEntries(entries) as Record<string, number>;
    // A value the link could not carry (not a number, a name the language would not
    // accept, past the limit) is named, never dropped in silence.
    for (const [k, v] of all) {
      if (!(k in settings.params) && v !== null) dropped?.push(k.slice(0, 64));
      // JSON writes a NaN (an empty field) as null: a field left empty, not a loss.
    }
  }
  return settings;
}

/** Most per-state tolerances a link may carry. */
const MAX_STATES = 100_000;
/** Most independent coordinates a link may name. */
const MAX_COORDINATES = 64;
/** A coordinate name such as "φ1" or "x2": letters, digits, a few marks, no markup. */
const isCoordinate = (v: unknown): v is string => typeof v === 'string' && /^[\p{L}\p{N}\p{M}_']{1,32}$/u.test(v);

/** A step-size controller from a link, field by field. */
function checkController(raw: unknown): RunSettings['controller'] {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const c = raw as Record<string, unknown>;
  const controller: NonNullable<RunSettings['controller']> = {};
  if (c.kind === 'i' || c.kind === 'pi') controller.kind = c.kind;
  for (const key of ['kI', 'kP', 'safety', 'facMin', 'facMax'] as const) if (isFiniteNumber(c[key])) controller[key] = c[key];
  if (typeof c.perUnitStep === 'boolean') controller.perUnitStep = c.perUnitStep;
  return Object.keys(controller).length > 0 ? controller : undefined;
}

/**
 * A parameter name as the system language accepts it (src/expr/lexer.rs: a letter or
 * `_`, then letters, digits or `_`, letters in any script: `param ω = 2`).
 */
export function isParamName(k: string): boolean {
  return /^[\p{L}_][\p{L}\p{N}_]{0,63}$/u.test(k);
}

/** Most stages a linked tableau may have (the engine's own limit is 16). */
const MAX_STAGES = 16;

/** A Butcher tableau from a link, if it is one: entries are finite numbers or short texts. */
function checkTableau(raw: unknown): RunSettings['tableau'] {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const t = raw as Record<string, unknown>;
  const entry = (v: unknown): v is number | string =>
    isFiniteNumber(v) || (typeof v === 'string' && v.length <= 64);
  const row = (v: unknown): v is (number | string)[] => Array.isArray(v) && v.length <= MAX_STAGES && v.every(entry);
  if (!Array.isArray(t.a) || t.a.length > MAX_STAGES || !t.a.every(row) || !row(t.b)) return undefined;
  const tableau: NonNullable<RunSettings['tableau']> = { a: t.a, b: t.b };
  if (row(t.c)) tableau.c = t.c;
  if (row(t.bHat)) tableau.bHat = t.bHat;
  return tableau;
}
