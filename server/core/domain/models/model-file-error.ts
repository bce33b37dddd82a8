/** The codes the asset file checks report, shared by uploads (HTTP) and imports (job errors). */
export type ModelFileErrorCode = 'invalid_file' | 'too_large' | 'conversion_failed';

const STATUS: Record<ModelFileErrorCode, number> = { invalid_file: 422, too_large: 413, conversion_failed: 422 };

/**
 * One problem found in a file, in the Khronos validator's message shape so clients read both alike.
 * severity: 0 error, 1 warning, 2 info, 3 hint.
 */
export interface ModelFileIssue {
  code: string;
  message: string;
  severity: number;
  pointer?: string;
}

export class ModelFileError extends Error {
  override name = 'ModelFileError';
  readonly statusCode: number;
  constructor(
    readonly code: ModelFileErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.statusCode = STATUS[code];
  }
}

/** An `invalid_file` refusal whose details carry `messages: [{ code: issueCode, message, severity: 0 }]`. */
export function invalidModelFile(issueCode: string, message: string): ModelFileError {
  return new ModelFileError('invalid_file', message, {
    messages: [{ code: issueCode, message, severity: 0 }] satisfies ModelFileIssue[],
  });
}

/** A ModelFileError as a value that crosses threads (an Error's class does not): a pool task's answer for a refusal. */
export type ModelRefusal = { ok: false; code: ModelFileErrorCode; message: string; details?: unknown };

/** A pool task's refusal from what its work threw: a ModelFileError becomes a value, anything else is thrown on. */
export function refusalOf(error: unknown): ModelRefusal {
  if (error instanceof ModelFileError)
    return { ok: false, code: error.code, message: error.message, details: error.details };
  throw error;
}

/** A pool task's outcome back on this side: its refusal thrown again as the ModelFileError it was. */
export function unlessRefused<Outcome extends { ok: boolean }>(
  outcome: Outcome | ModelRefusal,
): Exclude<Outcome, ModelRefusal> {
  if (!outcome.ok) {
    const { code, message, details } = outcome as ModelRefusal;
    throw new ModelFileError(code, message, details);
  }
  return outcome as Exclude<Outcome, ModelRefusal>;
}
