import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { CART_AUDIENCE } from '../wire/configurations.js';
import { AppError, notFound } from '../domain/errors.js';
import { cartJwks, type CartSigningKey, type PublicJwk } from '../domain/cart-keys.js';
import { resolveConfiguration, type CartRequest } from '../domain/cart-configuration.js';
import { decodeImageDataUrl } from '../domain/submission-input.js';
import type { ConfigurationRow } from '../platform/db/schema/index.js';
import { storageKeys } from '../platform/storage/index.js';
import type { UrlSigner } from '../platform/storage/signed-urls.js';
import { createConfigurationRepository } from '../repositories/configurations.js';
import { createProjectRepository } from '../repositories/projects.js';
import type { PageCursor } from '../repositories/pagination.js';
import { utcDay } from '../domain/visitor-events/receive-time.js';
import type { Scene } from '../wire/configurator/index.js';
import { MAX_SCREENSHOT_PIXELS, MAX_SCREENSHOT_SIDE } from '../wire/submit-limits.js';
import type { ServiceDeps } from './service-deps.js';
import type { ShareAccess } from './public-share/share-access.js';

/** A configuration's picture: one screenshot, smaller than a submit's. */
const MAX_CART_SCREENSHOT_BYTES = 1_000_000;

export interface CartSettings {
  signingKey: CartSigningKey | null;
  previousKeys: PublicJwk[];
  tokenTtlSeconds: number;
  retentionDays: number;
}

export interface ConfigurationServiceDeps extends ServiceDeps {
  cart: CartSettings;
  signer: UrlSigner;
  /** PUBLIC_BASE_URL: the tokens' issuer. */
  issuer: string;
  /** The parsed scene at the revision the share checks saw (public-share service). */
  parsedScene(access: ShareAccess): Promise<Scene>;
}

export interface CartInput extends CartRequest {
  /** One data URL, as sent. */
  screenshot?: string;
}

/**
 * Cart configurations (docs/cart.md): resolved and priced by the server against the current revision, stored
 * under a content hash, answered with an ES256 token a shop's server verifies against the JWKS.
 */
export function createConfigurationService(deps: ConfigurationServiceDeps) {
  const repo = createConfigurationRepository(deps.db);
  const projects = createProjectRepository(deps.db);
  const jwks = cartJwks(deps.cart.signingKey, deps.cart.previousKeys);

  function body(row: ConfigurationRow) {
    const total = row.price ? row.price.total * row.quantity : null;
    return {
      id: row.id,
      projectId: row.projectId,
      revision: row.revision,
      options: row.options,
      fields: row.fields,
      quantity: row.quantity,
      price: row.price ?? null,
      total,
      currency: row.price ? row.price.currency : null,
      sku: row.sku,
      summary: row.summary,
      // Signed for a year as model URLs are, the same URL all day, so a shop's cart pages cache the picture.
      imageUrl: row.imageKey ? deps.signer.signModel(row.imageKey) : null,
      createdAt: row.createdAt.toISOString(),
      expiresAt: row.expiresAt.toISOString(),
    };
  }

  async function tokenFor(configuration: ReturnType<typeof body>, key: CartSigningKey) {
    return new SignJWT({
      pid: configuration.projectId,
      rev: configuration.revision,
      sku: configuration.sku,
      qty: configuration.quantity,
      unit: configuration.price?.total ?? null,
      total: configuration.total,
      cur: configuration.currency,
    })
      .setProtectedHeader({ alg: 'ES256', kid: key.kid, typ: 'JWT' })
      .setIssuer(deps.issuer)
      .setAudience(CART_AUDIENCE)
      .setSubject(configuration.id)
      .setIssuedAt()
      .setExpirationTime(`${deps.cart.tokenTtlSeconds}s`)
      .sign(key.key);
  }

  return {
    /** The public keys tokens verify against: the signing key's, then those kept after a rotation. */
    jwks: () => jwks,

    /**
     * The checks before the body (docs/cart.md, "Errors"): the cart switched on for the project, then a signing key.
     * Answers the scene they read, for `create`.
     */
    async admit(access: ShareAccess): Promise<Scene> {
      const scene = await deps.parsedScene(access);
      if (!scene.settings.cart.enabled)
        throw new AppError(403, 'cart_disabled', 'This configurator has no add-to-cart (projectSettings.cart).');
      if (!deps.cart.signingKey)
        throw new AppError(503, 'cart_not_configured', 'The server has no cart signing key (CART_SIGNING_KEY).');
      return scene;
    },

    /** Creates the configuration, or finds it again (`created: false`); a fresh token either way. */
    async create(access: ShareAccess, scene: Scene, input: CartInput) {
      const key = deps.cart.signingKey!;
      const picture =
        input.screenshot === undefined
          ? null
          : decodeImageDataUrl(input.screenshot, 'body.screenshot', {
              maxBytes: MAX_CART_SCREENSHOT_BYTES,
              maxBytesText: '1 MB (1,000,000 bytes)',
              maxSide: MAX_SCREENSHOT_SIDE,
              maxPixels: MAX_SCREENSHOT_PIXELS,
            });
      const resolved = resolveConfiguration(scene, { id: access.projectId, revision: access.projectRevision }, input);
      const now = new Date();
      const expiresAt = new Date(now.getTime() + deps.cart.retentionDays * 86_400_000);
      // A picture is stored once: a repeat keeps the first (asked only when one came, to spare the query).
      const known = picture ? await repo.get(resolved.id, now) : null;
      let imageKey: string | null = known?.imageKey ?? null;
      if (!imageKey && picture) {
        const upload = randomBytes(6).toString('base64url');
        imageKey = storageKeys.configurationImage(access.workspaceId, resolved.id, upload, picture.mimeType.slice(6));
        await deps.storage.put(imageKey, picture.data, { contentType: picture.mimeType });
      }
      const { row, created } = await repo.createOrRepeat(
        {
          id: resolved.id,
          projectId: access.projectId,
          workspaceId: access.workspaceId,
          revision: access.projectRevision,
          options: resolved.options,
          fields: resolved.fields,
          quantity: input.quantity,
          price: resolved.price,
          sku: resolved.sku,
          summary: resolved.summary,
          imageKey,
          createdAt: now,
          expiresAt,
        },
        // The day's cart adds, repeats included, counted in the same statement.
        utcDay(now),
        now,
      );
      const configuration = body(row);
      return { created, configuration, ignored: resolved.ignored, token: await tokenFor(configuration, key) };
    },

    async get(id: string) {
      const row = await repo.get(id);
      if (!row) throw notFound('Configuration');
      return body(row);
    },

    async list(workspaceId: string, projectId: string, limit: number, cursor: PageCursor | null) {
      if (!(await projects.exists(workspaceId, projectId))) throw notFound('Project');
      const page = await repo.list(workspaceId, projectId, limit, cursor);
      return { configurations: page.items.map(body), nextCursor: page.nextCursor };
    },
  };
}
