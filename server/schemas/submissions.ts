import { Type } from 'typebox';
import { Uuid } from './common.js';
import { SharePasswordHeader } from './shares.js';
import { ClientPriceSchema } from '../core/wire/request-price-schema.js';
import {
  MAX_OBJECT_JSON_BYTES,
  MAX_SCREENSHOT_PIXELS,
  MAX_SCREENSHOT_SIDE,
  MAX_SCREENSHOTS,
  MAX_SUMMARY_CHARS,
  SUBMIT_BODY_LIMIT,
} from '../core/wire/submit-limits.js';

/** Shapes of the public submit route and the owner request routes (docs/api.md, Submit and Requests). */
export { RequestListReply, RequestReply, RequestStatusBody, type RequestStatus } from '../core/wire/requests.js';

// The body limit lives with the wire types (the BFF and the element need it too).
export { SUBMIT_BODY_LIMIT };

/** Optional headers of submit (the public key headers are in the security scheme). */
export const SubmitHeaders = Type.Object({
  'x-share-password': SharePasswordHeader,
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description:
        'The same key for the same project within 24 hours answers the first requestId and stores nothing new.',
    }),
  ),
});

export const SubmitBody = Type.Object(
  {
    formData: Type.Object(
      {},
      {
        additionalProperties: true,
        description:
          "The visitor's answers, keyed by form field id. Checked against the project's sceneData.formFields: " +
          'required ones present and not empty, each answer by its field type (email address shape, tel, number ' +
          'min/max/step, select options, checkbox boolean, minLength/maxLength); each bad field is a 400 ' +
          `invalid_request whose details name body.formData.<id>. At most ${MAX_OBJECT_JSON_BYTES / 1024} KB as JSON.`,
      },
    ),
    selectedOptions: Type.Optional(
      Type.Object(
        {},
        {
          additionalProperties: true,
          default: {},
          description:
            'The chosen options, usually option block id → choice id. ' +
            `At most ${MAX_OBJECT_JSON_BYTES / 1024} KB as JSON.`,
        },
      ),
    ),
    configurationSummary: Type.Optional(
      Type.String({
        maxLength: MAX_SUMMARY_CHARS,
        default: '',
        description: 'Human-readable summary of the configuration.',
      }),
    ),
    screenshots: Type.Optional(
      Type.Array(Type.String({ description: 'A data URL: data:image/png|jpeg|webp;base64,...' }), {
        maxItems: MAX_SCREENSHOTS,
        default: [],
        description:
          `Up to ${MAX_SCREENSHOTS} data URLs of type image/png, image/jpeg or image/webp, ` +
          'at most 5 MB (5,000,000 bytes) each once decoded; the bytes must be an image of the declared type ' +
          `whose header gives its size, at most ${MAX_SCREENSHOT_SIDE} pixels per side ` +
          `and ${MAX_SCREENSHOT_PIXELS} pixels (4096 × 4096) in all (else 400 naming body.screenshots.<i>).`,
      }),
    ),
    price: Type.Optional(ClientPriceSchema),
  },
  {
    description:
      "A visitor's form submission. The request is stored (with its screenshots) before the answer is sent; " +
      'screenshots, PDF, e-mail and webhooks follow in the background. ' +
      'Optional header Idempotency-Key (1 to 200 characters): the same key for the same project within 24 hours ' +
      'returns the first requestId and stores nothing new. ' +
      `The body may be up to ${SUBMIT_BODY_LIMIT / 1024 / 1024} MiB.`,
  },
);

export const SubmitReply = Type.Object({
  success: Type.Literal(true),
  requestId: Type.String({ description: 'The id of the stored request.' }),
});

export const RequestParams = Type.Object({ id: Uuid, requestId: Uuid });
