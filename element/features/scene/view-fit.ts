import { Quaternion, Vector3, type Box3, type PerspectiveCamera } from 'three';
import type { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import type { SceneSettings } from '#core/wire/configurator/types.js';
import { fittedPlace, meetsFraming, type CameraPlace, type CanvasSize } from './framing.js';

/** How long a refit after a change glides, ms. */
const GLIDE_MS = 400;

/** What the view's framing needs from the viewer. */
export interface ViewFitOptions {
  camera: PerspectiveCamera;
  controls: OrbitControls;
  /** The owner's camera settings (docs/scene-format.md, Camera limits): distance limits the fit may widen, `fit`. */
  settings: SceneSettings['camera'];
  /** The start view: the owner's `data.camera`, else a default; "Reset view" goes back to its side. */
  home: CameraPlace;
  /** `camera.fit: false` with an owner's camera: the home view as given, never fitted. */
  exact: boolean;
  size(): CanvasSize;
  /** Whether the visitor asked for reduced motion: a refit then jumps. */
  reducedMotion(): boolean;
  /** A glide started: the viewer draws every frame until `step` says it is over. */
  startLoop(): void;
  /** The visitor moved the view (true) or a fit took it back (false): the "Reset view" button follows. */
  onMoved(moved: boolean): void;
}

/** The view's framing (docs/scene-format.md, "Framing"): fits, glides, and yields to the visitor's own view. */
export interface ViewFit {
  /** Runs camera changes of the viewer's own (fits, auto-rotation): they are not the visitor's. */
  drive(work: () => void): void;
  /** Frames `box` at once or gliding; a camera that already frames it, or one the visitor moved, stays. */
  fit(box: Box3, how: 'now' | 'glide'): void;
  /** "Reset view": back to the owner's side, framed, gliding; the visitor's view no longer stands. */
  reset(box: Box3): void;
  /** Moves a glide on to `time` (ms, the frame's timestamp); false once none is under way. */
  step(time: number): boolean;
  /** Ends a glide at its destination (a screenshot shows where the view is going). */
  finish(): void;
  /** The visitor moved the view since the last fit. */
  readonly moved: boolean;
  /** The view a replacement scene starts from keeps the visitor's move (a preview's edit). */
  keepMoved(): void;
}

interface Glide extends CameraPlace {
  from: CameraPlace;
  started: number | null;
}

/** Ease in and out (cubic): the camera starts and stops softly. */
const ease = (s: number) => (s < 0.5 ? 4 * s * s * s : 1 - (-2 * s + 2) ** 3 / 2);

const place = (position: Vector3, target: Vector3): CameraPlace => ({
  position: position.clone(),
  target: target.clone(),
});

export function createViewFit(options: ViewFitOptions): ViewFit {
  const { camera, controls, settings, home, exact } = options;
  let driving = false;
  let moved = false;
  let glide: Glide | null = null;

  const drive = (work: () => void) => {
    const was = driving;
    driving = true;
    try {
      work();
    } finally {
      driving = was;
    }
  };
  const setMoved = (value: boolean) => {
    if (moved === value) return;
    moved = value;
    options.onMoved(value);
  };
  // Any camera change the viewer did not make is the visitor's (drag, wheel, keys): it ends a glide for good.
  controls.addEventListener('change', () => {
    if (driving) return;
    glide = null;
    setMoved(true);
  });

  /** The distance limits, widened so `distances` are within them (the visitor can zoom back to a fitted view). */
  const widenLimits = (...distances: number[]) => {
    controls.minDistance = Math.min(settings.minDistance ?? 0, ...distances);
    controls.maxDistance = Math.max(settings.maxDistance ?? Infinity, ...distances);
  };
  const put = ({ position, target }: CameraPlace) =>
    drive(() => {
      camera.position.copy(position);
      controls.target.copy(target);
      controls.update();
    });
  /** Near and far planes around the box: its depth resolves from here and from where a glide is going. */
  const planes = (box: Box3) => {
    const radius = box.getSize(new Vector3()).length() / 2 || 1;
    const away = [camera.position.distanceTo(controls.target), glide ? glide.position.distanceTo(glide.target) : 0];
    camera.near = radius / 100;
    camera.far = Math.max(radius * 100, ...away.map((distance) => distance + radius * 2));
    camera.updateProjectionMatrix();
  };
  /** The camera a fit goes to from the side `from` looks (target → position), or `from` itself when it frames. */
  const destination = (box: Box3, from: CameraPlace, keepIfFramed: boolean): CameraPlace & { distance: number } => {
    const distance = from.position.distanceTo(from.target);
    if (keepIfFramed) {
      const probe = camera.clone();
      probe.position.copy(from.position);
      probe.lookAt(from.target);
      if (meetsFraming(box, probe, options.size())) return { ...from, distance };
    }
    const direction = from.position.clone().sub(from.target).normalize();
    if (direction.lengthSq() === 0) direction.set(1, 0.8, 1).normalize();
    return fittedPlace(box, camera, direction, options.size());
  };
  const go = (to: CameraPlace & { distance: number }, how: 'now' | 'glide') => {
    const from = place(camera.position, controls.target);
    glide = null;
    if (from.position.distanceToSquared(to.position) < 1e-12 && from.target.distanceToSquared(to.target) < 1e-12)
      return;
    if (how === 'now' || options.reducedMotion()) {
      widenLimits(to.distance);
      put(to);
      return;
    }
    widenLimits(to.distance, from.position.distanceTo(from.target));
    glide = { ...place(to.position, to.target), from, started: null };
    options.startLoop();
  };
  const finish = () => {
    if (!glide) return;
    const end = glide;
    glide = null;
    widenLimits(end.position.distanceTo(end.target));
    put(end);
  };

  return {
    drive,
    get moved() {
      return moved;
    },
    keepMoved() {
      setMoved(true);
    },
    fit(box, how) {
      if (box.isEmpty()) return;
      if (!moved && !exact) {
        const current = place(camera.position, controls.target);
        // The current view is the owner's or a fitted one: its side is the one to keep.
        go(destination(box, current, true), how);
      }
      planes(box);
    },
    reset(box) {
      setMoved(false);
      const distance = home.position.distanceTo(home.target);
      if (exact) go({ ...place(home.position, home.target), distance }, 'glide');
      else if (!box.isEmpty()) go(destination(box, home, true), 'glide');
      if (!box.isEmpty()) planes(box);
    },
    step(time) {
      if (!glide) return false;
      glide.started ??= time;
      const progress = Math.min(1, (time - glide.started) / GLIDE_MS);
      if (progress >= 1) {
        finish();
        return false;
      }
      const s = ease(progress);
      const { from } = glide;
      const target = from.target.clone().lerp(glide.target, s);
      // The side turns along the shortest arc (a reset from the visitor's side) while the distance eases.
      const fromOffset = from.position.clone().sub(from.target);
      const toOffset = glide.position.clone().sub(glide.target);
      const turn = new Quaternion()
        .setFromUnitVectors(fromOffset.clone().normalize(), toOffset.clone().normalize())
        .slerp(new Quaternion(), 1 - s);
      const length = fromOffset.length() + (toOffset.length() - fromOffset.length()) * s;
      const offset = fromOffset.normalize().applyQuaternion(turn).multiplyScalar(length);
      put({ position: target.clone().add(offset), target });
      return true;
    },
    finish,
  };
}
