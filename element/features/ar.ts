import { Euler, Matrix4, Quaternion, Vector3 } from 'three';
import type { SceneSettings } from '#core/wire/configurator/types.js';
import type { PublicModel } from '#core/wire/public-project.js';
import type { PlacedModel, Viewer } from './viewer.js';
import { transformMatrix } from './viewer.js';

/**
 * "View in AR" through @google/model-viewer, loaded after the first frame and inert until a WebXR session shows it;
 * it loads the model only when AR starts, so desktop visitors never pay a second parse.
 */

/** The AR modes offered, in model-viewer's order of preference. */
const AR_MODES = 'webxr scene-viewer quick-look';
/**
 * With a blob `src`: Scene Viewer runs in the Google app, which cannot read a page's blob URLs
 * (it fails or crashes), so it is left out; WebXR and Quick Look use model-viewer's own copy.
 */
const BLOB_AR_MODES = 'webxr quick-look';
/** The export waits this long after the last change, then for an idle moment (element/README.md, Files). */
const EXPORT_DELAY_MS = 1000;

/** The parts of `<model-viewer>` this chunk uses. */
export interface ModelViewerElement extends HTMLElement {
  readonly canActivateAR: boolean;
  readonly updateComplete: Promise<boolean>;
  readonly loaded: boolean;
  activateAR(): Promise<void>;
}

/** The AR side of one element's scene. */
export interface ArView {
  /** The `<model-viewer>` that presents the model in AR. */
  readonly element: ModelViewerElement;
  /** Starts AR; call it from the click itself (Scene Viewer and Quick Look need the gesture). */
  activate(): void;
  /** False while the current configuration's export is being prepared (the button says so). */
  readonly ready: boolean;
  dispose(): void;
}

export interface ArOptions {
  /** The model's name for AR viewers (model-viewer's `alt`). */
  label: string;
  /** Called with model-viewer's `canActivateAR` once it chose its AR mode, and after each load. */
  onAvailability(available: boolean): void;
  /** A failure to start AR, or the model failing to load in model-viewer. */
  onError(message: string): void;
  /**
   * The configured scene: AR shows its export instead of the model's file. Without it, AR shows
   * `model` as uploaded (and is always ready).
   */
  source?: Pick<Viewer, 'exportConfigured' | 'onSceneChange'>;
  /**
   * The project's `ar` settings (docs/scene-format.md, Augmented reality): placement and scale. Default: floor, auto.
   */
  settings?: Pick<SceneSettings['ar'], 'placement' | 'scale'>;
  /** Called with false when a change makes the export stale, and true once the new one is in `src`. */
  onReady?(ready: boolean): void;
}

/**
 * The model's rotation and scale as model-viewer's `orientation` (roll pitch yaw, a YXZ Euler) and `scale`. Position
 * is left out: model-viewer centres the model and AR places it on the visitor's floor.
 */
export function modelViewerTransform(model: Pick<PublicModel, 'transform' | 'rotation' | 'scale'>): {
  orientation: string;
  scale: string;
} {
  const quaternion = new Quaternion();
  const scale = new Vector3();
  const matrix = transformMatrix(model.transform);
  if (matrix) new Matrix4().fromArray(matrix).decompose(new Vector3(), quaternion, scale);
  else {
    quaternion.setFromEuler(new Euler(model.rotation.x, model.rotation.y, model.rotation.z, 'XYZ'));
    scale.set(model.scale.x, model.scale.y, model.scale.z);
  }
  const { x: pitch, y: yaw, z: roll } = new Euler().setFromQuaternion(quaternion, 'YXZ');
  // Rounded: a string attribute, and float noise must not turn 0 into -1e-17.
  const number = (value: number) => String(Math.round(value * 1e6) / 1e6 || 0);
  return {
    orientation: `${number(roll)}rad ${number(pitch)}rad ${number(yaw)}rad`,
    scale: `${number(scale.x)} ${number(scale.y)} ${number(scale.z)}`,
  };
}

/** Defines `<model-viewer>` unless the page already did (a merchant may use it too). */
async function defineModelViewer(): Promise<void> {
  if (!customElements.get('model-viewer')) await import('@google/model-viewer/dist/model-viewer-module.min.js');
}

/** The capability queries model-viewer makes when it picks its AR mode (WebXR, then XR form factors). */
interface XrNavigator {
  xr?: { isSessionSupported?(mode: string): Promise<boolean> };
  userAgentData?: { getHighEntropyValues?(hints: string[]): Promise<unknown> };
}

/**
 * Resolves once model-viewer has picked its AR mode: it starts that choice in its first update and
 * awaits the browser's answers to these same queries, which come back in the order asked.
 */
async function arModeChosen(element: ModelViewerElement): Promise<void> {
  await element.updateComplete;
  const { xr, userAgentData } = navigator as Navigator & XrNavigator;
  await Promise.allSettled([
    xr?.isSessionSupported?.('immersive-ar'),
    userAgentData?.getHighEntropyValues?.(['formFactor']),
  ]);
  await new Promise((resolve) => setTimeout(resolve, 0));
}

