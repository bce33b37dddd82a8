import { Color, MathUtils, PMREMGenerator, type Texture, type WebGLRenderer } from 'three';
import type { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { RoomEnvironment } from 'three/addons/environments/RoomEnvironment.js';
import type { SceneSettings } from '#core/wire/configurator/types.js';

/**
 * The room environment's blur (radians). The blur, not the face size, sets the reflections' sharpness, so 128-pixel
 * faces serve: a quarter of three's default prefilter cost, the largest single cost of a first frame in software WebGL.
 */
const ENVIRONMENT_SIGMA = 0.04;

/** The image-based lighting of `lighting.environment` (docs/scene-format.md, Lighting): the room, or none. */
export function environmentMap(
  renderer: WebGLRenderer,
  environment: SceneSettings['lighting']['environment'],
  size: number,
): Texture | null {
  if (environment === 'none') return null;
  const generator = new PMREMGenerator(renderer);
  const texture = generator.fromScene(new RoomEnvironment(), ENVIRONMENT_SIGMA, 0.1, 100, { size }).texture;
  generator.dispose();
  return texture;
}

/** `display.background`: a colour (sRGB), or null for a transparent canvas. */
export const backgroundOf = (background: string): Color | null =>
  background === 'transparent' ? null : new Color().setStyle(background);

/** `shadows: auto` follows the render quality (on at `high`). */
export const shadowsOn = (shadows: SceneSettings['lighting']['shadows'], qualityShadows: boolean): boolean =>
  shadows === 'auto' ? qualityShadows : shadows;

/** The `camera` keys on OrbitControls; position and target stay in `data.camera`. */
export function applyCameraLimits(controls: OrbitControls, camera: SceneSettings['camera']): void {
  if (camera.minDistance !== null) controls.minDistance = camera.minDistance;
  if (camera.maxDistance !== null) controls.maxDistance = camera.maxDistance;
  controls.minPolarAngle = MathUtils.degToRad(camera.minPolarAngle);
  controls.maxPolarAngle = MathUtils.degToRad(camera.maxPolarAngle);
  controls.enablePan = camera.enablePan;
  controls.enableZoom = camera.enableZoom;
}
