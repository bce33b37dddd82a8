import {
  DirectionalLight,
  Group,
  LoaderUtils,
  MathUtils,
  Mesh,
  NeutralToneMapping,
  PerspectiveCamera,
  PlaneGeometry,
  Scene,
  ShadowMaterial,
  Timer,
  Vector3,
  WebGLRenderer,
  type Box3,
  type Material,
  type Object3D,
} from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import type { PublicModel, PublicProject } from '#core/wire/public-project.js';
import type { Options, Scene as ParsedScene, Vec3 } from '#core/wire/configurator/types.js';
import { DEFAULT_SETTINGS } from '#core/wire/configurator/default-settings.js';
import { createAnimations } from './scene/animations.js';
import { BaseValues } from './scene/base-values.js';
import { applyEffects, selectedEffects, textureUrls, type ConfigurableModel } from './scene/effects.js';
import { prepareLoader } from './scene/meshopt-decoder.js';
import { applyModelFields } from './scene/model-fields.js';
import { createModelMaterials } from './scene/model-materials.js';
import { createNameWarnings, nodeNames } from './scene/node-names.js';
import { writePose } from './scene/part-pose.js';
import { applyCameraLimits, backgroundOf, environmentMap, shadowsOn } from './scene/settings.js';
import { createTextureCache } from './scene/textures.js';
import { preloadVariants, variantMaterials } from './scene/variants.js';
import { visibleBounds } from './scene/visible-bounds.js';
import { createViewFit } from './scene/view-fit.js';
import { createResetViewButton } from './scene/reset-view-button.js';
import { VIEWER_STRINGS, type ViewerStrings } from './viewer-strings.js';

/**
 * The 3D view (three.js; docs/scene-format.md), a chunk of its own loaded once the element nears the viewport, so
 * everything heavy stays out of the loader.
 */

/** Runs `work` when the page is idle, at the latest after `timeoutMs` (a timer where idle callbacks are missing). */
function whenIdle(work: () => void, timeoutMs: number) {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(work, { timeout: timeoutMs });
  else setTimeout(work, 200);
}

/** A payload model whose URL is known (from the read or from model-urls). */
export type PlacedModel = PublicModel & { url: string };

/** A placed model and its file, downloading (the element starts the downloads before this chunk runs). */
export type LoadingModel = PlacedModel & { file: Promise<ArrayBuffer> };

/** Where the camera is and what it orbits, in scene units (the shape of the payload's `camera`). */
export interface CameraView {
  position: Vec3;
  target: Vec3;
}

/** Dispatched (bubbling, composed) from the viewer each time a load, a configuration or a clip at rest is drawn. */
export const RENDERED_EVENT = 'config-share-rendered';

/** The scene of one element. */
export interface Viewer {
  /**
   * Places each model as soon as it is there, its options applied before its first frame; resolves with the ids of
   * those whose file failed to download or parse.
   */
  load(models: LoadingModel[]): Promise<string[]>;
  /**
   * Applies the selections' effects (docs/scene-format.md, Effects) from the base scene, synchronously once every
   * texture they need is loaded, and draws at the next frame; resolves when drawn.
   */
  configure(options: Options): Promise<void>;
  /**
   * Plays an animation block (docs/scene-format.md, Animation blocks): `play` from the start (or toggles
   * repeat/pingpong), `forward` or `backward` for a choice trigger, `end` jumps to the end pose. False for an unknown
   * id or clip.
   */
  playAnimation(animationId: string, how: 'play' | 'forward' | 'backward' | 'end'): boolean;
  /** The animation blocks whose clip a loaded model has, in block order (the buttons to show). */
  availableAnimations(): string[];
  /** The configured scene as a binary glTF (what AR shows: no hidden or deleted parts). */
  exportConfigured(): Promise<Blob>;
  /**
   * Calls `listener` whenever what AR would show changed and is drawn: a configuration, a clip
   * that came to rest, models that finished loading. Returns the unsubscribe function.
   */
  onSceneChange(listener: () => void): () => void;
  /** Draws the current view and returns the canvas holding it (read it at once). */
  capture(): HTMLCanvasElement;
  /** The camera as it is now. */
  cameraView(): CameraView;
  /** The view a scene built for `next` starts from: this one's, unless `next` gives another payload camera. */
  keptView(next: PublicProject['data']): CameraView | null;
  /** The visitor moved the view since it was last fitted: a scene built from {@link keptView} keeps it so. */
  movedByVisitor(): boolean;
  dispose(): void;
}

