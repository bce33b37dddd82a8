import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import type { Db } from '../../platform/db/client.js';
import { signingWindow, type UrlSigner } from '../../platform/storage/signed-urls.js';
import { createShareRepository } from '../../repositories/shares.js';
import { AppError, notFound } from '../../domain/errors.js';
import { frameAncestors } from '../../domain/embed-hosts.js';
import { decompressScene, type ProjectData } from '../../domain/scene.js';
import {
  buildPublicProject,
  etagMatches,
  type PublicProject,
  modelUrls,
  publicEtag,
  referencedAssetIds,
} from '../../domain/public-payload.js';
import { createPasswordCheck } from './password-check.js';
import { createShareStateCache } from './share-state-cache.js';
import { parseScene, type Scene } from '../../wire/configurator/index.js';
import {
  checkShare,
  isWellFormedShareRequest,
  shareNotFound,
  toShareAccess,
  type ShareAccess,
  type ShareRequest,
} from './share-access.js';

/** Form fields kept per project revision, by the size of their JSON; larger ones are not kept. */
const FORM_FIELDS_CACHE_BYTES = 16 * 1024 * 1024;
const FORM_FIELDS_ENTRY_BYTES = 1024 * 1024;

/** A project of a workspace, for the model files its payload may sign. */
export interface ProjectPlace {
  workspaceId: string;
  projectId: string;
}

/** The public read's 200 body (docs/api.md, Public read). */
export interface PublicPayload {
  success: true;
  project: PublicProject;
}

/** The answer to a public read: a 304 (`body` null) or a 200 with the serialised payload. */
export interface PublicRead {
  etag: string;
  body: Buffer | null;
  /** `private, no-cache` for password shares: a shared cache must never keep them. */
  cacheControl: string;
  /** `frame-ancestors` built from the embed hosts. */
  contentSecurityPolicy: string;
}

export interface PublicShareServiceDeps {
  db: Db;
  /** Fail-fast Redis of the request path (password attempts, the share-change sequence). */
  redis: Redis;
  /** Prefix of this deployment's Redis keys. */
  prefix: string;
  signer: UrlSigner;
  /** Models that get a signed URL per read (SIGNED_MODEL_LIMIT). */
  signedModelLimit: number;
  /** Whether the server can sign cart tokens: without, every read says `cart.enabled: false`. */
  cartAvailable: boolean;
  /** Asks, in the background, for the delivery files of assets a read served that never had one asked for. */
  askDeliveries?(assetIds: string[]): void;
}

/**
 * The public share (docs/api.md, Public read): the checks, the read with its ETag, and model-urls. State is kept in
 * memory between changes (share-state-cache.ts), so reading an unchanged share costs no Postgres query.
 */
