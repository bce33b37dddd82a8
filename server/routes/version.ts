import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';

import { API_VERSION } from '../core/http/api-version.js';

export { API_VERSION };

const V316_SUMMARY =
  'Adds the online 3D libraries (search, item details, library list, imports, job polling, the library_b ' +
  'connection endpoints), ' +
  'makes /external-assets/* and /external-providers/* session-token-only, and adds externalSource, readinessScore ' +
  'and readinessLevel to items of GET /assets.';

/** The interface's changelog, newest first. Dates and summaries the interface does not give are null. */
const CHANGELOG = [
  { version: 'v3.16', kind: 'minor', date: null, summary: V316_SUMMARY },
  ...Array.from({ length: 11 }, (_, i) => ({ version: `v3.${15 - i}`, kind: 'minor', date: null, summary: null })),
  { version: 'v3.4', kind: 'patch', date: null, summary: null },
  { version: 'v3.3', kind: 'minor', date: null, summary: null },
  { version: 'v3.2', kind: 'minor', date: null, summary: null },
  { version: 'v3.1.0', kind: 'minor', date: null, summary: null },
  { version: 'v3.0.0', kind: 'major', date: null, summary: null },
] as const;

const Entry = Type.Object({
  version: Type.String(),
  kind: Type.String(),
  date: Type.Union([Type.String(), Type.Null()]),
  summary: Type.Union([Type.String(), Type.Null()]),
});

export default async function versionRoutes(app: FastifyInstance) {
  app.get(
    '/version',
    {
      schema: {
        tags: ['meta'],
        security: [],
        response: { 200: Type.Object({ success: Type.Boolean(), version: Type.String(), kind: Type.String() }) },
      },
    },
    async () => ({ success: true, version: API_VERSION, kind: 'minor' }),
  );
  app.get(
    '/changelog',
    {
      schema: {
        tags: ['meta'],
        security: [],
        response: { 200: Type.Object({ success: Type.Boolean(), entries: Type.Array(Entry) }) },
      },
    },
    async () => ({ success: true, entries: CHANGELOG }),
  );
}
