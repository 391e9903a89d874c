/**
 * The page's entry point: starts the engine worker, reads the catalogues, then starts
 * the views from the URL: a share link's fragment (`#v1=…`), a scenario
 * (`?scenario=id`), or `?model=…&method=…`. If the engine cannot load, the page says so.
 * Framed by `<ode-playground>` (`?embed=1`), www/embedded.ts shapes the page; keyboard
 * and screen-reader behaviour shared by the views is attached from www/a11y.ts.
 * `?assignment=<URL>` adds the homework panel (www/homework.ts), `&grade=1` turns the
 * page into the lecturer's grading page (www/grading.ts).
 */
// Already evaluated by www/start.ts, which started the worker before importing this.
import { catalogRequest, engine } from './boot';
import type { EngineClient } from './client';
import { describeSliders, markFieldErrors, selectTab, tabs } from './a11y';
import { byId } from './dom';
import { showFatal } from './fatal';
import { applyEmbedMode, embedMode, linkTabMentions } from './embedded';
import { attachPanels } from './panels';
import type { Catalog } from './protocol';
import scenarioList from './scenarios.json';
import { closestId, leftScenario, toSpec, type RunSettings } from './settings';
import { HomeworkPanel, loadAssignment, type Playground } from './homework';
import { GradingPage } from './grading';
import { download, sessionFromJson, sessionToJson } from './export';
import { decodeSettings, encodeSettings } from './share';
import { ConvergenceView } from './convergence';
import { formatNumber } from './format';
import { StabilityView } from './stability';
import { StructuralView } from './structural';
import { PRESETS, TableauView } from './tableau';
import { TrajectoryView } from './trajectory';

/** A figure or table of the sources as a one-click run (www/scenarios.json). */
export interface Scenario {
  id: string;
  title: string;
  source: string;
  caption: string;
  /** The view it opens in (default: trajectory). */
  view?: string;
  /** The controls its caption asks the reader to use (all a read-only embed shows). */
  controls?: string[];
  settings: RunSettings;
}

const scenarios = scenarioList as Scenario[];



/**
 * The line that replaces a scenario's caption once the run has left its settings (the
 * caption speaks of the run it opened with), with a way back. Made here rather than in
 * index.html: it exists only beside a caption.
 */
function captionLeftNote(): { note: HTMLElement; reason: HTMLElement; back: HTMLButtonElement } {
  const existing = document.getElementById('caption-left');
  if (existing) {
    return { note: existing, reason: byId('caption-left-reason'), back: byId<HTMLButtonElement>('caption-back') };
  }
  const note = document.createElement('p');
  note.id = 'caption-left';
  note.hidden = true;
  const reason = document.createElement('span');
  reason.id = 'caption-left-reason';
  const back = document.createElement('button');
  back.id = 'caption-back';
  back.type = 'button';
  back.className = 'link-button';
  back.textContent = 'Back to the scenario';
  note.append(reason, ' ', back);
  byId('caption-source').before(note);
  return { note, reason, back };
}

function showCaption(scenario: Scenario | undefined): void {
  const caption = byId('caption');
  caption.hidden = !scenario;
  caption.removeAttribute('role');
  delete caption.dataset.state;
  byId('caption-title').textContent = scenario?.title ?? '';
  byId('caption-text').textContent = scenario?.caption ?? '';
  byId('caption-text').hidden = false;
  byId('caption-source').textContent = scenario ? `Source: ${scenario.source}` : '';
  captionLeftNote().note.hidden = true;
  byId<HTMLSelectElement>('scenario').value = scenario?.id ?? '';
  // The introduction greets the bare landing page; a chosen example replaces it.
  if (scenario) hideIntro();
}

/** Hides the landing page's introduction (a read-only embed has none: see `leanEmbed`). */
function hideIntro(): void {
  const intro = document.getElementById('intro');
  if (intro) intro.hidden = true;
}

/** The run has left the scenario's settings (`changed` names what): the caption gives way. */
function showLeftScenario(changed: string): void {
  const { note, reason } = captionLeftNote();
  byId('caption').dataset.state = 'left';
  byId('caption-text').hidden = true;
  reason.textContent = `You have left this scenario's settings (you changed ${changed}); its caption described the run it opened with.`;
  note.hidden = false;
}

/** `?scenario=` names no scenario: say so where the caption would be (the page still runs). */
function showUnknownScenario(id: string): void {
  showCaption(undefined);
  const caption = byId('caption');
  caption.hidden = false;
  caption.dataset.state = 'unknown';
  caption.setAttribute('role', 'alert');
  byId('caption-title').textContent = 'Unknown scenario';
  const near = closestId(id, scenarios.map((s) => s.id));
  byId('caption-text').textContent =
    `There is no scenario "${id}"${near ? `; did you mean "${near}"?` : '.'} ` +
    'The default run is shown instead; the Scenario menu lists them all.';
}

