/** Model entries of `data.models` (docs/scene-format.md, "Model entries"): placement read and written. */
export interface Vec3 {
  x: number;
  y: number;
  z: number;
}

/** A stored vector as the entry gives it: `[x, y, z]` or `{ x, y, z }`; what is missing is `fallback`. */
export function readVec3(value: unknown, fallback: number): Vec3 {
  const list = Array.isArray(value) ? value : [];
  const record = !Array.isArray(value) && value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  const at = (i: number, key: keyof Vec3) => {
    const n = Number(Array.isArray(value) ? list[i] : record[key]);
    return Number.isFinite(n) ? n : fallback;
  };
  return { x: at(0, 'x'), y: at(1, 'y'), z: at(2, 'z') };
}

/** Rotation is stored in radians (Euler XYZ, as the element applies it); people type degrees. */
export const toDegrees = (radians: number) => Math.round(((radians * 180) / Math.PI) * 1000) / 1000;
export const toRadians = (degrees: number) => (degrees * Math.PI) / 180;

/** An id for a new model entry: the file's stem as a slug, made unique among `taken`. */
function modelEntryId(fileName: string, taken: ReadonlySet<string>): string {
  const stem =
    fileName
      .replace(/\.[^.]+$/, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 40) || 'model';
  let id = stem;
  for (let n = 2; taken.has(id); n++) id = `${stem}-${n}`;
  return id;
}

/** The model entry a new asset becomes: at the origin, unturned, at its own size. */
export function newModelEntry(asset: { id: string; fileName: string }, taken: ReadonlySet<string>) {
  return {
    id: modelEntryId(asset.fileName, taken),
    fileName: asset.fileName,
    assetId: asset.id,
    position: { x: 0, y: 0, z: 0 },
    rotation: { x: 0, y: 0, z: 0 },
    scale: { x: 1, y: 1, z: 1 },
  };
}
