/**
 * Immutable edits of the owner's `data`: each answers a new object and copies only what lies on the path, so
 * fields other editors keep (unknown to these panels) survive every edit.
 */
export type Json = Record<string, unknown>;
export type Path = readonly (string | number)[];

export const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The value at `path`, or undefined. */
export function getIn(root: unknown, path: Path): unknown {
  let at: unknown = root;
  for (const key of path) {
    if (Array.isArray(at) && typeof key === 'number') at = at[key];
    else if (isRecord(at) && Object.hasOwn(at, key)) at = at[String(key)];
    else return undefined;
  }
  return at;
}

/** A list at `path` (not a list: empty). */
export const listAt = (root: unknown, path: Path): unknown[] => {
  const value = getIn(root, path);
  return Array.isArray(value) ? value : [];
};

/** A copy of `root` with `value` at `path`; undefined removes the key (a list entry is set to undefined). */
export function setIn<T>(root: T, path: Path, value: unknown): T {
  if (path.length === 0) return value as T;
  const [key, ...rest] = path;
  if (typeof key === 'number') {
    const list = Array.isArray(root) ? [...(root as unknown[])] : [];
    list[key] = setIn(list[key], rest, value);
    return list as T;
  }
  const record: Json = isRecord(root) ? { ...root } : {};
  const next = setIn(record[key], rest, value);
  if (next === undefined) delete record[key];
  else Object.defineProperty(record, key, { value: next, enumerable: true, writable: true, configurable: true });
  return record as T;
}

/** The list with the entry at `index` moved by `delta` (clamped to the list). */
export function moveItem<T>(list: readonly T[], index: number, delta: number): T[] {
  const to = Math.max(0, Math.min(list.length - 1, index + delta));
  const next = [...list];
  const [item] = next.splice(index, 1);
  next.splice(to, 0, item);
  return next;
}

export const removeItem = <T>(list: readonly T[], index: number): T[] => list.filter((_, i) => i !== index);

/** An id made from a label, unique among `taken` and at most `max` characters: "Seat colour" → "seat-colour". */
export function uniqueSlug(label: string, taken: Iterable<string>, fallback = 'item', max = 64): string {
  const used = new Set(taken);
  const base =
    label
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, max - 4) || fallback;
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!used.has(candidate)) return candidate;
  }
}

/** The `id` fields of a list's entries, as strings. */
export const idsOf = (list: readonly unknown[]): string[] =>
  list.flatMap((entry) =>
    isRecord(entry) && (typeof entry.id === 'string' || typeof entry.id === 'number') ? [String(entry.id)] : [],
  );

/** What a person calls an entry: its label or name, else its id, else its position. */
export function entryName(entry: unknown, index: number, key: 'name' | 'label' = 'name'): string {
  if (isRecord(entry)) {
    const name = entry[key] ?? entry.label ?? entry.name;
    if (typeof name === 'string' && name) return name;
    if (typeof entry.id === 'string' || typeof entry.id === 'number') return String(entry.id);
  }
  return `#${index + 1}`;
}