async function main(): Promise<void> {
  attachPanels();
  const query = new URLSearchParams(location.search);
  const link = decodeSettings(location.hash);
  const asked = query.get('scenario') ?? '';
  const scenario = scenarios.find((s) => s.id === asked);
  // Read while the worker is still starting: a page's first localStorage access opens
  // the storage (~9 ms in a fresh Chromium profile), which after the catalogue would
  // delay the first solve by as much.
  // The settings as last typed on this page: restored when the page is reopened on the
  // link it was showing (every run rewrites the fragment, so a reload always has one),
  // and when it opens with nothing asked.
  const draft = restoreDraft();
  const sameLink = link.settings !== undefined && draft?.link === location.hash;
  const nothingAsked = !link.settings && !query.has('model') && asked === '';
  const saved = sameLink || nothingAsked ? draft?.settings : undefined;
  const unfinished = unfinishedRun();
  if (query.has('model') || link.settings || asked !== '') hideIntro();
  let catalog: Catalog;
  try {
    catalog = await catalogRequest;
  } catch (e) {
    showFatal(`The numerical engine could not be loaded: ${e instanceof Error ? e.message : String(e)}`);
    return;
  }
  // The API on the page's console, for students and lecturers (runs in the worker):
  //   await odelab.solve({ model: 'pendulum', method: 'rk4', t1: 10, h: 0.01 })
  Object.assign(window, {
    odelab: {
      solve: engine.solve.bind(engine),
      describeSystem: engine.describe.bind(engine),
      open: engine.open.bind(engine),
      cancel: engine.cancel.bind(engine),
      methods: () => catalog.methods,
      models: () => catalog.models,
    },
  });

  const view = new TrajectoryView(engine, catalog);
  const scenarioSelect = byId<HTMLSelectElement>('scenario');
  for (const s of scenarios) scenarioSelect.add(new Option(`${s.title} (${s.source})`, s.id));

  // The view a link, the query or the scenario opens in.
  const views = ['trajectory', 'stability', 'structural', 'convergence', 'tableau'];
  const wanted = query.get('view') ?? (link.settings ? link.view : scenario?.view) ?? 'trajectory';
  const firstView = views.includes(wanted) ? wanted : 'trajectory';
  // Inside <ode-playground> (www/embed.ts): no header; read-only shows the caption, the
  // plots and the controls the scenario asks for.
  const mode = embedMode(query, scenario?.controls);
  applyEmbedMode(mode);
  // A read-only embed never opens another view: it builds only the one it shows (and
  // the trajectory view, which runs), and drops the rest of the page's markup.
  const lean = mode.embed && mode.readonly && !query.has('assignment');
  const builds = (name: string): boolean => !lean || name === firstView;
  if (lean) leanEmbed(firstView, link.settings?.tableau !== undefined || scenario?.settings.tableau !== undefined);
  markFieldErrors();
  const describe = describeSliders(document.body);
  let initial: Partial<RunSettings> = {
    model: query.get('model') ?? 'pendulum',
    method: query.get('method') ?? 'euler',
  };
  if (saved) initial = saved;
  else if (link.settings) initial = link.settings;
  else if (scenario) initial = scenario.settings;
  // An unknown model id is said, not replaced in silence by the first model.
  const knownModel = (id: string | undefined): boolean => id === undefined || id === 'custom' || catalog.models.some((m) => m.id === id);
  let refused: string | undefined;
  // An unknown view (a hand-typed ?view=) is said too, with the views there are.
  if (!views.includes(wanted)) {
    const tabs = views.map((v) => `"${v}" (${document.getElementById(`tab-${v}`)?.textContent ?? v})`).join(', ');
    refused = `There is no view "${wanted}": the trajectory is shown instead. The views are ${tabs}.`;
  }
  if (!knownModel(initial.model)) {
    const near = closestId(initial.model ?? '', catalog.models.map((m) => m.id));
    refused = [refused, `There is no model "${initial.model}"${near ? ` (did you mean "${near}"?)` : ''}: the pendulum is shown instead.`].filter(Boolean).join(' ');
    initial = { ...initial, model: 'pendulum' };
    delete initial.params;
  }
  // The last run started on this page with these settings never finished (the tab
  // crashed or was closed during it) or failed: ask before running it again.
  const startKey = runKey(withoutPins(initial as RunSettings));
  if (unfinished === startKey) {
    view.holdNextRun(
      'These settings did not finish running last time (the page crashed, failed or was closed during the run), so they were not run again. Press Run them to try once more, or change a setting.',
    );
  }
  markRunStarted(startKey);
  showCaption(link.settings ? undefined : scenario);
  if (lean && scenario && !link.settings) linkTabMentions(byId('caption-text'), scenario.id);
  if (asked !== '' && !scenario) showUnknownScenario(asked);
  // The scenario whose caption is shown, and the settings of its first run: a run that
  // leaves them (a setting its `controls` do not list) retires the caption.
  let active: { scenario: Scenario; baseline?: RunSettings } | undefined = link.settings || !scenario ? undefined : { scenario };

  // Every successful run is written into the fragment, so reload and "copy link"
  // reproduce the screen.
  const stability = builds('stability') ? new StabilityView(engine, catalog.methods, catalog.stabilityMethods) : undefined;
  stability?.follow(view.store);

  const convergence = !builds('convergence')
    ? undefined
    : new ConvergenceView(engine, catalog.methods, () => {
    const settings = view.settings();
    if (settings.model === 'custom') return undefined;
    return {
      model: settings.model,
      params: settings.params ?? {},
      t1: settings.t1,
      ...(settings.jacobianUpdate !== undefined ? { jacobianUpdate: settings.jacobianUpdate } : {}),
      ...(settings.jacobianScale !== undefined ? { jacobianScale: settings.jacobianScale } : {}),
    };
  });
  let convergenceShown = false;
  const structural = builds('structural') ? new StructuralView(engine) : undefined;
  let structuralShown = false;
  // A link or session that runs your own method needs the tableau view for its analysis.
  const tableauView = builds('tableau') || document.getElementById('view-tableau') ? new TableauView(engine) : undefined;
  let tableauShown = false;

  // The open view rides in the link's fragment (`view`), so Copy link reopens it.
  let openView = 'trajectory';
  let ran: RunSettings | undefined;
  const writeUrl = (): void => {
    if (!ran) return;
    // The fragment now says which view is open; a `view` left in the query would
    // outvote it when the link is opened again.
    const search = new URLSearchParams(location.search);
    search.delete('view');
    const rest = search.toString();
    history.replaceState(null, '', `${location.pathname}${rest ? `?${rest}` : ''}${encodeSettings(ran, openView)}`);
  };
  const showView = async (name: string): Promise<void> => {
    selectTab(byId('tabs'), name);
    openView = name;
    writeUrl();
    await stability?.sync();
    // The study costs a few hundred ms: run it the first time the tab opens, then on demand.
    if (name === 'convergence' && !convergenceShown && convergence) {
      convergenceShown = true;
      await convergence.run();
    }
    if (name === 'structural' && !structuralShown && structural) {
      structuralShown = true;
      await structural.sync();
    }
    if (name === 'tableau' && !tableauShown && tableauView) {
      tableauShown = true;
      if (!tableauView.current()) await tableauView.load(view.settings().tableau ?? PRESETS.rk4.tableau);
    }
  };
  tabs(byId('tabs'), (name) => void showView(name || 'trajectory'));

  const adaptiveRun = (settings: RunSettings): boolean =>
    (catalog.methods.find((m) => m.id === settings.method)?.adaptive ?? false) && !settings.fixedStep;
  view.onRun = (settings) => {
    ran = settings;
    writeUrl();
    markRunStarted(undefined);
    autosaveSoon(settings);
    if (active?.baseline) {
      const changed = leftScenario(active.baseline, settings, active.scenario.controls);
      if (changed) {
        showLeftScenario(changed);
        active = undefined;
      }
    }
    describe();
    // What was run, for the printed page (the controls are not printed).
    const method = catalog.methods.find((m) => m.id === settings.method)?.name ?? settings.method;
    const step = settings.h !== undefined && !adaptiveRun(settings) ? `h = ${formatNumber(settings.h)}` : `rtol = ${formatNumber(settings.rtol ?? NaN)}`;
    byId('print-settings').textContent = `${view.modelInfo().name}, ${method}, ${step}, t1 = ${formatNumber(settings.t1 ?? NaN)}.`;
  };
  // A read-only embed shows one view and no tabs: its other views stay hidden for good,
  // so the first run is not drawn into the trajectory's figures first (their canvases
  // keep the size of a hidden figure, and the phase plane and mechanism paint nothing).
  if (document.body.classList.contains('readonly')) selectTab(byId('tabs'), firstView);
  await view.start(initial);
  view.holdNextRun(undefined);
  if (refused) view.notice(refused);
  // Every field is saved as it is typed, valid or not. The hook is the `input` and
  // `change` events bubbling out of #controls (an editor that replaces the textarea
  // fires them from its content, or calls `window.odelabSaveDraft()`), and `view.settings()`
  // must read the editor's text.
  const saveDraft = (): void => autosaveSoon(view.settings());
  // Every later run is remembered from its start until it finishes (a reload then
  // asks first); the first one was marked above, with the settings it opened with.
  view.onStart = (settings) => markRunStarted(runKey(settings));
  byId('controls').addEventListener('input', saveDraft);
  byId('controls').addEventListener('change', saveDraft);
  Object.assign(window, { odelabSaveDraft: saveDraft });
  if (tableauView) {
    tableauView.onUse = (tableau, analysis) => {
      void view.useTableau(tableau, analysis).then(() => showView('trajectory'));
    };
  }
  // A link or session that runs your own method brings its tableau along.
  if (initial.tableau && tableauView) {
    await tableauView.load(initial.tableau);
    const custom = tableauView.current();
    if (initial.method === 'custom' && custom) await view.useTableau(custom.tableau, custom.analysis);
  }
  await showView(firstView);
  if (active) active.baseline = withoutPins(view.settings());
  if (link.error && !saved) view.notice(link.error);

  // Homework reads the playground only through this accessor (the current settings).
  const playground: Playground = {
    system: () => {
      const settings = view.settings();
      return settings.model === 'custom' ? settings.system : undefined;
    },
    tableau: () => tableauView?.current()?.tableau ?? view.settings().tableau,
    run: () => {
      const settings = view.settings();
      return toSpec(settings, view.modelInfo(), catalog.methods.find((m) => m.id === settings.method));
    },
  };
  const assignment = query.get('assignment');
  if (assignment) await openAssignment(engine, assignment, query.get('grade') === '1', playground);

  const openScenario = async (chosen: Scenario): Promise<void> => {
    history.replaceState(null, '', `${location.pathname}?scenario=${chosen.id}`);
    showCaption(chosen);
    // No baseline while it starts: its first runs are the scenario's own.
    active = { scenario: chosen };
    const opening = active;
    convergenceShown = false; // a convergence scenario studies its own model
    await view.start(chosen.settings);
    await showView(chosen.view ?? 'trajectory');
    if (active === opening) opening.baseline = withoutPins(view.settings());
  };
  scenarioSelect.addEventListener('change', () => {
    const chosen = scenarios.find((s) => s.id === scenarioSelect.value);
    if (chosen) void openScenario(chosen);
  });
  captionLeftNote().back.addEventListener('click', () => {
    const chosen = scenarios.find((s) => s.id === scenarioSelect.value);
    if (chosen) void openScenario(chosen);
  });
  byId('copy-link').addEventListener('click', () => {
    const field = byId<HTMLInputElement>('share-url');
    field.value = location.href;
    field.hidden = false;
    field.select();
    void navigator.clipboard?.writeText(location.href).catch(() => undefined);
  });
  byId('export-session').addEventListener('click', () => {
    download('odelab-session.json', new Blob([sessionToJson(view.settings())], { type: 'application/json' }));
  });
  const importer = byId<HTMLInputElement>('import-session');
  importer.addEventListener('change', () => {
    const file = importer.files?.[0];
    importer.value = '';
    if (!file) return;
    void file.text().then(async (text) => {
      const opened = sessionFromJson(text);
      if (opened.settings) {
        showCaption(undefined);
        active = undefined;
        await view.start(opened.settings);
      } else view.notice(opened.error ?? 'This file could not be opened.');
    });
  });
  document.body.dataset.ready = 'true';
}

