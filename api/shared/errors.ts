/** Errors a handler throws to end a request with a given status and a small JSON body. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly body: Record<string, unknown> = { error: message },
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const unauthorized = (message = 'missing or invalid API key') => new HttpError(401, message);
export const notFound = (what = 'resource') => new HttpError(404, `${what} not found`);
export const badRequest = (message: string, errors?: Record<string, string[]>) =>
  new HttpError(400, message, errors ? { error: message, errors } : { error: message });