/** What the viewer needs from the parsed scene before a model's first frame. */
export interface ViewerSetup {
  scene: ParsedScene;
  /** Defaults or restored selections, applied before the first frame. */
  options: Options;
  /** A block's clip started or stopped moving (a repeat/pingpong button's `aria-pressed`). */
  onAnimationPlaying?(animationId: string, playing: boolean): void;
}

/** renderQuality → renderer settings: a pixel ratio capped by the device's own, the environment map's face size. */
export const QUALITY = {
  low: { pixelRatio: 1, antialias: false, shadows: false, environmentSize: 64 },
  optimised: { pixelRatio: 1.5, antialias: true, shadows: false, environmentSize: 128 },
  high: { pixelRatio: 2, antialias: true, shadows: true, environmentSize: 256 },
} as const;

/** `display.autoRotate`: 30° a second in OrbitControls' unit (1 is a turn a minute, given deltas in seconds). */
const AUTO_ROTATE_SPEED = 5;

/**
 * The stored transform as a column-major 4×4 matrix (three.js order) when it is one (itself or its `matrix`); the
 * interface leaves its shape open, so anything else falls back to position, rotation (radians, XYZ) and scale.
 */
export function transformMatrix(transform: unknown): number[] | null {
  const candidate = Array.isArray(transform) ? transform : (transform as { matrix?: unknown } | null)?.matrix;
  return Array.isArray(candidate) && candidate.length === 16 && candidate.every(Number.isFinite) ? candidate : null;
}

/** Places the model; rotation and scale turn about its pivot (docs/scene-format.md, Pivots), which a matrix ignores. */
function place(object: Object3D, model: PublicModel, pivot: Vec3 | null | undefined) {
  const matrix = transformMatrix(model.transform);
  if (matrix) {
    object.matrix.fromArray(matrix);
    object.matrix.decompose(object.position, object.quaternion, object.scale);
    return;
  }
  const { position, rotation, scale } = model;
  const pose = {
    position: new Vector3(position.x, position.y, position.z),
    rotation: object.rotation.clone().set(rotation.x, rotation.y, rotation.z, 'XYZ'),
    scale: new Vector3(scale.x, scale.y, scale.z),
  };
  writePose(object, pose, pivot);
}

const prefersReducedMotion = () =>
  typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;

