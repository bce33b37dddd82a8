import { Type, type Static } from 'typebox';
import { Uuid } from './common.js';
import { SharePasswordHeader } from './shares.js';
import {
  MAX_OBJECT_JSON_BYTES,
  MAX_SCREENSHOT_PIXELS,
  MAX_SCREENSHOT_SIDE,
  MAX_SCREENSHOTS,
  MAX_SUMMARY_CHARS,
  SUBMIT_BODY_LIMIT,
} from '../core/wire/submit-limits.js';

/** Shapes of the public submit route and the owner request routes (contract section 6). */

// The limits live with the wire types (the BFF and the element need them too); the routes import them from here.
export {
  MAX_OBJECT_JSON_BYTES,
  MAX_SCREENSHOT_BYTES,
  MAX_SCREENSHOTS,
  MAX_SUMMARY_CHARS,
  SCREENSHOT_TYPES,
  SUBMIT_BODY_LIMIT,
  IDEMPOTENCY_WINDOW_MS,
  type ScreenshotType,
} from '../core/wire/submit-limits.js';

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
        description: `The visitor's answers, keyed by form field id. The project's required fields (sceneData.formFields with required: true) must be present and not empty. At most ${MAX_OBJECT_JSON_BYTES / 1024} KB as JSON.`,
      },
    ),
    selectedOptions: Type.Optional(
      Type.Object(
        {},
        {
          additionalProperties: true,
          default: {},
          description: `The chosen options, usually option block id → choice id. At most ${MAX_OBJECT_JSON_BYTES / 1024} KB as JSON.`,
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
          `Up to ${MAX_SCREENSHOTS} data URLs of type image/png, image/jpeg or image/webp, at most 5 MB (5,000,000 bytes) each once decoded; the bytes must be an image of the declared type ` +
          `whose header gives its size, at most ${MAX_SCREENSHOT_SIDE} pixels per side and ${MAX_SCREENSHOT_PIXELS} pixels (4096 × 4096) in all (else 400 naming body.screenshots.<i>).`,
      }),
    ),
  },
  {
    description:
      "A visitor's form submission. The request is stored (with its screenshots) before the answer is sent; screenshots, PDF, e-mail and webhooks follow in the background. " +
      `Optional header Idempotency-Key (1 to 200 characters): the same key for the same project within 24 hours returns the first requestId and stores nothing new. The body may be up to ${SUBMIT_BODY_LIMIT / 1024 / 1024} MiB.`,
  },
);
export type SubmitBodyInput = Static<typeof SubmitBody>;

export const SubmitReply = Type.Object({
  success: Type.Literal(true),
  requestId: Type.String({ description: 'The id of the stored request.' }),
});

/**
 * Where a request stands in the owner's pipeline. `new` on arrival; the rest are the owner's
 * to set: `in_progress` (being worked on), `quoted` (a quote was sent), `won`, `lost`, `archived`.
 */
export const REQUEST_STATUSES = ['new', 'in_progress', 'quoted', 'won', 'lost', 'archived'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];
export const RequestStatusSchema = Type.Union(
  [
    Type.Literal('new'),
    Type.Literal('in_progress'),
    Type.Literal('quoted'),
    Type.Literal('won'),
    Type.Literal('lost'),
    Type.Literal('archived'),
  ],
  { description: 'new (on arrival), in_progress, quoted, won, lost or archived.' },
);

export const StepStateSchema = Type.Object({
  state: Type.Union([Type.Literal('pending'), Type.Literal('done'), Type.Literal('failed')]),
  attempts: Type.Integer({ description: 'Runs started so far.' }),
  error: Type.Optional(
    Type.String({ description: 'Why the step failed (failed), or the last retried error (pending).' }),
  ),
  note: Type.Optional(
    Type.String({ description: 'Something worth knowing about a done step, e.g. no e-mail address was set.' }),
  ),
  doneAt: Type.Union([Type.String(), Type.Null()]),
});

export const RequestSteps = Type.Object(
  { screenshots: StepStateSchema, pdf: StepStateSchema, email: StepStateSchema, events: StepStateSchema },
  { description: 'The background steps: screenshots to storage, PDF, e-mail to the owner, webhook events.' },
);

const requestFields = {
  id: Type.String(),
  projectId: Type.String(),
  status: RequestStatusSchema,
  formData: Type.Object({}, { additionalProperties: true }),
  selectedOptions: Type.Object({}, { additionalProperties: true }),
  configurationSummary: Type.String(),
  steps: RequestSteps,
  createdAt: Type.String(),
  updatedAt: Type.String(),
};

export const RequestSummary = Type.Object({ ...requestFields, screenshotCount: Type.Integer() });

export const RequestDetail = Type.Object({
  ...requestFields,
  screenshots: Type.Array(Type.Union([Type.String(), Type.Null()]), {
    description: 'Signed URLs (valid one hour), in submit order; null while a screenshot is not stored yet.',
  }),
  pdfUrl: Type.Union([Type.String(), Type.Null()], {
    description: 'Signed URL of the PDF (valid one hour); null until it is rendered.',
  }),
});

export const RequestParams = Type.Object({ id: Uuid, requestId: Uuid });

export const RequestListReply = Type.Object({
  success: Type.Boolean(),
  requests: Type.Array(RequestSummary),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
});
export const RequestReply = Type.Object({ success: Type.Boolean(), request: RequestDetail });
export const RequestStatusBody = Type.Object({ status: RequestStatusSchema });
