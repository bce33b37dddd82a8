import { LitElement, html, nothing, type PropertyValues } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import type { PublicProject } from '#core/wire/public-project.js';
import { eventsUrl, type Failure, type ReadResult, type ShareTarget } from './features/api.js';
import { formTemplate, readFormFields } from './features/form.js';
import { loadShare, shareTarget } from './features/loading.js';
import { styles } from './features/styles.js';
import { refusedHostMessage, warnRefusedHost } from './features/refused-host.js';
import { downloadModel, placeModels } from './features/models.js';
import { pngWithinLimits } from './features/screenshot.js';
import { rememberPassword, rememberedPassword } from './features/password.js';
import type { PasswordPrompt } from './features/password-prompt.js';
import { DEFAULT_STRINGS, format, type ConfigShareStrings, type LoaderStrings } from './features/strings.js';
import type { CameraView, PlacedModel, Viewer } from './features/viewer.js';
import type { ViewerStrings } from './features/viewer-strings.js';
import type { ArView } from './features/ar.js';
import type { EventSink } from './features/visitor-events.js';
import type { ConfigurationSnapshot, Configurator } from './configurator/index.js';
import type { SubmitExtra } from './features/submit.js';
import type { CartAdded } from './features/cart-request.js';

export type { SubmitExtra, CartAdded };

/** Whether some element of the page already asked for the 3D chunk. */
let viewerPrefetched = false;

/** The element's `state` attribute (element/README.md, API). */
export type ConfigShareState = 'loading' | 'password' | 'ready' | 'unavailable' | 'not-found' | 'error';

/** The `detail` of each event the element dispatches (bubbling, composed). */
export interface ConfigShareEventDetails {
  'config-share-load': { project: PublicProject };
  'config-share-error': { type: string; message: string };
  'config-share-password-required': Record<string, never>;
  'config-share-model-missing': { modelIds: string[] };
  'config-share-submit': { requestId: string };
  'config-share-option-change': {
    blockId: string;
    choiceId: string | null;
    previousChoiceId: string | null;
    source: 'visitor' | 'api' | 'rule';
    options: Record<string, string>;
    price: ConfigurationSnapshot['price'];
  };
  'config-share-price': { price: NonNullable<ConfigurationSnapshot['price']> };
  'config-share-save': { configuration: string; url: string };
  'config-share-animation': { animationId: string; trigger: 'button' | 'choice' | 'api' };
  /** Dispatched by the configurator chunk's cart (cancelable: prevented, the element posts nothing). */
  'config-share-add-to-cart': CartAdded;
  /** Dispatched by the viewer chunk (features/viewer.ts, RENDERED_EVENT). */
  'config-share-rendered': null;
}

/** The page's visitor-event queue, fetched with the first event (a chunk of its own). */
let queue: Promise<typeof import('./features/visitor-events.js') | null> | undefined;
const visitorEvents = () => (queue ??= import('./features/visitor-events.js').catch(() => null));

/** A payload the configurator chunk has work for (element/README.md, Decisions). */
function wantsConfigurator({ sceneData, saveConfigEnabled }: PublicProject['data']): boolean {
  const lists = [
    sceneData?.optionBlocks,
    sceneData?.pricingBlocks,
    sceneData?.pricingFormula,
    sceneData?.animationBlocks,
  ];
  const settings = sceneData?.projectSettings ?? {};
  return (
    saveConfigEnabled === true ||
    (settings.cart as { enabled?: unknown } | undefined)?.enabled === true ||
    lists.some((list) => Array.isArray(list) && list.length > 0) ||
    ['branding', 'display', 'brandColor'].some((key) => key in settings)
  );
}

/** The BFF the script was served from: where the element reads shares unless `api-base` says otherwise. */
const SCRIPT_ORIGIN = new URL(import.meta.url).origin;