/**
 * A read-only embed's page holds only what it shows: the Help and Sources panels, the
 * introduction and every view but `shown` and the trajectory view (which runs; the
 * others follow its run) are removed before the views start, so that ten embeds on a
 * lecture page do not each keep ~500 nodes of hidden markup; behind another view the
 * trajectory view's time plots are neither built nor drawn (`data-dormant`). The tableau view stays
 * when the run uses your own method (`keepTableau`): its analysis comes from there.
 */
function leanEmbed(shown: string, keepTableau: boolean): void {
  const kept = new Set(['trajectory', shown, ...(keepTableau ? ['tableau'] : [])]);
  for (const id of ['help', 'sources', 'intro']) document.getElementById(id)?.remove();
  for (const panel of document.querySelectorAll<HTMLElement>('#plots > .view')) {
    if (!kept.has(panel.id.replace(/^view-/, ''))) panel.remove();
  }
  // The trajectory view runs for the others but is never shown in them: its time plots sleep.
  if (shown !== 'trajectory') document.getElementById('view-trajectory')?.setAttribute('data-dormant', '');
  document.body.dataset.lean = 'true';
}

/** The run settings without the pins (pinning never leaves a scenario). */
function withoutPins(settings: RunSettings): RunSettings {
  const rest = { ...settings };
  delete rest.pins;
  return rest;
}

