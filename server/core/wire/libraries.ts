import { Type } from 'typebox';

/**
 * The online libraries' wire shapes (docs/libraries.md), as TypeBox schemas:
 * the routes validate and document with them, the owner console types itself with `Static<typeof X>`.
 */
const Provider = Type.Union([Type.Literal('library_a'), Type.Literal('library_b'), Type.Literal('library_c')]);
const Obj = (description: string) => Type.Object({}, { additionalProperties: true, description });

const LibraryItem = Type.Object(
  {
    provider: Provider,
    providerAssetId: Type.String(),
    name: Type.String(),
    author: Type.String(),
    sourceUrl: Type.String(),
    thumbnailUrl: Type.String(),
    tags: Type.Array(Type.String()),
    categories: Type.Array(Type.String()),
    license: Type.String({ description: 'Human-readable licence text.' }),
    licenseId: Type.String({
      description: 'cc0, by, by-sa, by-nd, by-nc, by-nc-sa, by-nc-nd, st, free-st, ed or unknown.',
    }),
    licenseUrl: Type.Union([Type.String(), Type.Null()]),
    licenseTier: Type.Union([Type.Literal('allowed'), Type.Literal('conditions'), Type.Literal('blocked')]),
    commercialUseAllowed: Type.Boolean(),
    attributionRequired: Type.Boolean(),
    availableFormats: Type.Array(Type.String()),
    polygonCount: Type.Optional(Type.Integer({ description: 'Only when the library reports it.' })),
    importable: Type.Boolean(),
    notImportableReason: Type.Optional(Type.String()),
    description: Type.Optional(Type.String()),
    publishedAt: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    downloadSize: Type.Optional(
      Type.Integer({ description: 'Bytes of the download, when the library says (details).' }),
    ),
  },
  { description: 'A library model. Never holds a download URL.' },
);

export const SearchQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 200, description: 'Search text.' })),
  providers: Type.Optional(Type.String({ maxLength: 100, description: 'Comma-separated library ids (default: all).' })),
  category: Type.Optional(
    Type.String({
      maxLength: 40,
      description:
        'furniture, architecture, vehicles, nature, animals, people, electronics, food, fashion, art, history, props.',
    }),
  ),
  license: Type.Optional(
    Type.String({ maxLength: 20, description: 'cc0, by, by-sa, by-nd, by-nc, by-nc-sa, by-nc-nd.' }),
  ),
  commercial: Type.Optional(
    Type.String({ maxLength: 1, description: 'Default 1: models without a clear commercial right are hidden.' }),
  ),
  format: Type.Optional(Type.String({ maxLength: 10, description: 'glb or gltf.' })),
  maxPolygons: Type.Optional(
    Type.String({ maxLength: 10, description: 'Integer. Libraries without polygon counts are skipped.' }),
  ),
  pageSize: Type.Optional(Type.String({ maxLength: 3, description: 'Per library, 1 to 48 (default 24).' })),
  cursor: Type.Optional(
    Type.String({ maxLength: 4000, description: 'nextCursor of the previous page, sent with the same filters.' }),
  ),
});

const LibraryStatus = Type.Object({
  provider: Provider,
  status: Type.Union([Type.Literal('ok'), Type.Literal('error'), Type.Literal('skipped'), Type.Literal('exhausted')]),
  count: Type.Integer(),
  total: Type.Optional(Type.Integer()),
  message: Type.Optional(Type.String()),
  notices: Type.Optional(Type.Array(Type.String())),
});

export const SearchReply = Type.Object({
  success: Type.Boolean(),
  items: Type.Array(LibraryItem),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
  providers: Type.Array(LibraryStatus),
});

export const ItemParams = Type.Object({
  provider: Type.String({ maxLength: 20 }),
  id: Type.String({ minLength: 1, maxLength: 200 }),
});

export const ItemReply = Type.Object({
  success: Type.Boolean(),
  asset: LibraryItem,
  alreadyImported: Type.Union([Type.Object({ assetId: Type.String() }), Type.Null()]),
  provider: Type.Object({ name: Type.String(), credit: Type.String(), homepage: Type.String() }),
});