/**
 * `<config-share project-id token>` (or `share-url`): a shared 3D configurator on a merchant page; its events, parts
 * and custom properties (tagged here for editors and custom-elements analyzers) are in element/README.md.
 * Failures become states and events, never thrown at the page.
 *
 * @fires config-share-load - `{ project }` when a payload is shown (not again for an unchanged one).
 * @fires config-share-error - `{ type, message }`: unavailable, not-found, domain_not_allowed, network, http,
 *   rate-limited, config, webgl, invalid, submit, ar, configuration (a saved configuration or entries of
 *   it set aside), events (visitor events refused for good), cart (adding to the cart failed).
 * @fires config-share-password-required - the password prompt is shown.
 * @fires config-share-model-missing - `{ modelIds }` of models left out of the scene.
 * @fires config-share-submit - `{ requestId }` once the server stored the request.
 * @fires config-share-option-change - `{ blockId, choiceId, previousChoiceId, source, options, price }`:
 *   a selection changed (`source` visitor, api or rule); not for defaults or a restore.
 * @fires config-share-price - `{ price }` when first computed and whenever it changes.
 * @fires config-share-save - `{ configuration, url }`, cancelable: prevented, nothing is copied or shown.
 * @fires config-share-animation - `{ animationId, trigger }` (button, choice or api).
 * @fires config-share-add-to-cart - `{ configuration, token, quantity, editUrl }`, cancelable: prevented, the
 *   element neither posts to the cart's `action` nor shows "Added".
 * @fires config-share-rendered - a load, a preview's edit, a configuration or a clip at rest was drawn.
 * @csspart viewer - the 3D view. @csspart status - the state message (a live region).
 * @csspart password-form - the password prompt. @csspart form - the visitor's form.
 * @csspart submit-button - the form's submit button.
 * @csspart ar - the "View in AR" button where AR can start ("Preparing AR…", disabled, until the export is ready).
 * @csspart options - the options panel, between the viewer and the form. @csspart option-block - a block's fieldset.
 * @csspart choice - a choice's label. @csspart price - the total and tax note (a live region).
 * @csspart price-lines - the price breakdown (a details element). @csspart animation-button - an animation's button.
 * @csspart save-button - saves the configuration. @csspart save-link - the saved link (read-only).
 * @csspart logo - the project's logo.
 * @csspart cart-button - puts the configuration in the merchant's cart. @csspart quantity - its stepper (1 to 99).
 * @csspart reset-view - "Reset view" over the scene, while the visitor's own turn or zoom stands.
 * @cssproperty --config-share-accent - buttons, checked choices, focus rings (default: the owner's brand colour,
 *   else #1f3a5f).
 * @cssproperty --config-share-accent-contrast - text on the accent (default #fff).
 * @cssproperty --config-share-radius - corners of inputs, choices and buttons (default 0.5rem).
 * @cssproperty --config-share-gap - spacing in the panel (default 1rem).
 * @cssproperty --config-share-border-color - input and choice borders (default: the text colour at 22%).
 * @cssproperty --config-share-input-background - inputs' background (default transparent).
 * @cssproperty --config-share-error-color - field errors (default #c62828).
 * @cssproperty --config-share-viewer-aspect - the viewer's width / height (default 4 / 3).
 * @cssproperty --config-share-viewer-height - a fixed viewer height instead of the aspect (default auto).
 * @cssproperty --config-share-viewer-max-height - the viewer's cap (default 60svh narrow, 100svh wide).
 * @cssproperty --config-share-viewer-background, --config-share-viewer-radius - the viewer box (#fff, 0).
 * @cssproperty --config-share-panel-width - the panel beside the viewer (default 22rem, at most 45%).
 * @cssproperty --config-share-panel-padding - the panel's padding (default 1rem).
 * @cssproperty --config-share-min-height - the least height side by side (default 28rem, capped by the window).
 */
@customElement('config-share')
export class ConfigShareElement extends LitElement {
  static override styles = styles;

