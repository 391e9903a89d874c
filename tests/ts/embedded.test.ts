// Read-only embeds (www/embedded.ts): which controls they show, from the query or from
// the scenario; every scenario's declared controls name a real control of index.html.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { embedMode, tabMentions } from '../../www/embedded';
import scenarioList from '../../www/scenarios.json';

const html = readFileSync(new URL('../../index.html', import.meta.url), 'utf8');
const named = new Set([...html.matchAll(/data-control="([^"]+)"/g)].map((m) => m[1]));

describe('embed mode', () => {
  it('controls_query_overrides_the_scenario_controls', () => {
    const mode = embedMode(new URLSearchParams('embed=1&readonly=1&controls=h, alpha,,beta'), ['t1']);
    expect(mode).toEqual({ embed: true, readonly: true, controls: ['h', 'alpha', 'beta'] });
  });

  it('without_a_controls_query_the_scenario_controls_apply', () => {
    expect(embedMode(new URLSearchParams('readonly=1'), ['h']).controls).toEqual(['h']);
    expect(embedMode(new URLSearchParams('readonly=1&controls='), ['h']).controls).toEqual([]);
  });

  it('every_scenario_declares_controls_that_exist_on_the_page', () => {
    for (const s of scenarioList as { id: string; controls?: string[] }[]) {
      expect(s.controls, s.id).toBeDefined();
      for (const c of s.controls ?? []) expect(named.has(c) || c.startsWith('param:'), `${s.id}: ${c}`).toBe(true);
    }
  });

  it('captions_that_name_h_or_alpha_and_beta_get_those_controls', () => {
    const controls = (id: string): string[] => (scenarioList as { id: string; controls?: string[] }[]).find((s) => s.id === id)?.controls ?? [];
    expect(controls('rk4-region')).toContain('h');
    expect(controls('slowfast-region')).toEqual(['alpha', 'beta']);
  });
});

describe('tabMentions', () => {
  it('cuts a caption at each mention of a view tab, with the view it opens', () => {
    expect(tabMentions('Try: the Trajectory tab with t1 = 100.')).toEqual(['Try: ', { text: 'the Trajectory tab', view: 'trajectory' }, ' with t1 = 100.']);
    expect(tabMentions('The ξ-plane tab marks hλ; the Second-order (ωh) tab shows ρ.')).toEqual([
      { text: 'The ξ-plane tab', view: 'stability' },
      ' marks hλ; ',
      { text: 'the Second-order (ωh) tab', view: 'structural' },
      ' shows ρ.',
    ]);
  });

  it('leaves a caption that names no tab, or a tab no view has, as it is', () => {
    expect(tabMentions('Euler on the pendulum gains energy.')).toEqual(['Euler on the pendulum gains energy.']);
    expect(tabMentions('the step-count tab and the shape of its tab')).toEqual(['the step-count tab and the shape of its tab']);
  });

  it('finds every scenario caption that names a tab a read-only embed lacks', () => {
    const naming = (scenarioList as { id: string; caption: string }[]).filter((s) => tabMentions(s.caption).some((p) => typeof p !== 'string')).map((s) => s.id);
    expect(naming).toEqual(expect.arrayContaining(['heun-region', 'backward-euler-region', 'ros4-wrong-jacobian', 'generalized-alpha-damping']));
  });
});
