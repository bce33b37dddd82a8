import type { LibrariesSettings } from '../config/pieces.js';
import type { ProviderId } from '../db/schema/index.js';
import { createLibraryHttp, type LibraryHttp } from './library-http.js';
import { createLibraryA } from './library-a.js';
import { createLibraryB, type LibraryB } from './library-b.js';
import { createLibraryC } from './library-c.js';
import type { LibraryAdapter } from './types.js';

export type { LibraryAdapter, LibraryItem, LibrarySearchQuery, LibrarySearchPage, DownloadPlan } from './types.js';
export { SearchSkipped, planSize } from './types.js';
export { DownloadTooLargeError } from './library-http.js';
export type { LibraryB } from './library-b.js';

/** The largest download an import takes (docs/libraries.md, Imports: 80 MB). */
export const MAX_DOWNLOAD_BYTES = 80_000_000;
/** The largest model an import keeps (docs/libraries.md, Imports: 50 MB). */
export const MAX_MODEL_BYTES = 50_000_000;

export interface Libraries {
  http: LibraryHttp;
  /** In the interface's order. */
  list: LibraryAdapter[];
  byId: Record<ProviderId, LibraryAdapter>;
  library_b: LibraryB;
  close(): Promise<void>;
}

/** The three adapters, from the LIBRARY_* settings, over one guarded HTTP client. */
export function createLibraries(settings: LibrariesSettings): Libraries {
  const http = createLibraryHttp({ allowPrivate: settings.libraryAllowPrivate });
  const a = createLibraryA({ apiUrl: settings.libraries.library_a.apiUrl, http, maxDownloadBytes: MAX_DOWNLOAD_BYTES });
  const b = createLibraryB({ ...settings.libraries.library_b, http });
  const c = createLibraryC({ ...settings.libraries.library_c, http });
  return {
    http,
    list: [a, b, c],
    byId: { library_a: a, library_b: b, library_c: c },
    library_b: b,
    close: () => http.close(),
  };
}
