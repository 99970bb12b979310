// Errors that carry the HTTP status the API answers with. Thrown by stores and routes alike; the API's
// error handler turns them into the `{"message"}` body.
export class AppError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429 | 500 | 503,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const notFound = (what: string) => new AppError(404, `${what} not found`);

/** A refusal that concerns one field of the request: the body names it (`issues`, as a validation error
 *  does), so the form shows the message at that field. */
export const fieldError = (status: 400 | 409, field: string, message: string) =>
  new AppError(status, message, { issues: [{ path: field, message }] });