  /** The shared project's id (with `token`). */
  @property({ attribute: 'project-id' }) projectId = '';
  /** The share token. */
  @property() token = '';
  /** `https://app/share/<projectId>/<token>`, instead of `project-id` and `token`. */
  @property({ attribute: 'share-url' }) shareUrl = '';
  /** The BFF origin; default: the origin this script was loaded from. */
  @property({ attribute: 'api-base' }) apiBase = '';
  /** Replacements for any of the element's texts (English by default), the 3D view's included. */
  @property({ attribute: false }) strings: Partial<ConfigShareStrings & ViewerStrings> = {};
  /** Selections to start from (element/README.md, API): a saved configuration or `{"options":{"seat":"walnut"}}`. */
  @property() configuration = '';
  /** `off`: no visitor event is queued or sent (element/README.md, API). */
  @property() events: 'on' | 'off' = 'on';
  /** Formatting locale of prices (BCP 47); default: the project's, the page's, the browser's. */
  @property() locale = '';
  /**
   * A payload to show instead of reading the share (the owner's unsaved edits): no request to the share, no visitor
   * event, the submit disabled. Each new object applies like a new revision; null goes back to reading the share.
   * Takes the preview route's `payload` (the public read's whole answer, `{ success, project }`) or its `project`.
   */
  @property({ attribute: false }) preview?: PublicProject | { project: PublicProject } | null;

  @state() private status: ConfigShareState = 'loading';
  @state() private project?: PublicProject;
  /** The password the last answer refused, if it did. */
  @state() private refused?: string;
  /** The password prompt (a chunk of its own), once it is there. */
  @state() private prompt?: PasswordPrompt;
  @state() private busy = false;
  @state() private progress = 1;
  @state() private notice = '';
  /** This device can show the scene in AR: the "View in AR" button is there. */
  @state() private arAvailable = false;
  /** The configured scene's AR export is in model-viewer: the button is enabled. */
  @state() private arReady = false;
  @state() private fieldErrors: Record<string, string> = {};
  @state() private submitMessage = '';
  /** The submit under way: a second click or call joins it instead of sending again. */
  @state() private submitting?: Promise<string | null>;
  /** The configurator of the payload shown (a lazy chunk), once it is there. */
  @state() private cfg?: Configurator;
  private cfgLoad?: Promise<Configurator | null>;
  /** Calls that wait for the first payload's configurator. */
  private cfgWaiting: ((cfg: Configurator | null) => void)[] = [];
  private sink?: EventSink;

  private target: ShareTarget | null = null;
  /** Bumped by every load, so an answer that arrives after a newer load is ignored. */
  private generation = 0;
  private viewer?: Promise<Viewer | null>;
  /** A preview's scene still on screen while the next one is built (disposed once that one is drawn). */
  private previous?: Promise<Viewer | null>;
  /** The scene whose models are drawn: the one `getCameraView()` reads. */
  private shown?: Viewer;
  /** A preview's model files by URL without its query (signatures change, files do not): an edit loads none again. */
  private files = new Map<string, Promise<ArrayBuffer>>();
  /** The scene's AR side (model-viewer); `arView` once it is there. */
  private ar?: Promise<ArView | null>;
  private arView?: ArView;
  /** Bumped when the scene is dropped: work of a dropped scene that is still under way stops there. */
  private scene = 0;
  private nearViewport?: IntersectionObserver;
  /** The element came within 200 px of the viewport since it was attached. */
  private near = false;
  private focusPassword = false;

  /** The current state, as in the `state` attribute. */
  get state(): ConfigShareState {
    return this.status;
  }

  /** A `preview` payload is shown: nothing is sent (no request, no visitor event, no cart). */
  get previewing(): boolean {
    return !!this.preview;
  }

  private get text(): LoaderStrings {
    return { ...DEFAULT_STRINGS, ...this.strings };
  }

  private get fields() {
    return readFormFields(this.project?.data.sceneData?.formFields);
  }

  /** The configurator of the payload shown, waiting for the first payload if none is there yet. */
  private configurator(): Promise<Configurator | null> {
    if (this.cfgLoad || this.project || this.status !== 'loading') return this.cfgLoad ?? Promise.resolve(null);
    return new Promise((resolve) => this.cfgWaiting.push(resolve));
  }

