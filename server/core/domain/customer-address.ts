import { readFormFields } from '../wire/form-fields.js';
import { isEmailAddress } from '../wire/form-field-rules.js';

/**
 * Where the visitor's copy of a request goes: the answer to the form's first `email` field, trimmed;
 * null when that field is empty or not an address (the copy is then not sent).
 */
export function customerAddress(formFields: unknown, formData: Record<string, unknown>): string | null {
  const field = readFormFields(formFields).find((f) => f.type === 'email');
  const value = field ? formData[field.id] : undefined;
  return typeof value === 'string' && isEmailAddress(value.trim()) ? value.trim() : null;
}
