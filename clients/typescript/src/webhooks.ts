/**
 * Verifying pixgate's webhook deliveries, and signing test ones for the merchant's own tests.
 *
 * A delivery's signature is `X-Service-Signature: v1=<hex HMAC-SHA256>` over
 * `<X-Service-Timestamp>.<raw body>` with the endpoint's signing secret; the timestamp is Unix
 * seconds, digits only, and one more than `tolerance` seconds from now is refused. Verify the
 * raw body as received: a body parsed and serialised again is not the body that was signed.
 */
import { webCrypto } from "./webcrypto.js";

export const SIGNATURE_HEADER = "X-Service-Signature";
export const TIMESTAMP_HEADER = "X-Service-Timestamp";

/** The delivery is not pixgate's, or is too old: answer it 400 and do nothing else. */
export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WebhookVerificationError";
  }
}

export type HeadersLike =
  | Headers
  | Record<string, string | string[] | undefined>
  | Iterable<[string, string]>;

function header(headers: HeadersLike, name: string): string | null {
  const wanted = name.toLowerCase();
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name);
  const entries: Iterable<[string, unknown]> =
    Symbol.iterator in (headers as object)
      ? (headers as Iterable<[string, string]>)
      : Object.entries(headers as Record<string, unknown>);
  for (const [key, value] of entries) {
    if (key.toLowerCase() === wanted) return Array.isArray(value) ? String(value[0]) : value == null ? null : String(value);
  }
  return null;
}

const encoder = new TextEncoder();

function bytes(body: string | Uint8Array | ArrayBuffer): Uint8Array {
  if (typeof body === "string") return encoder.encode(body);
  return body instanceof Uint8Array ? body : new Uint8Array(body);
}

function signedText(timestamp: string, body: Uint8Array): Uint8Array {
  const prefix = encoder.encode(`${timestamp}.`);
  const text = new Uint8Array(prefix.length + body.length);
  text.set(prefix);
  text.set(body, prefix.length);
  return text;
}

async function hmacKey(secret: string, usage: "sign" | "verify"): Promise<CryptoKey> {
  const crypto = await webCrypto();
  return crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [usage]);
}

function hex(buffer: ArrayBuffer): string {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
}

export interface VerifyOptions {
  /** Seconds a delivery's timestamp may be from now (default 300). */
  tolerance?: number;
  /** Unix seconds to check against instead of the clock (tests). */
  now?: number;
}

/**
 * Checks a delivery and returns its event (the parsed JSON body). Throws
 * WebhookVerificationError when a header is missing, the timestamp is not digits or is more than
 * `tolerance` seconds from now, or the signature does not match (Web Crypto's HMAC verify,
 * constant time).
 */
export async function verify<Event = unknown>(
  body: string | Uint8Array | ArrayBuffer,
  headers: HeadersLike,
  secret: string,
  options: VerifyOptions = {},
): Promise<Event> {
  const tolerance = options.tolerance ?? 300;
  const raw = bytes(body);
  const timestamp = header(headers, TIMESTAMP_HEADER);
  const signature = header(headers, SIGNATURE_HEADER);
  if (timestamp === null || signature === null) {
    throw new WebhookVerificationError("missing X-Service-Timestamp or X-Service-Signature");
  }
  if (!/^[0-9]{1,19}$/.test(timestamp)) {
    throw new WebhookVerificationError("the timestamp is not Unix seconds in digits");
  }
  const now = options.now ?? Date.now() / 1000;
  if (Math.abs(now - Number(timestamp)) > tolerance) {
    throw new WebhookVerificationError("the timestamp is outside the tolerance");
  }
  const match = /^v1=([0-9a-fA-F]{64})$/.exec(signature);
  if (!match) throw new WebhookVerificationError("the signature is not v1=<hex>");
  const given = new Uint8Array(32);
  for (let i = 0; i < 32; i++) given[i] = parseInt(match[1].slice(2 * i, 2 * i + 2), 16);
  const crypto = await webCrypto();
  const ok = await crypto.subtle.verify("HMAC", await hmacKey(secret, "verify"), given, signedText(timestamp, raw));
  if (!ok) throw new WebhookVerificationError("the signature does not match");
  try {
    return JSON.parse(new TextDecoder().decode(raw)) as Event;
  } catch {
    throw new WebhookVerificationError("the body is not JSON");
  }
}

/** The headers pixgate would send with `body`: for a merchant's tests of their receiver. */
export async function sign(
  body: string | Uint8Array | ArrayBuffer,
  secret: string,
  timestamp?: number,
): Promise<Record<string, string>> {
  const stamp = String(timestamp ?? Math.floor(Date.now() / 1000));
  const crypto = await webCrypto();
  const digest = await crypto.subtle.sign("HMAC", await hmacKey(secret, "sign"), signedText(stamp, bytes(body)));
  return { [TIMESTAMP_HEADER]: stamp, [SIGNATURE_HEADER]: `v1=${hex(digest)}` };
}