/** Loads `?assignment=` and shows the student's panel or the grading page beside the playground. */
async function openAssignment(engine: EngineClient, url: string, grading: boolean, playground: Playground): Promise<void> {
  const main = document.querySelector('main');
  if (!main) return;
  document.body.classList.add(grading ? 'grading' : 'homework');
  try {
    const loaded = await loadAssignment(engine, url);
    main.append(grading ? new GradingPage(engine, loaded).element : new HomeworkPanel(engine, loaded, playground).element);
    document.body.dataset.homework = 'ready';
  } catch (e) {
    const panel = document.createElement('aside');
    panel.id = grading ? 'grading' : 'homework';
    const message = document.createElement('p');
    message.className = 'error';
    message.setAttribute('role', 'alert');
    message.textContent = e instanceof Error ? e.message : String(e);
    panel.append(message);
    main.append(panel);
    document.body.dataset.homework = 'error';
  }
}

/**
 * An embed (`?embed=1`) neither restores nor saves a draft, nor marks its runs: the
 * embeds of a lecture share odelab's storage with the playground, so each would
 * overwrite the playground's draft (and, ten at once, each other's), and each frame's
 * first access opens the storage on the lecture page's one busy main thread.
 */
const KEEPS_DRAFTS = new URLSearchParams(location.search).get('embed') !== '1';

