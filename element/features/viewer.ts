import {
  Box3,
  Color,
  DirectionalLight,
  Group,
  LoaderUtils,
  MathUtils,
  Mesh,
  PerspectiveCamera,
  PlaneGeometry,
  PMREMGenerator,
  Scene,
  ShadowMaterial,
  Vector3,
  WebGLRenderer,
  type Object3D,
} from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { RoomEnvironment } from 'three/addons/environments/RoomEnvironment.js';
import type { PublicModel, PublicProject } from '../../server/core/wire/public-project.js';
import type { Options, Scene } from '../../server/core/wire/configurator/types.js';

/**
 * The 3D view, loaded as its own chunk (dynamic import) once the element nears the viewport:
 * three.js with one GLTFLoader request per model, all models in one scene. Everything heavy lives
 * here so the loader stays small.
 */

/** A payload model whose URL is known (from the read or from model-urls). */
export type PlacedModel = PublicModel & { url: string };

/** A placed model and its file, downloading (the element starts the downloads before this chunk runs). */
export type LoadingModel = PlacedModel & { file: Promise<ArrayBuffer> };

/** The scene of one element. */
export interface Viewer {
  /**
   * Parses and places the models, drawing each as soon as it is there; resolves once all are
   * done, with the ids of those whose file failed to download or parse.
   */
  load(models: LoadingModel[]): Promise<string[]>;
  /**
   * Applies the selections' effects (contract 12.3) from the base scene, synchronously once every
   * texture they need is loaded, and draws at the next frame; resolves when drawn.
   */
  configure(options: Options): Promise<void>;
  /**
   * Plays an animation block (12.6): `play` from the start (or toggles repeat/pingpong), `forward`
   * or `backward` for a choice trigger, `end` jumps to the end pose. False for an unknown id or clip.
   */
  playAnimation(animationId: string, how: 'play' | 'forward' | 'backward' | 'end'): boolean;
  /** The configured scene as a binary glTF (what AR shows: no hidden or deleted parts). */
  exportConfigured(): Promise<Blob>;
  /** Draws the current view and returns the canvas holding it (read it at once). */
  capture(): HTMLCanvasElement;
  dispose(): void;
}

/** What the viewer needs from the parsed scene before a model's first frame. */
export interface ViewerSetup {
  scene: Scene;
  /** Defaults or restored selections, applied before the first frame. */
  options: Options;
}

/** renderQuality → renderer settings: a pixel ratio capped by the device's own, the environment map's face size. */
export const QUALITY = {
  low: { pixelRatio: 1, antialias: false, shadows: false, environmentSize: 64 },
  optimised: { pixelRatio: 1.5, antialias: true, shadows: false, environmentSize: 128 },
  high: { pixelRatio: 2, antialias: true, shadows: true, environmentSize: 256 },
} as const;

/**
 * The room environment's blur (radians). A face of `environmentSize` pixels spans 90°, so 128
 * pixels give about 3 pixels per sigma: the blur, not the size, sets the reflections' sharpness,
 * and the prefilter (256 GGX samples per pixel on every level) costs a quarter of three's default
 * 256, the largest single cost of a first frame under software WebGL.
 */
const ENVIRONMENT_SIGMA = 0.04;

/**
 * The stored transform as a column-major 4×4 matrix (three.js order), when it is one: either the
 * transform itself or its `matrix` field, 16 finite numbers. The interface leaves the transform's
 * inner shape open; anything else falls back to position, rotation (radians, XYZ) and scale.
 */
export function transformMatrix(transform: unknown): number[] | null {
  const candidate = Array.isArray(transform) ? transform : (transform as { matrix?: unknown } | null)?.matrix;
  return Array.isArray(candidate) && candidate.length === 16 && candidate.every(Number.isFinite) ? candidate : null;
}

function place(object: Object3D, model: PublicModel) {
  const matrix = transformMatrix(model.transform);
  if (matrix) {
    object.matrix.fromArray(matrix);
    object.matrix.decompose(object.position, object.quaternion, object.scale);
    return;
  }
  object.position.set(model.position.x, model.position.y, model.position.z);
  object.rotation.set(model.rotation.x, model.rotation.y, model.rotation.z);
  object.scale.set(model.scale.x, model.scale.y, model.scale.z);
}

/** The camera's vertical field of view in degrees (the horizontal one, on views narrower than square). */
const FOV = 45;
const HALF_FOV = MathUtils.degToRad(FOV / 2);

/**
 * Creates the renderer inside `stage` (throws where WebGL is unavailable; the element catches
 * that and keeps the form). `preserveDrawingBuffer` lets screenshot() read the last frame.
 */
