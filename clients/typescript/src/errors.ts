/** Errors: one class per status family, each carrying pixgate's error envelope. */

export interface ErrorDetails {
  status: number;
  code?: string | null;
  field?: string | null;
  requestId?: string | null;
  retryAfter?: number | null;
}

/**
 * An answer that was not a 2xx, or no answer at all (`ConnectionError`, status 0). `code` is the
 * envelope's stable snake_case code (program against it, not the message). The message never
 * holds the API key: it is built from the answer alone.
 */
export class PixgateError extends Error {
  readonly status: number;
  readonly code: string | null;
  readonly field: string | null;
  readonly requestId: string | null;
  readonly retryAfter: number | null;

  constructor(message: string, details: ErrorDetails) {
    super(message);
    this.name = new.target.name;
    this.status = details.status;
    this.code = details.code ?? null;
    this.field = details.field ?? null;
    this.requestId = details.requestId ?? null;
    this.retryAfter = details.retryAfter ?? null;
  }
}

/** 400 (and 408, 413, 415): the request breaks a rule; `field` names where. */
export class InvalidRequestError extends PixgateError {}
/** 401: no valid API key. */
export class AuthenticationError extends PixgateError {}
/** 403: the key may not do this. */
export class ForbiddenError extends PixgateError {}
/** 404: nothing the key may see is there. */
export class NotFoundError extends PixgateError {}
/** 409: the state forbids it. */
export class ConflictError extends PixgateError {}
/** 429: over the key's rate limit; `retryAfter` in seconds. */
export class RateLimitError extends PixgateError {}
/** 5xx: a temporary failure; retried with the same Idempotency-Key. */
export class ServerError extends PixgateError {}
/** No answer: the connection failed, was dropped or timed out (status 0). */
export class ConnectionError extends PixgateError {}

function str(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

/** The error for an answer with this status and (parsed JSON, or undefined) body. */
export function errorFor(
  status: number,
  body: unknown,
  requestId: string | null,
  retryAfter: number | null,
): PixgateError {
  const envelope =
    body && typeof body === "object" && "error" in body && typeof (body as { error: unknown }).error === "object"
      ? ((body as { error: Record<string, unknown> }).error ?? {})
      : {};
  const details: ErrorDetails = {
    status,
    code: str(envelope.code),
    field: str(envelope.field),
    requestId: str(envelope.requestId) ?? requestId,
    retryAfter,
  };
  const message = str(envelope.message) ?? `HTTP ${status}`;
  const Class =
    status === 401
      ? AuthenticationError
      : status === 403
        ? ForbiddenError
        : status === 404
          ? NotFoundError
          : status === 409
            ? ConflictError
            : status === 429
              ? RateLimitError
              : status >= 500
                ? ServerError
                : InvalidRequestError;
  return new Class(message, details);
}