const Connection = Type.Object({
  connected: Type.Boolean(),
  username: Type.Union([Type.String(), Type.Null()]),
  displayName: Type.Union([Type.String(), Type.Null()]),
  profileUrl: Type.Union([Type.String(), Type.Null()]),
  connectedAt: Type.Union([Type.String(), Type.Null()]),
});

export const ProvidersReply = Type.Object({
  success: Type.Boolean(),
  providers: Type.Array(
    Type.Object({
      id: Provider,
      name: Type.String(),
      homepage: Type.String(),
      credit: Type.String(),
      requiresAccountForImport: Type.Boolean(),
      supports: Type.Object({
        category: Type.Boolean(),
        license: Type.Boolean(),
        maxPolygons: Type.Boolean(),
        format: Type.Boolean(),
      }),
      importAvailable: Type.Boolean(),
      connection: Type.Optional(Connection),
      notice: Type.Optional(Type.String()),
    }),
  ),
  categories: Type.Array(Type.Object({ id: Type.String(), label: Type.String() })),
});

export const ImportBody = Type.Object({
  provider: Type.String({ maxLength: 20 }),
  providerAssetId: Type.String({ maxLength: 200 }),
  acknowledgeLicense: Type.Optional(Type.Boolean()),
  category: Type.Optional(
    Type.String({ maxLength: 64, description: 'An asset category id, kept with the imported asset.' }),
  ),
});

export const ImportJob = Type.Object({
  id: Type.String(),
  status: Type.Union([
    Type.Literal('queued'),
    Type.Literal('downloading'),
    Type.Literal('processing'),
    Type.Literal('saving'),
    Type.Literal('completed'),
    Type.Literal('failed'),
  ]),
  progress: Type.Integer({ minimum: 0, maximum: 100 }),
  stage: Type.String(),
  bytesReceived: Type.Number(),
  bytesTotal: Type.Union([Type.Number(), Type.Null()]),
  provider: Provider,
  providerAssetId: Type.String(),
  assetId: Type.Union([Type.String(), Type.Null()]),
  readiness: Type.Union([Obj('{ score, level, checks: [{ id, label, status, value, limit, message }] }'), Type.Null()]),
  notices: Type.Union([Type.Array(Type.String()), Type.Null()]),
  error: Type.Union([Type.Object({ code: Type.String(), message: Type.String() }), Type.Null()]),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

/** An import job's `readiness`, which the schema above leaves open (scored in domain/models/readiness.ts). */
export interface ImportReadiness {
  score: number;
  level: 'ready' | 'needs-work' | 'not-ready';
  checks: Array<{
    id: string;
    label: string;
    status: 'pass' | 'warn' | 'fail';
    value: number | string | null;
    limit: number | string | null;
    message: string;
  }>;
}

export const ImportAccepted = Type.Object({ success: Type.Boolean(), job: ImportJob });
export const ImportReused = Type.Object({
  success: Type.Boolean(),
  reused: Type.Literal(true),
  assetId: Type.String(),
  asset: Obj('The asset the workspace already has (GET /assets shape).'),
});
export const ImportJobReply = Type.Object({ success: Type.Boolean(), job: ImportJob });
export const ImportJobList = Type.Object({ success: Type.Boolean(), jobs: Type.Array(ImportJob) });

export const ConnectionReply = Type.Object({
  success: Type.Boolean(),
  available: Type.Boolean(),
  connected: Type.Boolean(),
  ...Type.Omit(Connection, ['connected']).properties,
});
export const ConnectReply = Type.Object({
  success: Type.Boolean(),
  url: Type.String({ description: "The library's authorize URL: single use, valid 10 minutes." }),
});
export const DisconnectReply = Type.Object({ success: Type.Boolean(), connected: Type.Literal(false) });
export const CallbackQuery = Type.Object({
  code: Type.Optional(Type.String({ maxLength: 2000 })),
  state: Type.Optional(Type.String({ maxLength: 200 })),
  error: Type.Optional(Type.String({ maxLength: 200 })),
});
