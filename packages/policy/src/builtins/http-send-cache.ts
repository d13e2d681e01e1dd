/**
 * The inter-query cache of `http.send` (requests with `cache` or `force_cache`) and OPA's
 * rules for it: which responses may be kept (cacheable status codes, no `no-store` unless
 * forced), when they expire (`force_cache_duration_seconds`, else `Cache-Control: max-age`
 * counted from `Date`, else `Expires`), and the validators a stale one is revalidated with
 * (`ETag`, `Last-Modified`).
 */

/** A response as kept between queries. */
export interface CachedResponse {
  statusCode: number;
  status: string;
  /** Lower-cased names, every value in order. */
  headers: Map<string, string[]>;
  body: Buffer;
  /** Milliseconds since the epoch; 0 when the response gave no expiry (stale at once). */
  expiresAtMs: number;
}

/** Limits of an inter-query cache, as OPA's `caching.inter_query_builtin_cache` settings. */
export interface InterQueryCacheOptions {
  /** Most bytes kept; 0 or absent: no limit (OPA's default). */
  maxSizeBytes?: number;
  /** Share of maxSizeBytes past which the oldest entries are dropped (default 100). */
  forcedEvictionThresholdPercentage?: number;
}

/** Status codes whose responses may be cached (RFC 7231 section 6.1), as OPA lists them. */
export const CACHEABLE_STATUS_CODES: ReadonlySet<number> = new Set([
  200, 203, 204, 206, 300, 301, 404, 405, 410, 414, 501,
]);

/** Responses kept between queries, oldest first; entries past the size bound are dropped. */
export class InterQueryCache {
  private readonly entries = new Map<string, { value: CachedResponse; size: number }>();
  private usedBytes = 0;
  private readonly maxBytes: number;
  private readonly evictAt: number;

  constructor(options: InterQueryCacheOptions = {}) {
    this.maxBytes = options.maxSizeBytes ?? 0;
    const percent = options.forcedEvictionThresholdPercentage ?? 100;
    this.evictAt = this.maxBytes > 0 ? (this.maxBytes * percent) / 100 : 0;
  }

  get(key: string): CachedResponse | undefined {
    return this.entries.get(key)?.value;
  }

  /** Keeps `value`, dropping the oldest entries while the cache is over its bound. */
  insert(key: string, value: CachedResponse): void {
    this.delete(key);
    const size = responseSize(value);
    if (this.maxBytes > 0 && size > this.maxBytes) return;
    this.entries.set(key, { value, size });
    this.usedBytes += size;
    if (this.evictAt <= 0) return;
    for (const [k, e] of this.entries) {
      if (this.usedBytes <= this.evictAt) break;
      this.entries.delete(k);
      this.usedBytes -= e.size;
    }
  }

  delete(key: string): void {
    const e = this.entries.get(key);
    if (!e) return;
    this.entries.delete(key);
    this.usedBytes -= e.size;
  }

  /** Entries kept now. */
  get size(): number {
    return this.entries.size;
  }

  /** Bytes kept now (bodies, header names and values). */
  get bytes(): number {
    return this.usedBytes;
  }

  clear(): void {
    this.entries.clear();
    this.usedBytes = 0;
  }
}

function responseSize(r: CachedResponse): number {
  let n = r.body.length + r.status.length + 16;
  for (const [name, values] of r.headers) {
    for (const v of values) n += name.length + v.length;
  }
  return n;
}

/** The directives of `Cache-Control` (name → value, "" when it has none). */
export function cacheControl(headers: Map<string, string[]>): Map<string, string> {
  const out = new Map<string, string>();
  const text = headers.get("cache-control")?.[0] ?? "";
  for (const raw of text.split(",")) {
    const part = raw.trim();
    if (part === "") continue;
    const eq = part.indexOf("=");
    if (eq < 0) {
      out.set(part, "");
      continue;
    }
    // "a=b=c" is malformed and ignored, as OPA does.
    if (part.indexOf("=", eq + 1) >= 0) continue;
    out.set(part.slice(0, eq).trim(), part.slice(eq + 1));
  }
  return out;
}

/** False when the response says `Cache-Control: no-store`. */
export function canStore(headers: Map<string, string[]>): boolean {
  return !cacheControl(headers).has("no-store");
}

/** Parses an HTTP date (IMF-fixdate, RFC 850 or asctime); undefined when it is none. */
export function parseHttpDate(text: string): number | undefined {
  if (!/^[A-Za-z]{3,9},? /.test(text.trim())) return undefined;
  // Go reads all three forms as UTC; asctime names no zone, which Date.parse takes as local.
  const ms = Date.parse(/\b(GMT|UTC)\b/.test(text) ? text : `${text} GMT`);
  return Number.isNaN(ms) ? undefined : ms;
}

/** The largest max-age OPA honours (Go's int32 delta-seconds). */
const MAX_DELTA_SECONDS = 2 ** 31 - 1;

/**
 * When a response expires, from its headers: `max-age` counted from `Date`, else
 * `Expires`, else 0 (already stale). Throws when max-age is set but cannot be used (bad
 * number, no Date): OPA then does not cache the response.
 */
export function expiryFromHeaders(headers: Map<string, string[]>): number {
  const maxAge = cacheControl(headers).get("max-age");
  if (maxAge !== undefined) {
    if (!/^\d+$/.test(maxAge)) throw new Error(`invalid max-age: ${maxAge}`);
    const seconds = Math.min(Number(maxAge), MAX_DELTA_SECONDS);
    const date = headers.get("date")?.[0];
    if (date === undefined) throw new Error("no date header");
    const created = parseHttpDate(date);
    if (created === undefined) throw new Error(`invalid date header: ${date}`);
    return created + seconds * 1000;
  }
  const expires = headers.get("expires")?.[0];
  // Servers send `Expires: 0` (not a date) for content that is already stale.
  return expires === undefined ? 0 : (parseHttpDate(expires) ?? 0);
}
