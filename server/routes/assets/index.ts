import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { toAssetBody } from '../presenters/asset-body.js';
import { AssetList, AssetReply, UPLOAD_LIMITS } from '../../schemas/assets.js';
import { IdParams, PageQuery, errors, pageLimit } from '../../schemas/common.js';
import { per } from '../../schemas/rate-text.js';
import { decodeCursor } from '../../core/domain/page-cursor.js';
import { invalidRequest, serviceUnavailable } from '../../core/domain/errors.js';
import { ModelFileError } from '../../core/domain/models/model-file-error.js';
import { createCapacityLimit } from '../../core/platform/capacity-limit.js';
import { OutlineReply } from '../../core/wire/outline.js';

interface Upload {
  bytes: Buffer;
  /** The client's file name, reduced to its last path segment. */
  fileName: string;
  /** The optional `name` field. */
  name: string | undefined;
}

/** Megabytes as the interface counts them (50 MB = 50,000,000 bytes). */
const MB = 1_000_000;
/** Model checks one process runs at once (each holds up to 200 MB and the CPU). */
const MAX_CONCURRENT_CHECKS = 2;
const tooLarge = () => new ModelFileError('too_large', `The file is larger than ${UPLOAD_LIMITS.fileSize / MB} MB.`);

// eslint-disable-next-line no-control-regex -- control characters are what names lose
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/g;

/** A file name as a display name: no folders, no control characters, no extension. */
function cleanFileName(raw: string): string {
  const base = raw.replace(/\\/g, '/').split('/').pop() ?? '';
  return base.replace(CONTROL_CHARS, '').trim().slice(-255);
}

/**
 * Reads the multipart body: one file in field `file` (held in memory, at most 50 MB) and an
 * optional `name`. Parts are read in the order they come, so `name` may precede or follow the file.
 */
async function readUpload(request: FastifyRequest): Promise<Upload> {
  let file: { bytes: Buffer; fileName: string } | null = null;
  let name: string | undefined;
  for await (const part of request.parts()) {
    if (part.type === 'field') {
      if (part.fieldname !== 'name') continue;
      if (part.valueTruncated || typeof part.value !== 'string')
        throw invalidRequest('name is too long.', [{ field: 'body.name', message: 'is too long' }]);
      name = part.value;
      continue;
    }
    let bytes: Buffer;
    try {
      bytes = await part.toBuffer();
    } catch (error) {
      if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
      throw error;
    }
    // Busboy cuts the stream at the limit; toBuffer throws then, and this catches a cut it missed.
    if (part.file.truncated) throw tooLarge();
    if (part.fieldname === 'file') file = { bytes, fileName: cleanFileName(part.filename) };
  }
  if (!file)
    throw invalidRequest('Send the model as a multipart/form-data file in the field "file".', [
      { field: 'body.file', message: 'is required' },
    ]);
  return { ...file, name };
}

function displayName(upload: Upload): string {
  const given = upload.name?.replace(CONTROL_CHARS, '').trim();
  if (given !== undefined && given !== '') {
    if (given.length > UPLOAD_LIMITS.nameLength)
      throw invalidRequest(`name must be at most ${UPLOAD_LIMITS.nameLength} characters.`, [
        { field: 'body.name', message: 'is too long' },
      ]);
    return given;
  }
  const stem = path.parse(upload.fileName).name.trim();
  return (stem || 'Model').slice(0, UPLOAD_LIMITS.nameLength);
}

