import { Euler, Matrix4, Quaternion, Vector3 } from 'three';
import type { PublicModel } from '../../server/core/wire/public-project.js';
import type { PlacedModel } from './viewer.js';
import { transformMatrix } from './viewer.js';

/**
 * "View in AR" for a one-model scene through @google/model-viewer, loaded only after the first frame (and its own
 * chunk only when the page has not defined `<model-viewer>`). It stays 1 px and inert until a WebXR session shows it,
 * and loads the model only when AR starts, so desktop visitors never pay a second parse.
 */

/** The AR modes offered, in model-viewer's order of preference. */
const AR_MODES = 'webxr scene-viewer quick-look';

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
  dispose(): void;
}

export interface ArOptions {
  /** The model's name for AR viewers (model-viewer's `alt`). */
  label: string;
  /** Called with model-viewer's `canActivateAR` once it chose its AR mode, and after each load. */
  onAvailability(available: boolean): void;
  /** A failure to start AR, or the model failing to load in model-viewer. */
  onError(message: string): void;
}

/**
 * The model's rotation and scale as model-viewer's `orientation` ("roll pitch yaw", applied as a
 * YXZ Euler) and `scale`. The payload's rotation is an XYZ Euler in radians, or it comes from the
 * transform matrix. The position is left out: model-viewer centres the model, and AR places it
 * on the visitor's floor.
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

/** Adds the `<model-viewer ar>` for `model` to `stage`; availability arrives through `onAvailability`. */
export async function createArView(stage: HTMLElement, model: PlacedModel, options: ArOptions): Promise<ArView> {
  await defineModelViewer();
  const element = document.createElement('model-viewer') as ModelViewerElement;
  const { orientation, scale } = modelViewerTransform(model);
  const attributes: Record<string, string> = {
    src: model.url,
    ar: '',
    'ar-modes': AR_MODES,
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
  const onLoad = () => disposed || options.onAvailability(element.canActivateAR);
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
    activate() {
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
      element.removeEventListener('load', onLoad);
      element.removeEventListener('error', onError);
      element.removeEventListener('ar-status', onStatus);
      element.remove();
    },
  };
}