const sameCamera = (a: PublicProject['data']['camera'], b: PublicProject['data']['camera']) =>
  JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Rounded to a millionth: what "Use this view" stores reads 1.2, not 1.1999999999999997 (orbiting's float noise). */
const round = (value: number) => Math.round(value * 1e6) / 1e6;
const vec3 = ({ x, y, z }: Vec3): Vec3 => ({ x: round(x), y: round(y), z: round(z) });

/**
 * Creates the renderer inside `stage` (throws where WebGL is unavailable; the element catches
 * that and keeps the form). `preserveDrawingBuffer` lets screenshot() read the last frame.
 * `previous`: the scene this one replaces (a preview's edit): its view is kept, and it stays on
 * screen, under this one's hidden canvas, until this one's models are drawn. `strings`: the page's
 * replacements for {@link VIEWER_STRINGS}.
 */
export function createViewer(
  stage: HTMLElement,
  data: PublicProject['data'],
  label: string,
  setup?: ViewerSetup,
  previous?: Viewer | null,
  strings: Partial<ViewerStrings> = {},
): Viewer {
  const settings = setup?.scene.settings ?? DEFAULT_SETTINGS;
  const { lighting, display } = settings;
  const quality = QUALITY[data.renderQuality] ?? QUALITY.optimised;
  const shadows = shadowsOn(lighting.shadows, quality.shadows);
  const background = backgroundOf(display.background);
  const renderer = new WebGLRenderer({
    antialias: quality.antialias,
    preserveDrawingBuffer: true,
    alpha: background === null,
  });
  // As model-viewer does in production: no status query after each shader link, each of which
  // waits for the GPU process; a shader that fails to link still fails the draw (shaders are ours and three's).
  renderer.debug.checkShaderErrors = false;
  renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, quality.pixelRatio));
  renderer.shadowMap.enabled = shadows;
  // Khronos PBR Neutral, as model-viewer: base colours stay true, and `exposure` has something to scale.
  renderer.toneMapping = NeutralToneMapping;
  renderer.toneMappingExposure = lighting.exposure;
  const canvas = renderer.domElement;
  // Focusable and named: OrbitControls' arrow keys work once the canvas has focus.
  canvas.tabIndex = 0;
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('aria-label', label);
  if (previous) canvas.style.cssText = 'position:absolute;inset:0;visibility:hidden';
  stage.append(canvas);

  const scene = new Scene();
  scene.background = background;
  scene.environment = environmentMap(renderer, lighting.environment, quality.environmentSize);
  scene.environmentIntensity = lighting.environmentIntensity;
  const sun = new DirectionalLight(0xffffff, lighting.keyLight);
  sun.position.set(3, 6, 4);
  sun.castShadow = shadows;
  scene.add(sun);
  const content = new Group();
  scene.add(content);

  const fov = settings.camera.fov;
  const halfFov = MathUtils.degToRad(fov / 2);
  const camera = new PerspectiveCamera(fov, 1, 0.01, 1000);
  const controls = new OrbitControls(camera, canvas);
  controls.listenToKeyEvents(canvas);
  applyCameraLimits(controls, settings.camera);
  const placeOf = (view: CameraView) => ({
    position: new Vector3(view.position.x, view.position.y, view.position.z),
    target: new Vector3(view.target.x, view.target.y, view.target.z),
  });
  // Without a payload camera the product is seen from the front right, a little above.
  const home = data.camera ? placeOf(data.camera) : { position: new Vector3(2, 1.6, 2), target: new Vector3() };
  const resetButton = createResetViewButton(
    stage,
    strings.resetView ?? VIEWER_STRINGS.resetView,
    () => {
      viewFit.reset(visibleBounds(content));
      renderSoon();
    },
    canvas,
  );
  const viewFit = createViewFit({
    camera,
    controls,
    settings: settings.camera,
    home,
    exact: !!data.camera && !settings.camera.fit,
    size: () => ({ width: stage.clientWidth, height: stage.clientHeight }),
    reducedMotion: prefersReducedMotion,
    startLoop: () => startLoop(),
    onMoved: (moved) => resetButton.show(moved),
  });
  const keptView = previous?.keptView(data);
  const startView = keptView ?? home;
  viewFit.drive(() => {
    camera.position.copy(placeOf(startView).position);
    controls.target.copy(placeOf(startView).target);
    controls.update();
  });
  // The visitor's own view of the scene this one replaces stays theirs.
  if (keptView && previous?.movedByVisitor()) viewFit.keepMoved();

  // Rendered on demand (controls, resize, loads, changes), not in a loop: an idle configurator
  // costs nothing. Only a moving clip or the auto-rotation draws every frame.
  let pendingFrame = 0;
  let drawnWaiters: Array<() => void> = [];
  const render = () => {
    cancelAnimationFrame(pendingFrame);
    pendingFrame = 0;
    renderer.render(scene, camera);
    const waiters = drawnWaiters;
    drawnWaiters = [];
    waiters.forEach((resolve) => resolve());
  };
  /** One render at the next frame for changes arriving together. */
  const renderSoon = () => (pendingFrame ||= requestAnimationFrame(render));
  let renderQueued = false;
  /**
   * One render at the end of this task, for changes made together: the frame being produced shows
   * them (a render at the next animation frame would, called from a frame's callbacks, show them a frame late).
   */
  const renderNow = () => {
    if (renderQueued) return;
    renderQueued = true;
    queueMicrotask(() => {
      renderQueued = false;
      if (!disposed) render();
    });
  };
  /** Resolves once the next frame is drawn. */
  const drawn = () => new Promise<void>((resolve) => drawnWaiters.push(resolve));
  // Camera moves (dragging, keys, framing new models) draw once per animation frame, however many there were.
  controls.addEventListener('change', renderSoon);
  let sized = { width: 0, height: 0 };
  /** Sizes the drawing buffer and the camera to the stage; false while the stage has no size or kept its size. */
  const sizeToStage = () => {
    const { clientWidth: width, clientHeight: height } = stage;
    if (!width || !height || (width === sized.width && height === sized.height)) return false;
    sized = { width, height };
    renderer.setSize(width, height);
    camera.aspect = width / height;
    // Narrower than square: the vertical angle widens so the horizontal one stays `fov`, and the model stays in view.
    camera.fov = camera.aspect >= 1 ? fov : 2 * MathUtils.radToDeg(Math.atan(Math.tan(halfFov) / camera.aspect));
    camera.updateProjectionMatrix();
    return true;
  };
  // Now, not at the observer's first call: a model parsed before it would be drawn at the canvas's default size.
  sizeToStage();
  // At once: a resized drawing buffer is blank until drawn, and a frame later would flash. The new shape is framed.
  const resize = new ResizeObserver(() => {
    if (!sizeToStage()) return;
    reframe('now');
    render();
  });
  resize.observe(stage);

  const changeListeners = new Set<() => void>();
  const changed = () => {
    if (disposed) return;
    changeListeners.forEach((listener) => listener());
    stage.dispatchEvent(new CustomEvent(RENDERED_EVENT, { bubbles: true, composed: true }));
  };

  const animations = createAnimations(setup?.scene.animations ?? [], setup?.onAnimationPlaying);
  const timer = new Timer();
  timer.connect(document);
  let loopFrame = 0;
  let firstTick = false;
  const tick = (timestamp: number) => {
    timer.update(timestamp);
    // The first delta would span the idle time since the last loop (or be negative): the clock starts here.
    const seconds = firstTick ? 0 : timer.getDelta();
    firstTick = false;
    const clipMoving = animations.running;
    animations.update(seconds);
    if (controls.autoRotate) viewFit.drive(() => controls.update(seconds));
    const gliding = viewFit.step(timestamp);
    render();
    loopFrame = animations.running || controls.autoRotate || gliding ? requestAnimationFrame(tick) : 0;
    // A clip came to rest: AR exports this pose.
    if (clipMoving && !animations.running) changed();
  };
  /** Draws every frame until nothing moves. */
  const startLoop = () => {
    if (loopFrame) return;
    firstTick = true;
    loopFrame = requestAnimationFrame(tick);
  };
  // The first touch of the view stops the auto-rotation for good.
  controls.addEventListener('start', () => (controls.autoRotate = false));

  /** With shadows: a ground that only shows them, under the lowest model. */
  function addGround(box: Box3) {
    const size = box.getSize(new Vector3()).length() * 4 || 10;
    const ground = new Mesh(new PlaneGeometry(size, size), new ShadowMaterial({ opacity: lighting.shadowOpacity }));
    ground.rotation.x = -Math.PI / 2;
    ground.position.set(box.getCenter(new Vector3()).x, box.min.y, box.getCenter(new Vector3()).z);
    ground.receiveShadow = true;
    scene.add(ground);
  }

  /** The loaded models in payload order. */
  const models: Array<ConfigurableModel & { order: number }> = [];
  const base = new BaseValues();
  const textures = createTextureCache();
  const warnName = createNameWarnings();
  let options: Options = setup?.options ?? {};
  /** Bumped by each configure: one held for its textures applies only if no later one came. */
  let configuration = 0;
  let disposed = false;

  const effectsNow = () => (setup ? selectedEffects(setup.scene, options) : []);
  const missingTextures = () => textureUrls(effectsNow()).filter((url) => textures.get(url) === undefined);
  const applyAll = () => applyEffects(models, effectsNow(), base, textures);
  /** `use` names the effects may apply to this model: their final materials are preloaded. */
  const useNames = (modelId: string) =>
    (setup?.scene.optionBlocks ?? []).flatMap((block) =>
      block.choices.flatMap((choice) =>
        choice.effects.flatMap((effect) =>
          effect.type === 'material' && effect.use !== undefined && (effect.model === null || effect.model === modelId)
            ? [effect.use]
            : [],
        ),
      ),
    );

  /** Textures of every choice, loaded when the page is idle after the first frame. */
  const preloadTextures = () => {
    const urls = (setup?.scene.optionBlocks ?? []).flatMap((block) =>
      block.choices.flatMap((choice) => textureUrls(choice.effects)),
    );
    if (urls.length === 0) return;
    whenIdle(() => void (disposed || textures.load(urls)), 5000);
  };

  /**
   * The materials a choice can switch to (variants, `use`) that the first frame did not draw: their
   * shader programs are compiled when idle after it, so a switch never waits for a compile.
   */
  const precompileChoices = () => {
    const stand = new Group();
    const add = (mesh: Mesh, material: Material | undefined) => {
      if (!material || material === mesh.material) return;
      const proxy = new Mesh(mesh.geometry, material);
      proxy.receiveShadow = mesh.receiveShadow;
      stand.add(proxy);
    };
    for (const model of models) {
      for (const mesh of model.variants.meshes.keys())
        for (const name of model.variants.names) add(mesh, model.variants.materialFor(mesh, name));
      const uses = new Set(useNames(model.id));
      if (uses.size > 0)
        model.root.traverse((object) => {
          if ((object as Mesh).isMesh)
            for (const name of uses) add(object as Mesh, model.materials.final(object as Mesh, name));
        });
    }
    if (stand.children.length === 0) return;
    // compile, not compileAsync: its readiness poll outlives a disposed renderer and throws. With
    // checkShaderErrors off, compile only issues the programs; the GPU process builds them meanwhile.
    whenIdle(() => void (disposed || renderer.compile(stand, camera, scene)), 2000);
  };

  async function loadModel(loader: GLTFLoader, model: LoadingModel, order: number) {
    const file = await model.file;
    await prepareLoader(loader, file);
    const gltf = await loader.parseAsync(file, LoaderUtils.extractUrlBase(model.url));
    const sceneModel = setup?.scene.models.find((each) => each.id === model.id);
    const warn = (kind: string, name: string) => warnName(model.id, kind, name);
    // Names first: deleting parts and three's renaming must not change what a name reaches.
    const names = nodeNames(gltf.parser);
    const { poses, pivots } = sceneModel
      ? applyModelFields(gltf.scene, names, sceneModel, warn)
      : { poses: new Map(), pivots: new Map() };
    const variants = await preloadVariants(gltf);
    const materials = await createModelMaterials(gltf, useNames(model.id));
    materials.register(variantMaterials(variants));
    place(gltf.scene, model, sceneModel?.pivot);
    gltf.scene.traverse((node) => (node.castShadow = shadows));
    // The current options' textures first: the unconfigured model is never shown.
    while (missingTextures().length > 0) await textures.load(missingTextures());
    if (disposed) return;
    models.push({ id: model.id, order, root: gltf.scene, names, materials, variants, poses, pivots, warn });
    models.sort((a, b) => a.order - b.order);
    animations.addModel({ id: model.id, order, root: gltf.scene, clips: gltf.animations });
    applyAll();
    content.add(gltf.scene);
  }

  /** Frames what is drawn (hidden and deleted parts left out): at once, or gliding after a visitor's change. */
  function reframe(how: 'now' | 'glide') {
    const box = visibleBounds(content);
    viewFit.fit(box, how);
    return box;
  }

  return {
    async load(list) {
      const loader = new GLTFLoader();
      const failed: string[] = [];
      await Promise.all(
        list.map(async (model, order) => {
          try {
            await loadModel(loader, model, order);
            // Each model is drawn as soon as it is parsed, not after the slowest download; the view widens to it.
            reframe('now');
            renderSoon();
          } catch {
            failed.push(model.id);
          }
        }),
      );
      const box = reframe('now');
      if (!box.isEmpty() && shadows) addGround(box);
      render();
      canvas.style.visibility = '';
      precompileChoices();
      preloadTextures();
      const motion = !prefersReducedMotion();
      for (const block of setup?.scene.animations ?? [])
        if (block.trigger === 'load' && motion) animations.play(block.id, 'play');
      if (display.autoRotate && motion) {
        controls.autoRotate = true;
        controls.autoRotateSpeed = AUTO_ROTATE_SPEED;
      }
      if (animations.running || controls.autoRotate) startLoop();
      changed();
      return failed;
    },
    configure(next) {
      options = next;
      const current = ++configuration;
      const apply = () => {
        if (disposed) return Promise.resolve();
        // A later configure replaced this one while its textures loaded: that one is drawn instead.
        if (current !== configuration) return drawn();
        applyAll();
        reframe('glide');
        renderNow();
        return drawn().then(changed);
      };
      const missing = missingTextures();
      // Synchronous when nothing is missing; otherwise the whole change waits for its textures.
      return missing.length === 0 ? apply() : textures.load(missing).then(apply);
    },
    playAnimation(animationId, how) {
      const played = animations.play(animationId, how);
      if (!played) return false;
      if (animations.running) startLoop();
      else {
        renderSoon();
        void drawn().then(changed);
      }
      return true;
    },
    availableAnimations() {
      return animations.available();
    },
    async exportConfigured() {
      const { exportConfigured } = await import('./scene/export-configured.js');
      return exportConfigured(models.map((model) => model.root));
    },
    onSceneChange(listener) {
      changeListeners.add(listener);
      return () => changeListeners.delete(listener);
    },
    capture() {
      // A picture shows the framed view, not a step of the glide towards it.
      viewFit.finish();
      render();
      return canvas;
    },
    cameraView() {
      return { position: vec3(camera.position), target: vec3(controls.target) };
    },
    keptView(next) {
      return sameCamera(data.camera, next.camera) ? this.cameraView() : null;
    },
    movedByVisitor() {
      return viewFit.moved;
    },
    dispose() {
      disposed = true;
      cancelAnimationFrame(pendingFrame);
      cancelAnimationFrame(loopFrame);
      changeListeners.clear();
      animations.dispose();
      timer.dispose();
      resize.disconnect();
      controls.dispose();
      resetButton.dispose();
      textures.dispose();
      renderer.dispose();
      renderer.forceContextLoss();
      canvas.remove();
      drawnWaiters.forEach((resolve) => resolve());
      drawnWaiters = [];
    },
  };
}
