/** The contract's error body (section 1), for the answers the BFF gives without the error handler. */
export const errorBody = (error: string, message: string) => ({ success: false as const, error, message });
