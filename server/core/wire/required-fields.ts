/**
 * The required-field rule of a submit (contract section 6), shared by the server that enforces it
 * and the element that checks the form before sending. No Node imports: browser code imports it.
 */

/** A required answer that is missing: absent, null, blank, an empty list, or an unticked checkbox. */
function isEmptyAnswer(value: unknown, type: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  if (value === false) return type === 'checkbox';
  return false;
}

/** Ids of the project's required form fields (contract section 3's minimal shape) that the answers leave empty. */
export function missingRequiredFields(formFields: unknown, formData: Record<string, unknown>): string[] {
  if (!Array.isArray(formFields)) return [];
  const missing: string[] = [];
  for (const field of formFields) {
    if (!field || typeof field !== 'object') continue;
    const { id, required, type } = field as { id?: unknown; required?: unknown; type?: unknown };
    if (required !== true || (typeof id !== 'string' && typeof id !== 'number')) continue;
    if (isEmptyAnswer(formData[String(id)], type)) missing.push(String(id));
  }
  return missing;
}
