/** The codes the asset file checks report, shared by uploads (HTTP) and imports (job errors). */
export type ModelFileErrorCode = 'invalid_file' | 'too_large' | 'conversion_failed';

const STATUS: Record<ModelFileErrorCode, number> = { invalid_file: 422, too_large: 413, conversion_failed: 422 };

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
