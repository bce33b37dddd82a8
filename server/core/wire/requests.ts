import { Type, type Static } from 'typebox';
import { ClientPriceSchema, StoredPriceSchema } from './request-price-schema.js';

/**
 * The owner request routes' answers (docs/api.md, Requests), as TypeBox schemas: the routes
 * validate and document with them, the owner console types itself with `Static<typeof X>`.
 */

/**
 * Where a request stands in the owner's pipeline. `new` on arrival; the rest are the owner's
 * to set: `in_progress` (being worked on), `quoted` (a quote was sent), `won`, `lost`, `archived`.
 */
const RequestStatusSchema = Type.Union(
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
export type RequestStatus = Static<typeof RequestStatusSchema>;

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

const RequestSteps = Type.Object(
  {
    screenshots: StepStateSchema,
    pdf: StepStateSchema,
    email: StepStateSchema,
    customerCopy: Type.Optional(StepStateSchema),
    events: StepStateSchema,
  },
  {
    description:
      'The background steps: screenshots to storage, PDF, e-mail to the owner, the copy to the visitor ' +
      '(only when the project sends one and the form gave an address), webhook events.',
  },
);

const requestFields = {
  id: Type.String(),
  projectId: Type.String(),
  status: RequestStatusSchema,
  formData: Type.Object({}, { additionalProperties: true }),
  selectedOptions: Type.Object({}, { additionalProperties: true }),
  configurationSummary: Type.String(),
  price: Type.Union([StoredPriceSchema, Type.Null()], {
    description: "The server's price of the request, used everywhere; null when the project has no pricing.",
  }),
  clientPrice: Type.Union([ClientPriceSchema, Type.Null()], {
    description: "What the visitor's page showed, as sent (null when it sent none).",
  }),
  priceMismatch: Type.Boolean({
    description: 'True when both prices are present and their total or currency differ.',
  }),
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

export const RequestListReply = Type.Object({
  success: Type.Boolean(),
  requests: Type.Array(RequestSummary),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
});
export const RequestReply = Type.Object({ success: Type.Boolean(), request: RequestDetail });
export const RequestStatusBody = Type.Object({ status: RequestStatusSchema });
