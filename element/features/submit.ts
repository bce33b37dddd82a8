import type { LitElement } from 'lit';
import { MAX_SCREENSHOTS, MAX_SUMMARY_CHARS } from '#core/wire/submit-limits.js';
import { checkFormFields } from '#core/wire/form-field-rules.js';
import type { Failure, ShareTarget } from './api.js';
import { formValues, requiredMessage, type FormField } from './form.js';
import { rememberedPassword } from './password.js';
import { format, type LoaderStrings } from './strings.js';
import { postSubmit } from './submit-request.js';

/**
 * **Lazy chunk**, fetched at the first submit (the loader stays within 15 KB): the visitor's form checked by the
 * server's own rules, sent with a screenshot, and what the answer shows.
 */

/** What `submit(extra)` adds to, or puts in place of, the form's own values. */
export interface SubmitExtra {
  formData?: Record<string, unknown>;
  selectedOptions?: Record<string, unknown>;
  configurationSummary?: string;
  /** Data URLs sent instead of the element's own screenshot. */
  screenshots?: string[];
}

/** What the submit needs from the element. */
export interface SubmitHost {
  element: LitElement & { screenshot(): Promise<string | null> };
  /** The share to send to; null while there is none ready (or a preview is shown: nothing is sent). */
  target: ShareTarget | null;
  strings: LoaderStrings;
  fields: FormField[];
  /** The configurator's part: the active blocks' selections, their summary lines, the price shown. */
  own?: {
    selectedOptions: Record<string, unknown>;
    summary: string[];
    price?: { total: number; currency: string | null };
  };
  /** Shows the field errors (when given) and the form's message. */
  show(message: string, errors?: Record<string, string>): void;
  emit(type: 'config-share-error' | 'config-share-submit', detail: Record<string, string>): void;
  /** The share changed under the visitor (password set, disabled, billing): the read's states apply. */
  refused(failure: Failure): void;
}

/** One Idempotency-Key per submit attempt (random, 128 bits; randomUUID needs a secure context). */
const idempotencyKey = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');

/** Shows why a submit failed, in the form, moves focus to the first field in error, and says so in an event. */
async function failed(host: SubmitHost, type: string, message: string, errors?: Record<string, string>) {
  host.show(message, errors);
  host.emit('config-share-error', { type, message });
  await host.element.updateComplete;
  host.element.renderRoot.querySelector<HTMLElement>('form [aria-invalid="true"]')?.focus();
  return null;
}

/** Sends the form; resolves with the requestId, or null when it did not go through (the reason is shown). */
export async function sendForm(host: SubmitHost, extra: SubmitExtra): Promise<string | null> {
  const { target, strings, fields, own } = host;
  if (!target) {
    host.emit('config-share-error', { type: 'submit', message: 'The configurator is not ready.' });
    return null;
  }
  const form = host.element.renderRoot.querySelector<HTMLFormElement>('form[part="form"]');
  const formData = { ...(form ? formValues(form, fields) : {}), ...extra.formData };
  const problems = checkFormFields(fields, formData, strings);
  const errors = Object.fromEntries(problems.map((problem) => [problem.id, problem.message]));
  if (problems.length > 0) return failed(host, 'invalid', strings.submitInvalid, errors);

  host.show(strings.submitting, errors);
  const screenshot = extra.screenshots ? null : await host.element.screenshot();
  const result = await postSubmit(
    target,
    {
      formData,
      selectedOptions: { ...own?.selectedOptions, ...extra.selectedOptions },
      configurationSummary: extra.configurationSummary ?? (own?.summary.join('\n') ?? '').slice(0, MAX_SUMMARY_CHARS),
      screenshots: (extra.screenshots ?? (screenshot ? [screenshot] : [])).slice(0, MAX_SCREENSHOTS),
      ...(own?.price ? { price: own.price } : {}),
    },
    idempotencyKey(),
    rememberedPassword(target),
  );
  if (result.kind === 'ok') {
    host.show(format(strings.submitted, { requestId: result.requestId }));
    host.emit('config-share-submit', { requestId: result.requestId });
    return result.requestId;
  }
  if (result.kind === 'invalid') {
    const known = fields.filter((field) => field.id in result.fields);
    const answered = known.map((field) => [field.id, result.fields[field.id] || requiredMessage(strings, field)]);
    return failed(host, 'invalid', strings.submitInvalid, Object.fromEntries(answered));
  }
  if (result.kind === 'rate-limited') return failed(host, 'rate-limited', strings.rateLimited);
  if (result.kind === 'error') return failed(host, 'submit', strings.submitFailed);
  host.refused(result);
  return null;
}