const AUTOSAVE_KEY = 'odelab.session';

/** The fragment the page showed when the settings were saved. */
const AUTOSAVE_LINK_KEY = 'odelab.session.link';
/** The settings whose run the page started and has not seen finish. */
const RUNNING_KEY = 'odelab.running';

/** Keeps the latest settings in localStorage, so a closed tab loses nothing. */
function autosave(settings: RunSettings): void {
  if (!KEEPS_DRAFTS) return;
  try {
    localStorage.setItem(AUTOSAVE_KEY, sessionToJson(settings));
    localStorage.setItem(AUTOSAVE_LINK_KEY, location.hash);
  } catch {
    // Storage can be full or forbidden (private mode, sandboxed iframe): not worth an error.
  }
}

let pendingSave: RunSettings | undefined;

/** Writes the settings [`autosaveSoon`] is holding, if any. */
function flushAutosave(): void {
  if (pendingSave) autosave(pendingSave);
  pendingSave = undefined;
}

/**
 * [`autosave`] after the next frame is painted: a page's first localStorage write takes
 * ~9 ms in a fresh Chromium profile, which would hold back the frame that shows the run.
 * Runs in quick succession (a slider drag) write once, the latest. A hidden page paints
 * no frames, so it writes at once, and a page being left writes what it holds.
 */
function autosaveSoon(settings: RunSettings): void {
  const scheduled = pendingSave !== undefined;
  pendingSave = settings;
  if (document.hidden) flushAutosave();
  else if (!scheduled) requestAnimationFrame(() => setTimeout(flushAutosave, 0));
}
addEventListener('pagehide', flushAutosave);
addEventListener('visibilitychange', () => {
  if (document.hidden) flushAutosave();
});

function restoreDraft(): { settings: RunSettings; link: string } | undefined {
  if (!KEEPS_DRAFTS) return undefined;
  try {
    const text = localStorage.getItem(AUTOSAVE_KEY);
    const settings = text ? sessionFromJson(text).settings : undefined;
    return settings ? { settings, link: localStorage.getItem(AUTOSAVE_LINK_KEY) ?? '' } : undefined;
  } catch {
    return undefined;
  }
}

/** The settings as a session file keeps them: the same text for the same run. */
function runKey(settings: RunSettings): string {
  return sessionToJson(sessionFromJson(sessionToJson(settings)).settings ?? settings);
}

/** Notes (or, with undefined, clears) that the page starts running `key`'s settings. */
function markRunStarted(key: string | undefined): void {
  if (!KEEPS_DRAFTS) return;
  try {
    if (key === undefined) localStorage.removeItem(RUNNING_KEY);
    else localStorage.setItem(RUNNING_KEY, key);
  } catch {
    // Storage forbidden: nothing to remember, nothing to ask.
  }
}

function unfinishedRun(): string | undefined {
  if (!KEEPS_DRAFTS) return undefined;
  try {
    return localStorage.getItem(RUNNING_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

void main();