export function createPublicShareService(deps: PublicShareServiceDeps) {
  const repo = createShareRepository(deps.db);
  const shareStates = createShareStateCache((projectId) => repo.findPublic(projectId));
  const checkPassword = createPasswordCheck(deps.redis, deps.prefix, shareStates);
  // The project's form fields per revision, so a submit does not decompress the whole scene.
  const formFieldsByRevision = new LRUCache<string, { fields: unknown; size: number }>({
    maxSize: FORM_FIELDS_CACHE_BYTES,
    maxEntrySize: FORM_FIELDS_ENTRY_BYTES,
    sizeCalculation: (entry) => entry.size,
  });

  const scenesByRevision = new LRUCache<string, { scene: Scene; size: number }>({
    maxSize: FORM_FIELDS_CACHE_BYTES,
    maxEntrySize: FORM_FIELDS_ENTRY_BYTES,
    sizeCalculation: (entry) => entry.size,
  });

  async function sceneOf(access: ShareAccess) {
    const stored = await repo.scene(access.workspaceId, access.projectId);
    if (!stored) throw notFound('Share');
    return stored;
  }

  /** Signed model URLs of the given models, as the read would give them inside the same signing window. */
  async function signModels(where: ProjectPlace, data: ProjectData, window: number) {
    const { keys: assetKeys, unasked } = await repo.assetKeys(where.workspaceId, referencedAssetIds(data.models ?? []));
    if (unasked.length > 0) deps.askDeliveries?.(unasked);
    return {
      files: { workspaceId: where.workspaceId, projectId: where.projectId, assetKeys },
      sign: (key: string) => deps.signer.signModel(key, window),
    };
  }

  /** The public read's 200 body for this data: the one builder of the read and the owner's preview. */
  async function payloadOf(
    where: ProjectPlace,
    project: { name: string; type: string },
    data: ProjectData,
    window: number,
  ): Promise<PublicPayload> {
    const built = buildPublicProject({ id: where.projectId, name: project.name, type: project.type }, data, {
      signedModelLimit: deps.signedModelLimit,
      cartAvailable: deps.cartAvailable,
      ...(await signModels(where, data, window)),
    });
    return { success: true, project: built };
  }

  return {
    /** The in-memory share state, for the share-change feed to keep current. */
    shareStates,

    /**
     * The read's checks (docs/api.md, Public read) after the public key and the rate limit: project, token and
     * enabled (one 404), billing (402), embed host (403), password (401/429).
     */
    async authorize(request: ShareRequest): Promise<ShareAccess> {
      if (!isWellFormedShareRequest(request)) throw shareNotFound();
      const share = await shareStates.get(request.projectId.toLowerCase(), request.memoryCheck);
      checkShare(share, request);
      if (share.requirePassword) {
        try {
          await checkPassword(share, request.password, request.ip);
        } catch (error) {
          // The password prompt is framed under the same rule as the payload (docs/api.md, Public read).
          if (error instanceof AppError)
            throw new AppError(error.statusCode, error.code, error.message, error.extra, {
              ...error.headers,
              'content-security-policy': frameAncestors(share.domainRestrictions),
            });
          throw error;
        }
      }
      return toShareAccess(share);
    },

    /**
     * The payload, or a 304 when `ifNoneMatch` holds its ETag. The ETag is decided from
     * revisions alone; a 200 body is built once per project revision and signing window.
     */
    async read(access: ShareAccess, ifNoneMatch: string | undefined): Promise<PublicRead> {
      const window = signingWindow();
      const etagOf = (projectRevision: number) =>
        publicEtag({
          projectId: access.projectId,
          projectRevision,
          shareRevision: access.shareRevision,
          assetsRevision: access.assetsRevision,
          signingWindow: window,
          signedModelLimit: deps.signedModelLimit,
          cartAvailable: deps.cartAvailable,
        });
      const headers = {
        cacheControl: access.requirePassword ? 'private, no-cache' : 'no-cache',
        contentSecurityPolicy: frameAncestors(access.domainRestrictions),
      };

      const etag = etagOf(access.projectRevision);
      if (etagMatches(ifNoneMatch, etag)) return { etag, body: null, ...headers };
      const kept = shareStates.body(access.projectId, etag);
      if (kept) return { etag, body: kept, ...headers };

      const stored = await sceneOf(access);
      // The project may have changed since the checks: label the body with what was read.
      const bodyEtag = etagOf(stored.revision);
      const payload = await payloadOf(access, stored, decompressScene(stored.scene), window);
      const body = Buffer.from(JSON.stringify(payload));
      shareStates.keepBody(access.projectId, bodyEtag, body);
      return { etag: bodyEtag, body, ...headers };
    },

    /**
     * What the read would answer if the project held `data` (an owner's unsaved edits): built like the read's
     * body, in this signing window, with no share check, budget, cache or ETag.
     */
    async previewPayload(
      where: ProjectPlace,
      project: { name: string; type: string },
      data: ProjectData,
    ): Promise<PublicPayload> {
      return payloadOf(where, project, data, signingWindow());
    },

    /** Signed URLs for any of the project's models (the missing-URL fallback); unknown or file-less ones left out. */
    async modelUrls(access: ShareAccess, modelIds: readonly string[]): Promise<Record<string, string>> {
      const data = decompressScene((await sceneOf(access)).scene);
      const models = (data.models ?? []).filter(
        (model) => model && typeof model === 'object' && modelIds.includes(String(model.id)),
      );
      const { files, sign } = await signModels(access, { ...data, models }, signingWindow());
      return modelUrls(data, modelIds, files, sign);
    },

    /** The project's form fields (sceneData.formFields) at the revision the checks saw. */
    async formFields(access: ShareAccess): Promise<unknown> {
      const cached = formFieldsByRevision.get(`${access.projectId}|${access.projectRevision}`);
      if (cached) return cached.fields;
      const stored = await sceneOf(access);
      const fields = decompressScene(stored.scene).sceneData?.formFields;
      const size = Math.max(1, Buffer.byteLength(JSON.stringify(fields ?? null)));
      formFieldsByRevision.set(`${access.projectId}|${stored.revision}`, { fields, size });
      return fields;
    },

    /** The parsed scene (docs/scene-format.md) at the revision the checks saw, kept per revision. */
    async parsedScene(access: ShareAccess): Promise<Scene> {
      const key = `${access.projectId}|${access.projectRevision}`;
      const cached = scenesByRevision.get(key);
      if (cached) return cached.scene;
      const stored = await sceneOf(access);
      const data = decompressScene(stored.scene);
      const { scene } = parseScene(data);
      const size = Math.max(1, Buffer.byteLength(JSON.stringify(data.sceneData ?? null)));
      scenesByRevision.set(`${access.projectId}|${stored.revision}`, { scene, size });
      return scene;
    },
  };
}
