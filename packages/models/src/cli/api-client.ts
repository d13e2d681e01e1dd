// The CLI's HTTP client: base URL from LLMSRV_HOST (or OLLAMA_HOST), JSON calls, NDJSON streams, server errors.
import { clientUrlFrom } from "../config.js";
import { LlmsrvError } from "../errors.js";

/** A thin HTTP client for the CLI commands. */
export class ApiClient {
  constructor(
    readonly base: string,
    private readonly apiKey?: string,
  ) {}

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    return { ...(this.apiKey ? { Authorization: `Bearer ${this.apiKey}` } : {}), ...extra };
  }

  /** Sends a request; non-2xx answers throw with the server's error message. */
  async request(
    method: string,
    path: string,
    body?: unknown,
    raw?: Buffer | ReadableStream,
  ): Promise<Response> {
    let res: Response;
    try {
      res = await fetch(`${this.base}${path}`, {
        method,
        headers: this.headers(body === undefined ? {} : { "Content-Type": "application/json" }),
        body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
        ...(raw && !(raw instanceof Buffer) ? { duplex: "half" } : {}),
      } as RequestInit);
    } catch (e) {
      throw new LlmsrvError(
        "internal",
        `could not connect to llmsrv at ${this.base}: ${(e as Error).message}`,
      );
    }
    if (res.ok || (method === "HEAD" && res.status === 404)) return res;
    const text = await res.text();
    let message = text;
    try {
      const parsed = JSON.parse(text) as { error?: string | { message?: string } };
      message = typeof parsed.error === "string" ? parsed.error : (parsed.error?.message ?? text);
    } catch {
      // plain text error
    }
    throw new LlmsrvError("internal", message || `HTTP ${res.status}`);
  }

  async json<T>(method: string, path: string, body?: unknown): Promise<T> {
    return (await (await this.request(method, path, body)).json()) as T;
  }

  /** Streams NDJSON objects from a POST. An `{"error"}` line throws. */
  async *stream<T>(path: string, body: unknown): AsyncGenerator<T> {
    const res = await this.request("POST", path, body);
    const decoder = new TextDecoder();
    let buffer = "";
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let nl = buffer.indexOf("\n");
      while (nl >= 0) {
        const line = buffer.slice(0, nl).trim();
        buffer = buffer.slice(nl + 1);
        if (line) {
          const obj = JSON.parse(line) as T & { error?: string };
          if (obj.error) throw new LlmsrvError("internal", obj.error);
          yield obj as Awaited<T>;
        }
        nl = buffer.indexOf("\n");
      }
    }
  }
}

/**
 * The client for the environment the CLI runs in; a bad LLMSRV_HOST/OLLAMA_HOST throws a
 * ConfigError naming the variable.
 */
export function clientFor(env: Readonly<Record<string, string | undefined>>): ApiClient {
  return new ApiClient(clientUrlFrom(env), env.LLMSRV_API_KEY?.trim() || undefined);
}