/** Waits for an idle moment (a timer where requestIdleCallback is missing). */
const idle = () =>
  new Promise<void>((resolve) =>
    typeof requestIdleCallback === 'function'
      ? requestIdleCallback(() => resolve(), { timeout: 2000 })
      : setTimeout(resolve, 50),
  );

/**
 * Adds the `<model-viewer ar>` to `stage`, showing `model` until the first export of `source` is
 * ready; availability arrives through `onAvailability`.
 */
export async function createArView(stage: HTMLElement, model: PlacedModel, options: ArOptions): Promise<ArView> {
  await defineModelViewer();
  const element = document.createElement('model-viewer') as ModelViewerElement;
  const { orientation, scale } = modelViewerTransform(model);
  const attributes: Record<string, string> = {
    // The first model's file until the first export is ready: model-viewer only picks an AR mode when `src` is set.
    src: model.url,
    ar: '',
    'ar-modes': AR_MODES,
    'ar-placement': options.settings?.placement ?? 'floor',
    'ar-scale': options.settings?.scale ?? 'auto',
    // The model loads when AR starts, not before (model-viewer's activateAR loads it).
    reveal: 'manual',
    loading: 'lazy',
    alt: options.label,
    orientation,
    scale,
    'interaction-prompt': 'none',
  };
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  element.inert = true;

  let disposed = false;
  let available = false;
  let ready = !options.source;
  /** The blob URL in `src`, revoked when replaced. */
  let exported: string | null = null;
  /** Bumped by every change: an export of an older configuration is dropped. */
  let generation = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const setReady = (value: boolean) => {
    if (ready === value) return;
    ready = value;
    options.onReady?.(value);
  };
  const onLoad = () => {
    if (disposed) return;
    available = element.canActivateAR;
    options.onAvailability(available);
    if (available && !ready && timer === undefined) schedule();
  };

  /** Exports the scene 1 s after the last change, when idle, and puts it in `src`. */
  function schedule() {
    clearTimeout(timer);
    const current = generation;
    timer = setTimeout(async () => {
      try {
        await idle();
        if (disposed || current !== generation || !options.source) return;
        const blob = await options.source.exportConfigured();
        if (disposed || current !== generation) return;
        const previous = exported;
        exported = URL.createObjectURL(blob);
        // The export carries the models' placement: no second rotation or scale on top.
        element.removeAttribute('orientation');
        element.removeAttribute('scale');
        element.setAttribute('ar-modes', BLOB_AR_MODES);
        element.setAttribute('src', exported);
        if (previous) URL.revokeObjectURL(previous);
        // model-viewer picks its AR mode again for the new src and modes.
        await arModeChosen(element);
        if (disposed || current !== generation) return;
        setReady(true);
        onLoad();
      } catch (error) {
        options.onError(
          `The scene could not be prepared for AR (${error instanceof Error ? error.message : 'export'}).`,
        );
      } finally {
        if (current === generation) timer = undefined;
      }
    }, EXPORT_DELAY_MS);
  }
  const unsubscribe = options.source?.onSceneChange(() => {
    generation++;
    clearTimeout(timer);
    timer = undefined;
    setReady(false);
    if (available) schedule();
  });

  const onError = (event: Event) => {
    options.onAvailability(false);
    const detail = (event as CustomEvent<{ type?: string }>).detail;
    options.onError(`model-viewer could not load the model (${detail?.type ?? 'error'}).`);
  };
  // Interactive only while a WebXR session shows its overlay (the exit button lives there).
  const onStatus = (event: Event) => {
    const status = (event as CustomEvent<{ status: string }>).detail?.status;
    element.inert = status !== 'session-started' && status !== 'object-placed';
    if (status === 'failed') {
      options.onError('AR could not be started.');
      // model-viewer falls back to its next AR mode, or to none.
      void arModeChosen(element).then(onLoad);
    }
  };
  element.addEventListener('load', onLoad);
  element.addEventListener('error', onError);
  element.addEventListener('ar-status', onStatus);
  stage.append(element);
  void arModeChosen(element).then(onLoad);

  return {
    element,
    get ready() {
      return ready;
    },
    activate() {
      // The button is disabled meanwhile; a stale export is never shown.
      if (!ready) return;
      try {
        element
          .activateAR()
          .catch((error: unknown) => options.onError(error instanceof Error ? error.message : String(error)));
      } catch (error) {
        options.onError(error instanceof Error ? error.message : String(error));
      }
    },
    dispose() {
      disposed = true;
      clearTimeout(timer);
      unsubscribe?.();
      element.removeEventListener('load', onLoad);
      element.removeEventListener('error', onError);
      element.removeEventListener('ar-status', onStatus);
      element.remove();
      if (exported) URL.revokeObjectURL(exported);
    },
  };
}