  /** Queues a visitor event for this share unless the page switched events off. */
  private track(type: string, data?: Record<string, unknown>) {
    const { target } = this;
    if (this.events === 'off' || !target || this.preview) return;
    this.sink ??= {
      url: eventsUrl(target),
      get password() {
        return rememberedPassword(target);
      },
      refused: (status) =>
        this.emit('config-share-error', {
          type: 'events',
          message: `Visitor events refused (HTTP ${status}) until a reload.`,
        }),
    };
    const { sink } = this;
    // The queue is its own small chunk: the loader's budget (15 KB gzip) holds only this hook.
    void visitorEvents().then((queue) => this.events !== 'off' && queue?.queueVisitorEvent(sink, type, data));
  }

  override connectedCallback() {
    super.connectedCallback();
    if (!this.hasAttribute('state')) this.setAttribute('state', this.status);
    // Back on the page: the scene is built again once the element is near the viewport.
    this.watchViewport();
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    this.nearViewport?.disconnect();
    this.nearViewport = undefined;
    this.near = false;
    // Browsers allow only a few WebGL contexts per page: a detached element gives its context back.
    this.dropViewer();
  }

  /** Reads the share again (If-None-Match: an unchanged share keeps the scene as it is). */
  reload(): Promise<void> {
    return this.load(this.target ? rememberedPassword(this.target) : undefined);
  }

  /**
   * Sends the form with a screenshot; resolves with the requestId, or null when it did not go through (the reason is
   * shown and sent as `config-share-error`, so the page need not catch). Calls while one is running share it.
   */
  submit(extra: SubmitExtra = {}): Promise<string | null> {
    this.submitting ??= this.send(extra).finally(() => (this.submitting = undefined));
    return this.submitting;
  }

  /** A PNG data URL of the scene (loading it first if needed); null where it cannot be drawn. */
  async screenshot(): Promise<string | null> {
    const viewer = await this.ensureViewer();
    if (!viewer) return null;
    const canvas = viewer.capture();
    const png = pngWithinLimits(canvas);
    if (png) this.track('viewer.screenshot', { width: canvas.width, height: canvas.height });
    return png;
  }

  /**
   * Selects a choice as a visitor would, once the configurator is there. False for an unknown,
   * hidden or disabled choice or an inactive block. Never rejects.
   */
  async setOption(blockId: string, choiceId: string): Promise<boolean> {
    return !!(await this.configurator())?.setOption(String(blockId), String(choiceId), 'api');
  }

  /** `{ configuration, options, fields, price }` of what is selected now; null until the configurator is ready. */
  getConfiguration(): ConfigurationSnapshot | null {
    return this.cfg?.snapshot() ?? null;
  }

  /** Where the camera of the drawn scene is and what it orbits, in `data.camera`'s units; null without a scene. */
  getCameraView(): CameraView | null {
    return this.shown?.cameraView() ?? null;
  }

  /** Plays an animation block of the scene; false for an unknown one or without a scene. Never rejects. */
  async playAnimation(animationId: string): Promise<boolean> {
    const cfg = await this.configurator();
    return (await cfg?.play(String(animationId), 'play', 'api').catch(() => false)) ?? false;
  }

  protected override willUpdate(changed: PropertyValues<this>) {
    const { sink } = this;
    const preview = this.preview && 'project' in this.preview ? this.preview.project : this.preview;
    if ((['projectId', 'token', 'shareUrl', 'apiBase', 'preview'] as const).some((key) => changed.has(key))) {
      if (preview && !Array.isArray(preview.data?.models))
        return this.fail(
          'error',
          'invalid',
          'preview: expected the public read payload, { success, project: { id, name, data: { models } } }.',
        );
      // A preview names no share: its models' URLs are signed, relative ones are read against the BFF.
      this.target = preview
        ? { apiBase: this.apiBase || SCRIPT_ORIGIN, projectId: preview.id, token: '' }
        : shareTarget(this, SCRIPT_ORIGIN);
      this.sink = undefined;
      if (!preview) this.files.clear();
      this.showProject(preview || undefined);
      if (preview) this.setStatus('ready');
      // Also while previewing: a read under way is then ignored, and none starts.
      void this.reload();
    }
    if (sink && (preview || (changed.has('events') && this.events === 'off')))
      void visitorEvents().then((queue) => queue?.dropVisitorEvents(sink));
    // Set again after load, the attribute applies as setOption calls would.
    if (changed.has('configuration') && changed.get('configuration') !== undefined)
      this.cfg?.applyAttribute(this.configuration);
  }

