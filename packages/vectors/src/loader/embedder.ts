/**
 * Embeddings from an OpenAI-compatible endpoint through the official `openai` client: array
 * input, a time limit per request, and retries with exponential backoff on 429, 5xx, timeouts
 * and refused connections. The client's own retries are off so the policy lives here, once.
 * Vectors are asked for as base64 float32, as the client itself does by default, and as JSON
 * numbers from an endpoint that refuses base64.
 */
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError } from "openai";
import { EmbeddingError, messageOf } from "../errors.js";
import { decodeEmbedding } from "./embedding-value.js";

/** Connection and retry settings of an {@link Embedder}. */
export interface EmbedderOptions {
  readonly baseUrl: string;
  readonly model: string;
  readonly apiKey: string;
  readonly timeoutMs: number;
  readonly retries: number;
  readonly retryBaseMs: number;
}

/** Longest wait honoured from a Retry-After header. */
const maxRetryAfterMs = 30_000;

/** Waits `ms` milliseconds (injectable so tests need not sleep). */
export type Sleep = (ms: number) => Promise<void>;

const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether a failed request is worth repeating: rate limits, server errors, network trouble. */
export function isRetryable(error: unknown): boolean {
  if (error instanceof APIConnectionError) return true;
  if (error instanceof APIError && typeof error.status === "number") {
    return error.status === 408 || error.status === 429 || error.status >= 500;
  }
  return false;
}

/** The delay the server asked for (Retry-After-Ms or Retry-After seconds), if any. */
function retryAfterMs(error: unknown): number | undefined {
  if (!(error instanceof APIError) || !error.headers) return undefined;
  const ms = Number(error.headers.get("retry-after-ms") ?? Number.NaN);
  if (Number.isFinite(ms) && ms >= 0) return Math.min(ms, maxRetryAfterMs);
  const seconds = Number(error.headers.get("retry-after") ?? Number.NaN);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, maxRetryAfterMs);
  return undefined;
}

/** The innermost system error code (ECONNREFUSED, ENOTFOUND, ...) behind a failed fetch. */
function rootCode(error: Error): string {
  let current: unknown = error;
  let code: string | undefined;
  for (let depth = 0; current instanceof Error && depth < 5; depth++) {
    const own = (current as { code?: unknown }).code;
    if (typeof own === "string") code = own;
    current = current.cause;
  }
  return code ?? error.message;
}

/**
 * A short human reason for a failed request. Network failures name the URL they tried, since
 * a bare ECONNREFUSED does not say which server is down (EMBED_BASE_URL).
 */
function describe(error: unknown, options: EmbedderOptions): string {
  const where = `${options.baseUrl.replace(/\/+$/, "")}/embeddings`;
  if (error instanceof APIConnectionTimeoutError) {
    return `no answer from ${where} within ${options.timeoutMs} ms (EMBED_TIMEOUT_MS)`;
  }
  if (error instanceof APIConnectionError) {
    return `cannot connect to ${where} (${rootCode(error)}; is the server at EMBED_BASE_URL running?)`;
  }
  if (error instanceof APIError && typeof error.status === "number") {
    return `HTTP ${error.status} (${error.message})`;
  }
  return messageOf(error);
}

/** Reads one embedding out of a response item; undefined when it is missing or not numbers. */
function embeddingOf(item: unknown): number[] | undefined {
  return decodeEmbedding((item as { embedding?: unknown } | null | undefined)?.embedding);
}

/** How an endpoint without base64 refuses it: 400, or 422 from a schema-validating server. */
function refusesRequest(error: unknown): boolean {
  return error instanceof APIError && (error.status === 400 || error.status === 422);
}

/** The form vectors travel in: `encoding_format` of the request. */
export type VectorEncoding = "base64" | "float";

/** Client of the embeddings endpoint. */
export class Embedder {
  private readonly client: OpenAI;
  /** HTTP requests sent so far, retries included. */
  requests = 0;
  /** The form vectors are asked in: base64 until the endpoint refuses it. */
  encoding: VectorEncoding = "base64";
  /** Whether a request in `encoding` has succeeded: from then on a 400 is the input's. */
  private encodingConfirmed = false;

  constructor(
    private readonly options: EmbedderOptions,
    private readonly sleep: Sleep = realSleep,
  ) {
    this.client = new OpenAI({
      baseURL: options.baseUrl,
      apiKey: options.apiKey,
      timeout: options.timeoutMs,
      maxRetries: 0,
    });
  }

  /**
   * Embeds every text in one request (array `input`).
   * @returns one entry per text, in order; undefined where the response lacks that embedding.
   * @throws EmbeddingError when the request fails after all retries, with the reason.
   */
  async embed(
    texts: readonly string[],
    signal?: AbortSignal,
  ): Promise<Array<number[] | undefined>> {
    const data = await this.request(texts, signal);
    const out: Array<number[] | undefined> = texts.map(() => undefined);
    data.forEach((item, position) => {
      const index = (item as { index?: unknown }).index;
      const slot = typeof index === "number" && Number.isInteger(index) ? index : position;
      if (slot >= 0 && slot < out.length) out[slot] = embeddingOf(item);
    });
    return out;
  }

  /** Embeds one text (for queries). @throws EmbeddingError when it cannot be obtained. */
  async embedOne(text: string): Promise<number[]> {
    const [embedding] = await this.embed([text]);
    if (!embedding) throw new EmbeddingError("the embeddings response holds no embedding");
    return embedding;
  }

  private async request(texts: readonly string[], signal?: AbortSignal): Promise<unknown[]> {
    const attempts = this.options.retries + 1;
    for (let attempt = 1; ; attempt++) {
      try {
        const response = await this.create(texts, signal);
        return Array.isArray(response?.data) ? response.data : [];
      } catch (error) {
        if (!isRetryable(error) || attempt >= attempts || signal?.aborted) {
          const status = error instanceof APIError ? error.status : undefined;
          const tries = attempt > 1 ? ` after ${attempt} attempts` : "";
          throw new EmbeddingError(
            `embeddings request failed${tries}: ${describe(error, this.options)}`,
            status,
            { cause: error },
          );
        }
        const backoff = this.options.retryBaseMs * 2 ** (attempt - 1);
        await this.sleep(retryAfterMs(error) ?? backoff * (0.75 + Math.random() * 0.5));
      }
    }
  }

  /**
   * One request. Until base64 has worked once, a 400 may mean the endpoint does not offer
   * it: the same texts are then asked for as floats, and if that succeeds the endpoint gets
   * floats from then on; if it fails too, its error is the answer. A batch sent as base64
   * while another learnt that the endpoint refuses it is asked again as floats too.
   */
  private async create(texts: readonly string[], signal?: AbortSignal) {
    const send = (encoding: VectorEncoding) => {
      this.requests++;
      return this.client.embeddings.create(
        {
          model: this.options.model,
          input: texts.length === 1 ? (texts[0] as string) : [...texts],
          encoding_format: encoding,
        },
        { signal },
      );
    };
    const encoding = this.encoding;
    try {
      const response = await send(encoding);
      this.encodingConfirmed ||= encoding === this.encoding;
      return response;
    } catch (error) {
      const base64Works = this.encoding === "base64" && this.encodingConfirmed;
      if (encoding !== "base64" || base64Works || !refusesRequest(error)) throw error;
      const response = await send("float");
      this.encoding = "float";
      this.encodingConfirmed = true;
      return response;
    }
  }
}
