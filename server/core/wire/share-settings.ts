import { Type } from 'typebox';

/**
 * The owner share settings routes' body and answer (docs/api.md, Share settings), as TypeBox
 * schemas: the routes validate and document with them, the owner console types itself with them.
 */

/** At most this many embed host rules per share. */
const MAX_HOST_RULES = 50;

export const ShareSettings = Type.Object({
  isEnabled: Type.Boolean({ description: 'Whether the share link and embeds are live.' }),
  shareToken: Type.String({ description: 'The link token: https://<app_domain>/share/<projectId>/<shareToken>.' }),
  domainRestrictions: Type.Array(Type.String(), { description: 'Allowed embed hosts; empty means any host.' }),
  requirePassword: Type.Boolean({ description: 'Public access needs X-Share-Password.' }),
});

export const ShareSettingsReply = Type.Object({ success: Type.Boolean(), settings: ShareSettings });

export const ShareSettingsInput = Type.Object(
  {
    isEnabled: Type.Optional(Type.Boolean({ default: false })),
    requirePassword: Type.Optional(Type.Boolean({ default: false })),
    password: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description:
          'Required with requirePassword: true (ignored otherwise). ' +
          'Write-only: stored as a scrypt hash, never returned.',
      }),
    ),
    domainRestrictions: Type.Optional(
      Type.Array(Type.String({ maxLength: 300 }), {
        maxItems: MAX_HOST_RULES,
        default: [],
        description:
          'Host names (lower-cased on save); `*.example.com` allows its sub-domains; ' +
          'an optional `:port` (without one, any port).',
      }),
    ),
  },
  { description: 'The whole settings object: omitted fields revert to their defaults. The token is kept.' },
);