  protected override updated() {
    // The prompt may still be on its way: focus waits for its field.
    const field = this.focusPassword && this.renderRoot.querySelector<HTMLInputElement>('input[name="password"]');
    if (field) {
      this.focusPassword = false;
      field.focus();
    }
    // The payload arrived while the element is already near the viewport: build the scene now.
    if (this.near && !this.viewer && this.renderRoot.querySelector('[part="viewer"]')) void this.ensureViewer();
  }

  /**
   * Watches the viewport so three.js is fetched only within 200 px of it; the first time, the 3D chunk is fetched at
   * once so its download overlaps the payload's.
   */
  private watchViewport() {
    if (this.nearViewport) return;
    if (typeof IntersectionObserver === 'undefined') return void (this.near = true);
    this.nearViewport = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        this.nearViewport?.disconnect();
        this.nearViewport = undefined;
        this.near = true;
        if (!viewerPrefetched) {
          viewerPrefetched = true;
          import('./features/viewer.js').catch(() => {
            // Failing here costs nothing: mounting the viewer imports it again and reports the failure.
            viewerPrefetched = false;
          });
        }
        this.requestUpdate();
      },
      { rootMargin: '200px' },
    );
    this.nearViewport.observe(this);
  }

  private emit<K extends keyof ConfigShareEventDetails>(type: K, detail: ConfigShareEventDetails[K]) {
    this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
  }

  private setStatus(status: ConfigShareState) {
    this.status = status;
    this.setAttribute('state', status);
  }

  private fail(status: ConfigShareState, type: string, message: string) {
    this.showProject(undefined);
    this.cfgWaiting.splice(0).forEach((resolve) => resolve(null));
    this.setStatus(status);
    this.emit('config-share-error', { type, message });
  }

  /** Reads the share; the answer is dropped once a newer load started, or when `superseded()` says so. */
  private async load(password: string | undefined, superseded?: () => boolean) {
    const generation = ++this.generation;
    const target = this.target;
    if (this.preview) return;
    if (!target)
      return this.fail(
        'error',
        'config',
        'Set project-id and token, or a share-url of the form …/share/<projectId>/<token>.',
      );
    // A ready element keeps its scene while it revalidates, and the prompt stays while a password is checked.
    if (!this.project && this.status !== 'password') this.setStatus('loading');
    this.busy = true;
    const result = await loadShare(target, password);
    if (generation !== this.generation || superseded?.()) return;
    this.busy = false;
    this.apply(result, target, password);
  }

  private apply(result: ReadResult, target: ShareTarget, password: string | undefined) {
    const strings = this.text;
    this.refused = result.kind === 'password' && result.invalid ? password : undefined;
    if (result.kind === 'ok') {
      if (password) rememberPassword(target, password);
      this.setStatus('ready');
      // A 304 answers the very object already shown: nothing to render again, no second load event.
      if (result.project === this.project) return;
      this.showProject(result.project);
      this.emit('config-share-load', { project: result.project });
      this.track('view');
      return;
    }
    this.onFailure(result, strings);
  }

  /** The states a failed read, model or submit answer leads to. */
  private onFailure(failure: Failure, strings: LoaderStrings) {
    switch (failure.kind) {
      case 'password':
        if (this.target) rememberPassword(this.target, undefined);
        this.showProject(undefined);
        this.focusPassword = true;
        if (this.status !== 'password') {
          this.setStatus('password');
          this.emit('config-share-password-required', {});
          // Each prompt starts empty; its chunk is fetched only for a share that asks for a password.
          this.prompt = undefined;
          import('./features/password-prompt.js').then(
            ({ PasswordPrompt }) =>
              (this.prompt = new PasswordPrompt({
                element: this,
                check: (password, superseded) => this.load(password, superseded),
              })),
            () => this.fail('error', 'network', strings.error),
          );
        }
        return;
      case 'unavailable':
        return this.fail('unavailable', 'unavailable', strings.unavailable);
      case 'not-found':
        if (!failure.hostRefused || !this.target) return this.fail('not-found', 'not-found', strings.notFound);
        // Shoppers see "not found"; the page's developer learns why, once, in the console and the event.
        warnRefusedHost(this.target);
        return this.fail('not-found', 'domain_not_allowed', refusedHostMessage(this.target));
      case 'rate-limited':
        return this.fail('error', 'rate-limited', strings.rateLimited);
      default:
        return this.fail(
          'error',
          failure.kind === 'error' && failure.message !== 'network' ? 'http' : 'network',
          strings.error,
        );
    }
  }

  /** Shows a payload (or none): the old scene goes, a new one is built when near the viewport. */
  private showProject(project: PublicProject | undefined) {
    if (project === this.project) return;
    this.dropViewer(!!project && !!this.preview);
    // A new revision keeps the visitor's selections where they are still valid.
    const keep = project && this.cfg ? this.cfg.options : undefined;
    this.project = project;
    // A preview's edit keeps the options on screen until the next configurator renders over them (same DOM, keyed).
    if (!this.preview || !project) this.cfg = undefined;
    this.cfgLoad = project && wantsConfigurator(project.data) ? this.loadConfigurator(project, keep) : undefined;
    if (project) this.cfgWaiting.splice(0).forEach((resolve) => void this.configurator().then(resolve));
    this.progress = 1;
    this.notice = '';
    this.fieldErrors = {};
    this.submitMessage = '';
  }

  /** Fetches the configurator chunk (in parallel with the viewer's) and sets up this payload's selections. */
  private async loadConfigurator(project: PublicProject, keep?: Record<string, string>): Promise<Configurator | null> {
    const target = this.target;
    try {
      const { Configurator } = await import('./configurator/index.js');
      if (project !== this.project || !target) return null;
      this.cfg = new Configurator(
        {
          element: this,
          target,
          strings: () => this.strings,
          viewer: () => this.viewer,
          track: (type, data) => this.track(type, data),
        },
        project,
        keep,
      );
      return this.cfg;
    } catch {
      this.emit('config-share-error', {
        type: 'configuration',
        message: 'The options could not be loaded.',
      });
      return null;
    }
  }

  /** `keep`: the scene stays on screen until the next one is drawn (a preview's edit). */
  private dropViewer(keep = false) {
    const { viewer, previous } = this;
    this.previous = keep ? (viewer ?? previous) : undefined;
    for (const each of [viewer, previous]) if (each !== this.previous) void each?.then((old) => old?.dispose());
    if (!keep) this.shown = undefined;
    this.viewer = undefined;
    void this.ar?.then((ar) => ar?.dispose());
    this.ar = this.arView = undefined;
    this.arAvailable = this.arReady = false;
    this.scene++;
  }

  private ensureViewer(): Promise<Viewer | null> {
    const { project, previous } = this;
    if (!project) return Promise.resolve(null);
    if (!this.viewer) {
      this.previous = undefined;
      // The preview's scene this one replaces goes once this one is drawn (or will not be).
      this.viewer = this.mountViewer(previous).finally(() => void previous?.then((old) => old?.dispose()));
    }
    return this.viewer;
  }

  /**
   * Loads the viewer chunk, the missing model URLs and then the model files all at once: the
   * downloads start before the chunk runs and overlap the renderer's start-up.
   */
  private async mountViewer(previous?: Promise<Viewer | null>): Promise<Viewer | null> {
    const { project, target, scene, preview } = this;
    await this.updateComplete;
    const stage = this.renderRoot.querySelector<HTMLElement>('.stage');
    if (!project || !target || !stage) return null;
    const strings = this.text;
    try {
      // A preview's edit shows its scene until the next is drawn: no progress bar over it.
      if (!previous) this.progress = 0;
      const password = rememberedPassword(target);
      const chunk = import('./features/viewer.js');
      chunk.catch(() => undefined); // awaited below; not an unhandled rejection meanwhile
      const models = await placeModels(target, project.data.models, password);
      const fractions = models.placed.map(() => 0);
      const loading = models.placed.map((model, index) => {
        const key = model.url.split('?')[0];
        const file =
          (preview && this.files.get(key)) ||
          downloadModel(model.url, (fraction) => {
            fractions[index] = fraction;
            if (project === this.project)
              this.progress = Math.min(0.99, fractions.reduce((sum, part) => sum + part, 0) / fractions.length);
          });
        if (preview) this.files.set(key, file);
        file.catch(() => this.files.delete(key)); // the viewer reports it as a missing model
        return { ...model, file };
      });
      const [{ createViewer }, cfg] = await Promise.all([chunk, this.cfgLoad]);
      if (project !== this.project) return null;
      const label = format(strings.viewerLabel, { name: project.name });
      // Defaults and restored selections apply before the first frame.
      const viewer = createViewer(
        stage,
        project.data,
        label,
        cfg ? { scene: cfg.scene, options: cfg.options } : undefined,
        await previous,
        this.strings,
      );
      const failed = await viewer.load(loading);
      if (scene === this.scene) this.shown = viewer;
      cfg?.viewerReady();
      if (project === this.project) this.progress = 1;
      const missing = [...models.missing, ...failed];
      if (missing.length > 0) {
        this.notice = strings.modelsMissing;
        this.emit('config-share-model-missing', { modelIds: missing });
      }
      // AR shows the configured scene, whatever its number of models (the first one's file until the export is ready).
      // A preview offers none: it is rebuilt on every edit, on the owner's desk, and AR is the shopper's.
      const [first] = models.placed;
      if (first && scene === this.scene && !this.preview) this.ar = this.mountAr(project, first, viewer);
      return viewer;
    } catch (error) {
      // No WebGL (or the chunk could not be fetched): the form still works without the scene.
      this.progress = 1;
      this.notice = strings.viewerUnavailable;
      this.emit('config-share-error', {
        type: 'webgl',
        message: error instanceof Error ? error.message : String(error),
      });
      return null;
    }
  }

  /**
   * Adds model-viewer for AR once the scene has drawn, when the page is idle: the AR chunks never
   * compete with the first frame. The button shows only if model-viewer can start AR here.
   */
  private async mountAr(project: PublicProject, model: PlacedModel, viewer: Viewer): Promise<ArView | null> {
    const { scene } = this;
    await new Promise<void>((resolve) =>
      typeof requestIdleCallback === 'function'
        ? requestIdleCallback(() => resolve(), { timeout: 2000 })
        : setTimeout(resolve, 200),
    );
    const stage = this.renderRoot.querySelector<HTMLElement>('.stage');
    if (scene !== this.scene || !stage) return null;
    const fail = (message: string) => this.emit('config-share-error', { type: 'ar', message });
    try {
      const { createArView } = await import('./features/ar.js');
      if (scene !== this.scene) return null;
      const ar = await createArView(stage, model, {
        label: project.name,
        onAvailability: (available) => (this.arAvailable = available && scene === this.scene),
        onReady: (ready) => (this.arReady = ready && scene === this.scene),
        onError: fail,
        source: viewer,
      });
      // A scene dropped meanwhile disposes `ar` through the promise dropViewer() chained on.
      if (scene === this.scene) this.arView = ar;
      return ar;
    } catch (error) {
      // The scene stays as it is; only the AR button is not offered.
      fail(error instanceof Error ? error.message : String(error));
      return null;
    }
  }

  /** The AR button's click: model-viewer starts AR within this very gesture (not after an await). */
  private activateAr() {
    this.arView?.activate();
    this.track('ar.opened');
  }

  /** The submit is a chunk of its own, fetched at the first one (the loader stays within 15 KB). */
  private async send(extra: SubmitExtra): Promise<string | null> {
    const { project, target } = this;
    const strings = this.text;
    const own = this.cfg?.submitValues();
    try {
      const { sendForm } = await import('./features/submit.js');
      return await sendForm(
        {
          element: this,
          target: this.status === 'ready' && project && !this.preview ? target : null,
          strings,
          fields: this.fields,
          own,
          show: (message, errors) => {
            this.submitMessage = message;
            if (errors) this.fieldErrors = errors;
          },
          emit: (type, detail) => this.emit(type, detail as never),
          refused: (failure) => this.onFailure(failure, strings),
        },
        extra,
      );
    } catch {
      this.submitMessage = strings.submitFailed;
      this.emit('config-share-error', { type: 'submit', message: strings.submitFailed });
      return null;
    }
  }

  private statusText(strings: LoaderStrings): string {
    switch (this.status) {
      case 'loading':
        return strings.loading;
      case 'password':
        return strings.passwordPrompt;
      case 'ready':
        return format(strings.ready, { name: this.project?.name ?? '' });
      case 'unavailable':
        return strings.unavailable;
      case 'not-found':
        return strings.notFound;
      case 'error':
        return strings.error;
    }
  }

  override render() {
    const strings = this.text;
    const project = this.status === 'ready' ? this.project : undefined;
    const fields = this.fields;
    const { cfg } = this;
    const formShown = (cfg?.showForm ?? true) && (fields.length > 0 || !!cfg?.scene.optionBlocks.length);
    const withPanel = !!this.notice || formShown || !!cfg;
    return html`
      <p
        part="status"
        role="status"
        class=${this.status === 'ready' || this.status === 'password' ? 'visually-hidden' : ''}
      >${this.statusText(strings)}</p>
      ${
        this.status === 'password'
          ? (this.prompt?.render({ strings, busy: this.busy, refused: this.refused }) ?? nothing)
          : nothing
      }
      ${
        this.status === 'error'
          ? html`<button type="button" @click=${() => this.reload()}>${strings.retry}</button>`
          : nothing
      }
      ${
        project
          ? html`<div class="layout ${withPanel ? 'with-panel' : ''}">
              <div part="viewer">
                <div class="stage"></div>
                ${
                  this.progress < 1
                    ? html`<progress max="1" .value=${this.progress} aria-label=${strings.modelProgress}></progress>`
                    : nothing
                }
                ${
                  this.arAvailable
                    ? html`<button type="button" part="ar" ?disabled=${!this.arReady} @click=${() => this.activateAr()}
                      >${this.arReady ? strings.viewInAr : strings.preparingAr}</button>`
                    : nothing
                }
              </div>
              ${
                withPanel
                  ? html`<div class="panel">
                      ${this.notice ? html`<p class="notice">${this.notice}</p>` : nothing}
                      ${cfg?.render() ?? nothing}
                      ${
                        formShown
                          ? formTemplate({
                              strings,
                              fields,
                              errors: this.fieldErrors,
                              submitting: !!this.submitting,
                              disabled: !!this.preview,
                              message: this.preview ? strings.previewNote : this.submitMessage,
                              onSubmit: () => void this.submit(),
                              onInput: (form) => cfg?.fieldsChanged(form),
                            })
                          : nothing
                      }
                    </div>`
                  : nothing
              }
            </div>`
          : nothing
      }
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'config-share': ConfigShareElement;
  }
  interface HTMLElementEventMap {
    'config-share-load': CustomEvent<ConfigShareEventDetails['config-share-load']>;
    'config-share-error': CustomEvent<ConfigShareEventDetails['config-share-error']>;
    'config-share-password-required': CustomEvent<ConfigShareEventDetails['config-share-password-required']>;
    'config-share-model-missing': CustomEvent<ConfigShareEventDetails['config-share-model-missing']>;
    'config-share-submit': CustomEvent<ConfigShareEventDetails['config-share-submit']>;
    'config-share-option-change': CustomEvent<ConfigShareEventDetails['config-share-option-change']>;
    'config-share-price': CustomEvent<ConfigShareEventDetails['config-share-price']>;
    'config-share-save': CustomEvent<ConfigShareEventDetails['config-share-save']>;
    'config-share-animation': CustomEvent<ConfigShareEventDetails['config-share-animation']>;
    'config-share-add-to-cart': CustomEvent<ConfigShareEventDetails['config-share-add-to-cart']>;
    'config-share-rendered': CustomEvent<ConfigShareEventDetails['config-share-rendered']>;
  }
}