export function createViewer(
  stage: HTMLElement,
  data: PublicProject['data'],
  label: string,
  setup?: ViewerSetup,
): Viewer {
  void setup;
  const quality = QUALITY[data.renderQuality] ?? QUALITY.optimised;
  const renderer = new WebGLRenderer({ antialias: quality.antialias, preserveDrawingBuffer: true });
  // As model-viewer does in production: no status query after each shader link, each of which
  // waits for the GPU process; a shader that fails to link still fails the draw (shaders are ours and three's).
  renderer.debug.checkShaderErrors = false;
  renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, quality.pixelRatio));
  renderer.shadowMap.enabled = quality.shadows;
  const canvas = renderer.domElement;
  // Focusable and named: OrbitControls' arrow keys work once the canvas has focus.
  canvas.tabIndex = 0;
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('aria-label', label);
  stage.append(canvas);

  const scene = new Scene();
  scene.background = new Color(0xffffff);
  const environment = new PMREMGenerator(renderer);
  scene.environment = environment.fromScene(new RoomEnvironment(), ENVIRONMENT_SIGMA, 0.1, 100, {
    size: quality.environmentSize,
  }).texture;
  environment.dispose();
  const sun = new DirectionalLight(0xffffff, 1.5);
  sun.position.set(3, 6, 4);
  sun.castShadow = quality.shadows;
  scene.add(sun);
  const content = new Group();
  scene.add(content);

  const camera = new PerspectiveCamera(FOV, 1, 0.01, 1000);
  const controls = new OrbitControls(camera, canvas);
  controls.listenToKeyEvents(canvas);
  if (data.camera) {
    camera.position.set(data.camera.position.x, data.camera.position.y, data.camera.position.z);
    controls.target.set(data.camera.target.x, data.camera.target.y, data.camera.target.z);
  } else camera.position.set(2, 1.5, 2);
  controls.update();

  // Rendered on demand (controls, resize, loads), not in a loop: an idle configurator costs nothing.
  let pendingFrame = 0;
  const render = () => {
    cancelAnimationFrame(pendingFrame);
    pendingFrame = 0;
    renderer.render(scene, camera);
  };
  /** One render at the next frame for models arriving together. */
  const renderSoon = () => (pendingFrame ||= requestAnimationFrame(render));
  // Camera moves (dragging, keys, framing new models) draw once per animation frame, however many there were.
  controls.addEventListener('change', renderSoon);
  const resize = new ResizeObserver(() => {
    const { clientWidth: width, clientHeight: height } = stage;
    if (!width || !height) return;
    renderer.setSize(width, height);
    camera.aspect = width / height;
    // Narrower than square: the vertical angle widens so the horizontal one stays FOV, and the model stays in view.
    camera.fov = camera.aspect >= 1 ? FOV : 2 * MathUtils.radToDeg(Math.atan(Math.tan(HALF_FOV) / camera.aspect));
    camera.updateProjectionMatrix();
    // At once: a resized drawing buffer is blank until drawn, and a frame later would flash.
    render();
  });
  resize.observe(stage);

  /** Without a payload camera: look at everything from a distance that fits it. */
  function frame(box: Box3) {
    const center = box.getCenter(new Vector3());
    const radius = box.getSize(new Vector3()).length() / 2 || 1;
    camera.position.copy(center).add(new Vector3(1, 0.8, 1).normalize().multiplyScalar(radius * 2.5));
    controls.target.copy(center);
    camera.near = radius / 100;
    camera.far = radius * 100;
    camera.updateProjectionMatrix();
    controls.update();
  }

  /** High quality: a ground that only shows shadows, under the lowest model. */
  function addGround(box: Box3) {
    const size = box.getSize(new Vector3()).length() * 4 || 10;
    const ground = new Mesh(new PlaneGeometry(size, size), new ShadowMaterial({ opacity: 0.25 }));
    ground.rotation.x = -Math.PI / 2;
    ground.position.set(box.getCenter(new Vector3()).x, box.min.y, box.getCenter(new Vector3()).z);
    ground.receiveShadow = true;
    scene.add(ground);
  }

  return {
    async load(models) {
      const loader = new GLTFLoader();
      const failed: string[] = [];
      /** Without a payload camera, the view widens as models arrive. */
      const reframe = () => {
        const box = new Box3().setFromObject(content);
        if (!box.isEmpty() && !data.camera) frame(box);
        return box;
      };
      await Promise.all(
        models.map(async (model) => {
          try {
            const gltf = await loader.parseAsync(await model.file, LoaderUtils.extractUrlBase(model.url));
            place(gltf.scene, model);
            gltf.scene.traverse((node) => (node.castShadow = quality.shadows));
            content.add(gltf.scene);
            // Each model is drawn as soon as it is parsed, not after the slowest download.
            reframe();
            renderSoon();
          } catch {
            failed.push(model.id);
          }
        }),
      );
      const box = reframe();
      if (!box.isEmpty() && quality.shadows) addGround(box);
      render();
      return failed;
    },
    configure() {
      return Promise.resolve();
    },
    playAnimation() {
      return false;
    },
    exportConfigured() {
      return Promise.reject(new Error('exportConfigured: not implemented yet'));
    },
    capture() {
      render();
      return canvas;
    },
    dispose() {
      cancelAnimationFrame(pendingFrame);
      resize.disconnect();
      controls.dispose();
      renderer.dispose();
      renderer.forceContextLoss();
      canvas.remove();
    },
  };
}
