/**
 * One request to the merchant API with the rules a payments client must keep (the same as the
 * Python client's):
 *
 * - A create call carries an Idempotency-Key: the caller's, or one made here, and every retry
 *   of that call sends the same key, so a retry after a lost answer replays the first charge
 *   instead of making a second one.
 * - Retries, with exponential backoff and full jitter (0.5 s doubling, at most 8 s), on an answer
 *   that never came (connection refused, dropped, timed out), on 409 `idempotency_key_in_use`,
 *   on 408 and 429 (after its `Retry-After`) and on 5xx; never on another 4xx. A request that is
 *   neither a read nor keyed (a cancel, a revoke) is retried only when it provably did not reach
 *   the server (the connection was refused) or was refused before running (408, 429).
 * - The API key goes in the Authorization header and nowhere else.
 */
import { ConnectionError, errorFor, PixgateError } from "./errors.js";
import { webCrypto } from "./webcrypto.js";

export const DEFAULT_BASE_URL = "http://127.0.0.1:8080/api/v1";
const BACKOFF_BASE_MS = 500;
const BACKOFF_CAP_MS = 8000;
const RETRY_AFTER_CAP_MS = 60000;

export interface ClientOptions {
  apiKey: string;
  /** The merchant API's base, `https://pix.example.com/api/v1` (default: a local pixgate). */
  baseUrl?: string;
  /** Retries after the first try (default 3). */
  maxRetries?: number;
  /** Milliseconds one try may take, answer included (default 30000). */
  timeout?: number;
  /** Another fetch (a test's, a proxy agent's); default the global one. */
  fetch?: typeof fetch;
}

export interface RequestOptions {
  query?: Record<string, unknown>;
  body?: unknown;
  idempotencyKey?: string;
  keyed?: boolean;
}

function retryAfterSeconds(value: string | null): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const when = Date.parse(value);
  return Number.isNaN(when) ? null : Math.max(0, (when - Date.now()) / 1000);
}

function queryString(query: Record<string, unknown> | undefined): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    params.append(name, Array.isArray(value) ? value.join(",") : String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

export class Transport {
  readonly baseUrl: string;
  readonly maxRetries: number;
  readonly #apiKey: string;
  readonly #timeout: number;
  readonly #fetch: typeof fetch;
  /** Waits between tries; a test may replace it. */
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

  constructor(options: ClientOptions) {
    if (!options || typeof options.apiKey !== "string" || options.apiKey === "") {
      throw new TypeError("apiKey is required");
    }
    this.#apiKey = options.apiKey;
    this.baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, "");
    this.maxRetries = options.maxRetries ?? 3;
    if (!(this.maxRetries >= 0)) throw new TypeError("maxRetries must be 0 or more");
    this.#timeout = options.timeout ?? 30000;
    const f = options.fetch ?? (globalThis as { fetch?: typeof fetch }).fetch;
    if (!f) throw new TypeError("no fetch: Node 18 or later, a browser, or options.fetch");
    this.#fetch = f;
  }

  #delay(attempt: number, retryAfter: number | null): number {
    if (retryAfter !== null) return Math.min(retryAfter * 1000, RETRY_AFTER_CAP_MS);
    return Math.random() * Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt);
  }

  /** Sends one operation, retrying as the module says; resolves to the envelope's `data`. */
  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const headers: Record<string, string> = {
      Authorization: `Bearer ${this.#apiKey}`,
      Accept: "application/json",
    };
    if (options.keyed) {
      headers["Idempotency-Key"] = options.idempotencyKey ?? (await webCrypto()).randomUUID();
    }
    let body: string | undefined;
    if (options.body !== undefined) {
      headers["Content-Type"] = "application/json";
      body = JSON.stringify(options.body);
    }
    const safe = method === "GET" || options.keyed === true;
    const url = this.baseUrl + path + queryString(options.query);
    for (let attempt = 0; ; attempt++) {
      let answer: Response;
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), this.#timeout);
      try {
        answer = await this.#fetch(url, { method, headers, body, signal: controller.signal });
        const text = await answer.text();
        clearTimeout(timer);
        let payload: unknown = undefined;
        if (text) {
          try {
            payload = JSON.parse(text);
          } catch {
            payload = undefined;
          }
        }
        if (answer.ok) {
          if (payload && typeof payload === "object" && "data" in payload) return (payload as { data: T }).data;
          return payload as T;
        }
        const error = errorFor(
          answer.status,
          payload,
          answer.headers.get("X-Request-Id"),
          retryAfterSeconds(answer.headers.get("Retry-After")),
        );
        const retryable =
          answer.status === 408 || // refused before running, as 429: safe for any call
          answer.status === 429 ||
          (safe && answer.status >= 500) ||
          (answer.status === 409 && error.code === "idempotency_key_in_use");
        if (retryable && attempt < this.maxRetries) {
          await this.sleep(this.#delay(attempt, error.retryAfter));
          continue;
        }
        throw error;
      } catch (error) {
        clearTimeout(timer);
        if (error instanceof PixgateError) throw error;
        // fetch failed: no answer (refused, dropped, timed out). A read or a keyed call may be
        // sent again; another only when the connection was refused (the server never saw it).
        const cause = (error as { cause?: { code?: string } })?.cause;
        const unsent = cause?.code === "ECONNREFUSED";
        if ((safe || unsent) && attempt < this.maxRetries) {
          await this.sleep(this.#delay(attempt, null));
          continue;
        }
        const kind = error instanceof Error ? error.name : "Error";
        throw new ConnectionError(`no answer from pixgate: ${kind}`, { status: 0 });
      }
    }
  }

  /** Every item of a list, following its cursor page after page (a short page is the last). */
  async *pages<T>(
    path: string,
    query: Record<string, unknown>,
    cursor: string,
    idField: string,
    limitDefault: number,
  ): AsyncGenerator<T, void, undefined> {
    const params: Record<string, unknown> = { ...query };
    const limit = Number(params.limit ?? limitDefault);
    params.limit = limit;
    for (;;) {
      const page = await this.request<T[]>("GET", path, { query: params });
      if (!Array.isArray(page)) throw new PixgateError("a list page is not a JSON array", { status: 200 });
      yield* page;
      if (page.length < limit) return;
      params[cursor] = (page[page.length - 1] as Record<string, unknown>)[idField];
    }
  }
}
