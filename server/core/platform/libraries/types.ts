import type { ProviderId } from '../db/schema/index.js';
import type { CategoryId } from '../../domain/libraries/categories.js';
import type { LicenseFilter } from '../../domain/libraries/licences.js';
import type { LibraryItem as WireLibraryItem } from '../../wire/library-item.js';

/**
 * What every library adapter offers, in our neutral item shape (wire/library-item.ts). A download URL is
 * only ever handed out in a `DownloadPlan`, which only the import job asks for.
 */
export type LibraryItem = WireLibraryItem<ProviderId, CategoryId>;

export interface LibrarySearchQuery {
  q: string;
  category?: CategoryId;
  license?: LicenseFilter;
  format?: 'glb' | 'gltf';
  maxPolygons?: number;
  /** Items wanted from this library (1..48). */
  pageSize: number;
  /** The adapter's own page state from its previous answer (null: the first page). */
  page: unknown;
}

export interface LibrarySearchPage {
  items: LibraryItem[];
  total?: number;
  /** The adapter's page state for the next page; null when there is none. */
  next: unknown;
  notices?: string[];
}

/** Thrown by `search` for a filter the library cannot apply: the library reports `skipped`. */
export class SearchSkipped extends Error {
  override name = 'SearchSkipped';
}

/** Where the model's files are, as the library itself returned them for that model. */
export type DownloadPlan =
  | { kind: 'archive'; url: string; size?: number; fileName: string }
  | { kind: 'glb'; url: string; size?: number; fileName: string }
  | { kind: 'files'; main: DownloadFile; includes: DownloadFile[] };

export interface DownloadFile {
  /** Relative path inside the model's folder (checked: no `..`, no absolute paths). */
  path: string;
  url: string;
  size?: number;
  md5?: string;
}

export interface CallContext {
  signal: AbortSignal;
  /** library_b: the person's OAuth access token (downloads). */
  accessToken?: string;
}

export interface LibraryAdapter {
  id: ProviderId;
  name: string;
  homepage: string;
  /** The credit the library requires wherever its content is shown. */
  credit: string;
  requiresAccountForImport: boolean;
  /** Which filters the library applies itself (server-side). */
  supports: { category: boolean; license: boolean; maxPolygons: boolean; format: boolean };
  /** A notice for the providers list (a demo key, say); null when there is nothing to say. */
  notice(): string | null;
  /** Whether imports from this library can run on this platform (library_b needs OAuth client credentials). */
  importAvailable(): boolean;
  search(query: LibrarySearchQuery, ctx: CallContext): Promise<LibrarySearchPage>;
  /** The model with details; null when the library does not know it. */
  get(id: string, ctx: CallContext): Promise<LibraryItem | null>;
  downloadPlan(id: string, ctx: CallContext): Promise<DownloadPlan>;
}

/** The bytes a plan downloads, when every part says its size. */
export function planSize(plan: DownloadPlan): number | undefined {
  if (plan.kind !== 'files') return plan.size;
  const parts = [plan.main, ...plan.includes];
  return parts.every((p) => typeof p.size === 'number') ? parts.reduce((sum, p) => sum + (p.size ?? 0), 0) : undefined;
}
