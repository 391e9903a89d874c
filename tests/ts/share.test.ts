// Share links (www/share.ts): round trip, versioning, damaged and hostile links.
import { describe, expect, it } from 'vitest';
import { decodeSettings, encodeSettings } from '../../www/share';
import type { RunSettings } from '../../www/settings';

describe('share links', () => {
  it('round-trip every field, unicode included', () => {
    const s: RunSettings = {
      model: 'custom',
      method: 'dp45',
      system: "param k = 100\nθ' = ω\nω' = -k*sin(θ)\nθ(0) = 1",
      rtol: 1e-8,
      atol: 1e-10,
      t1: 12.5,
      params: { k: 4 },
      events: true,
    };
    const hash = encodeSettings(s);
    expect(hash).toMatch(/^#v1=[A-Za-z0-9_-]+$/);
    expect(decodeSettings(hash)).toEqual({ settings: s });
  });

  it('open an empty fragment as nothing to do', () => {
    expect(decodeSettings('')).toEqual({});
    expect(decodeSettings('#')).toEqual({});
  });

  it('refuse links from a newer version and damaged links with a message', () => {
    expect(decodeSettings('#v2=e30').error).toMatch(/newer odelab \(link version 2\)/);
    expect(decodeSettings('#v1=%%%').error).toMatch(/damaged/);
    expect(decodeSettings('#v1=bm90IGpzb24').error).toMatch(/cannot be read/);
    expect(decodeSettings('#hello').error).toMatch(/not an odelab link/);
  });

  it('drop hostile or absurd values field by field', () => {
    const hostile = encodeSettings({
      model: '<script>alert(1)</script>',
      method: 'rk4',
    } as RunSettings);
    expect(decodeSettings(hostile).error).toMatch(/no valid model/);
    const absurd = '#v1=' + btoa(JSON.stringify({ model: 'pendulum', method: 'rk4', h: 'big', t1: Infinity, params: { '<b>': 1, k: 'x', g: 3 } }));
    // What a link cannot carry is named, not dropped in silence.
    expect(decodeSettings(absurd)).toEqual({
      settings: { model: 'pendulum', method: 'rk4', params: { g: 3 } },
      error: 'This link could not carry the parameters "<b>", "k": their defaults are used.',
    });
  });

  it('carry every parameter name the system language accepts (ω, _x2, Δt)', () => {
    const s: RunSettings = { model: 'custom', method: 'rk4', system: "param ω = 2\nx' = -ω*x", params: { ω: 3, _x2: 1, Δt: 0.5 } };
    expect(decodeSettings(encodeSettings(s))).toEqual({ settings: s });
  });

  it('carry pinned runs with their colour and visibility, each checked like the settings', () => {
    const s: RunSettings = {
      model: 'pendulum',
      method: 'rk4',
      h: 0.01,
      pins: [
        { model: 'pendulum', method: 'euler', h: 0.01, color: '#f59f00' },
        { model: 'pendulum', method: 'heun', h: 0.02, color: '#74c0fc', hidden: true },
      ],
    };
    expect(decodeSettings(encodeSettings(s))).toEqual({ settings: s });
    const hostile = encodeSettings({
      model: 'pendulum',
      method: 'rk4',
      pins: [{ model: '<b>x</b>', method: 'rk4' }, { model: 'pendulum', method: 'euler', color: 'red;x', h: Infinity }],
    } as RunSettings);
    expect(decodeSettings(hostile).settings?.pins).toEqual([{ model: 'pendulum', method: 'euler' }]);
  });

  it('open a v1 link made before pins existed exactly as before', () => {
    // Encoded by the page before pinned runs were added to links.
    const old = '#v1=eyJtb2RlbCI6InBlbmR1bHVtIiwibWV0aG9kIjoiZXVsZXIiLCJoIjowLjAxLCJ0MSI6MTAsInBhcmFtcyI6eyJnIjo5LjgxLCJMIjoxfX0';
    expect(decodeSettings(old)).toEqual({
      settings: { model: 'pendulum', method: 'euler', h: 0.01, t1: 10, params: { g: 9.81, L: 1 } },
    });
  });

  it('carry the open view as a field of v1, ignored when it is not an id', () => {
    const s: RunSettings = { model: 'pendulum', method: 'rk4', h: 0.05 };
    const hash = encodeSettings(s, 'stability');
    expect(hash.startsWith('#v1=')).toBe(true);
    expect(decodeSettings(hash)).toEqual({ settings: s, view: 'stability' });
    // The view is beside the settings, not in them (pins and sessions do not carry it).
    expect(decodeSettings(hash).settings).not.toHaveProperty('view');
    const hostile = encodeSettings({ ...s, view: '<img src=x>' } as RunSettings);
    expect(decodeSettings(hostile)).toEqual({ settings: s });
  });
});
