/** A failure `npm start` explains in its message: printed without a stack trace. */
export class StartError extends Error {
  override name = 'StartError';
}