/** The workspace's 3D asset library (docs/api.md, Projects and assets): uploads run the same checks as imports. */
export default async function assetRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { signer, services } = app.deps;
  const { assets, deliveries } = services;
  const tags = ['assets'];

  // Registered here only: no other route accepts multipart bodies.
  await app.register(multipart, {
    throwFileSizeLimit: true,
    limits: {
      fileSize: UPLOAD_LIMITS.fileSize,
      files: 1,
      fields: 5,
      fieldSize: 4096,
      fieldNameSize: 100,
      parts: 10,
      headerPairs: 50,
    },
  });

  const checks = createCapacityLimit(MAX_CONCURRENT_CHECKS);

  /** Reads, checks and stores one upload; the route around it bounds how many run at once. */
  async function saveUpload(request: FastifyRequest, reply: FastifyReply) {
    const { workspaceId, personId } = request.auth;
    const upload = await readUpload(request);
    const row = await assets.upload(workspaceId, {
      bytes: upload.bytes,
      fileName: upload.fileName,
      name: displayName(upload),
      createdBy: personId,
    });
    return reply.code(201).send({ success: true, asset: toAssetBody(row, signer) });
  }

  app.post(
    '/assets',
    {
      onRequest: app.access('write'),
      // Model checks are CPU- and memory-heavy: bounded per workspace (RATE_LIMIT_UPLOAD).
      config: {
        rateLimit: {
          ...app.deps.config.rateLimits.upload,
          keyGenerator: (request: FastifyRequest) => request.auth.workspaceId,
        },
      },
      schema: {
        tags,
        summary: 'Upload a 3D model',
        description:
          'multipart/form-data with the field `file`: a `.glb`, a `.gltf` with embedded (data:) buffers, or a ' +
          '`.zip` of a `.gltf` ' +
          `with its resources (or of a \`.glb\`), at most ${UPLOAD_LIMITS.fileSize / MB} MB. Optional text field ` +
          `\`name\` (default: the file name without extension). ` +
          'The file runs the asset checks (safe unzip, Khronos glTF validator, conversion to GLB) and is stored as ' +
          'a GLB, with its outline (GET /assets/:id/outline). ' +
          "Errors: 422 invalid_file (details.messages in the validator's shape), 413 too_large, 422 " +
          'conversion_failed, 403 quota_exceeded, ' +
          `429 rate_limited (RATE_LIMIT_UPLOAD: ${per(app.deps.config.rateLimits.upload)} per workspace), 503 ` +
          `unavailable with Retry-After when the server is already checking ${MAX_CONCURRENT_CHECKS} uploads.`,
        consumes: ['multipart/form-data'],
        response: { 201: AssetReply, ...errors(400, 401, 403, 413, 415, 422, 429, 503) },
      },
    },
    async (request, reply) => {
      const { workspaceId } = request.auth;
      // Cheap refusal before reading 50 MB; the authoritative check runs again under a lock.
      await assets.assertBelowQuota(workspaceId);
      // Each check holds the file (up to 50 MB, 150 MB unzipped) and CPU: a few at once per
      // process, the rest are told to come back rather than queued in memory.
      const release = checks.tryAcquire(1);
      if (!release)
        throw serviceUnavailable('Too many uploads are being checked right now; retry in a few seconds.', 5);
      try {
        return await saveUpload(request, reply);
      } finally {
        release();
      }
    },
  );

  app.get(
    '/assets',
    {
      onRequest: app.access('read'),
      schema: {
        tags,
        summary: 'List assets, newest first',
        querystring: PageQuery,
        response: { 200: AssetList, ...errors(400, 401, 403) },
      },
    },
    async (request) => {
      const page = await assets.list(
        request.auth.workspaceId,
        pageLimit(request.query.limit),
        decodeCursor(request.query.cursor),
      );
      deliveries.askLazily(page.items);
      return { success: true, assets: page.items.map((row) => toAssetBody(row, signer)), nextCursor: page.nextCursor };
    },
  );

  app.get(
    '/assets/:id',
    {
      onRequest: app.access('read'),
      schema: {
        tags,
        summary: 'Read an asset',
        params: IdParams,
        response: { 200: AssetReply, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const row = await assets.get(request.auth.workspaceId, request.params.id);
      deliveries.askLazily([row]);
      return { success: true, asset: toAssetBody(row, signer) };
    },
  );

  app.get(
    '/assets/:id/outline',
    {
      onRequest: app.access('read'),
      schema: {
        tags,
        summary: "Read a model's outline: its parts, materials, variants, animations and bounds",
        description:
          'What the GLB names, read once when the asset was saved: `nodes` depth first (`parent` and `children` are ' +
          'indexes into `nodes`, `parent: null` for roots of the default scene, `name: null` when unnamed), ' +
          '`materials`, `variants` (KHR_materials_variants), `animations` (duration in seconds), `bounds` in ' +
          "scene space with the file's own transforms (all zeros when nothing is drawn), `triangles` and " +
          '`vertices` as drawn. Names are exactly as the file writes them. At most 10,000 nodes and 2,000 ' +
          'materials, then `truncated: true`. An asset saved before outlines existed gets its outline now. ' +
          "Another workspace's asset: 404.",
        params: IdParams,
        response: { 200: OutlineReply, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => {
      return { success: true, outline: await assets.outline(request.auth.workspaceId, request.params.id) };
    },
  );

  app.delete(
    '/assets/:id',
    {
      onRequest: app.access('write'),
      schema: {
        tags,
        summary: 'Delete an asset and its file',
        params: IdParams,
        response: { 200: Type.Object({ success: Type.Boolean() }), ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => {
      await assets.delete(request.auth.workspaceId, request.params.id);
      return { success: true };
    },
  );
}
