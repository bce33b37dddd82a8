import { Color, Quaternion, Vector3, type Material } from 'three';

type Copyable = Color | Vector3 | Quaternion;

/**
 * The base value of every property an effect has written (docs/scene-format.md, Effects: undo is exact, and only
 * properties some effect touches are reset). Each rebuild first puts them all back.
 */
export class BaseValues {
  private readonly values = new Map<object, Map<string, unknown>>();

  /** Sets `target[key]`, remembering the base value the first time. */
  set<T extends object, K extends keyof T & string>(target: T, key: K, value: T[K]): void {
    this.remember(target, key);
    if (PROGRAM_KEYS.has(key)) this.setProgramKey(target as unknown as Material, key, value);
    else target[key] = value;
  }

  /** Copies into the vector, colour or quaternion at `target[key]`, remembering its base value first. */
  copy<T extends object, K extends keyof T & string>(target: T, key: K, value: Copyable): void {
    this.remember(target, key);
    (target[key] as { copy(value: Copyable): unknown }).copy(value);
  }

  /** Puts every remembered property back to its base value. */
  restore(): void {
    for (const [target, properties] of this.values) {
      for (const [key, base] of properties) {
        const current = (target as Record<string, unknown>)[key];
        if (PROGRAM_KEYS.has(key)) this.setProgramKey(target as Material, key, base);
        else if (isCopyable(base)) (current as { copy(value: Copyable): unknown }).copy(base);
        else (target as Record<string, unknown>)[key] = base;
      }
    }
  }

  private remember(target: object, key: string): void {
    const properties = this.values.get(target) ?? new Map<string, unknown>();
    this.values.set(target, properties);
    if (properties.has(key)) return;
    const value = (target as Record<string, unknown>)[key];
    properties.set(key, isCopyable(value) ? value.clone() : value);
  }

  /** A program key switching on or off needs another shader, which three does not check per draw. */
  private setProgramKey(material: Material, key: string, value: unknown): void {
    const target = material as unknown as Record<string, unknown>;
    if (Boolean(target[key]) !== Boolean(value)) material.needsUpdate = true;
    target[key] = value;
  }
}

/**
 * Material properties compiled into the shader: a map's presence, and `transparent` (an opaque program writes alpha
 * 1, so a material made translucent without a new program keeps drawing solid).
 */
const PROGRAM_KEYS = new Set(['map', 'transparent']);

/** Which program keys are on: when this changes, the material needs a new shader. */
export const programState = (material: Material): string =>
  [...PROGRAM_KEYS].map((key) => Boolean((material as unknown as Record<string, unknown>)[key])).join();

const isCopyable = (value: unknown): value is Copyable =>
  value instanceof Color || value instanceof Vector3 || value instanceof Quaternion;
