export { Pixgate } from "./client.js";
export type { ClientOptions } from "./transport.js";
export {
  PixgateError,
  InvalidRequestError,
  AuthenticationError,
  ForbiddenError,
  NotFoundError,
  ConflictError,
  RateLimitError,
  ServerError,
  ConnectionError,
} from "./errors.js";
export { verify, sign, WebhookVerificationError, type VerifyOptions, type HeadersLike } from "./webhooks.js";
export type * from "./generated.js";
