/**
 * A small OpenAI-compatible `POST /v1/embeddings` endpoint for tests that must make the
 * embeddings service misbehave (429, 5xx, slow answers, missing embeddings, wrong sizes).
 * Vectors are deterministic: a fixed table for hand-computed distances, else derived from a
 * hash of the text.
 */
import { createHash } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** What the endpoint should do with one request instead of answering normally. */
export interface Misbehaviour {
  readonly status?: number;
  readonly delayMs?: number;
  readonly headers?: Record<string, string>;
  /** Inputs for which the answer's item has no embedding. */
  readonly omit?: readonly string[];
  /** Answer vectors of this length instead of `dim`. */
  readonly dim?: number;
}

export interface EndpointOptions {
  readonly dim: number;
  /** Fixed vectors by input text (shorter ones are padded with zeros to `dim`). */
  readonly vectors?: ReadonlyMap<string, readonly number[]>;
  /** Called per request (1-based count); a result changes how that request is answered. */
  readonly plan?: (inputs: readonly string[], n: number) => Misbehaviour | undefined;
  /**
   * `encoding_format` "base64": answered as base64 float32 (default, as OpenAI and Ollama),
   * refused with 400 (`float-only`, a server without it), or ignored (`ignore`: numbers).
   */
  readonly base64?: "answer" | "float-only" | "ignore";
}

export interface Endpoint {
  /** Base URL ending with /v1. */
  readonly url: string;
  /** Input arrays of every request received, in arrival order. */
  readonly requests: string[][];
  /** Whether each request carried `input` as an array. */
  readonly arrayInputs: boolean[];
  /** The `encoding_format` of each request (undefined when absent). */
  readonly encodings: Array<string | undefined>;
  /** Most requests that were being answered at the same time. */
  readonly maxInFlight: () => number;
  close(): Promise<void>;
}

/** A deterministic pseudo-random vector in [-1, 1) derived from the text. */
export function hashVector(text: string, dim: number): number[] {
  const out: number[] = [];
  let block = createHash("sha256").update(text).digest();
  for (let i = 0; out.length < dim; i++) {
    if (i > 0 && i % 16 === 0) block = createHash("sha256").update(block).digest();
    out.push(block.readUInt16BE((i % 16) * 2) / 32768 - 1);
  }
  return out;
}

function vectorFor(text: string, options: EndpointOptions, dim = options.dim): number[] {
  const fixed = options.vectors?.get(text);
  if (!fixed) return hashVector(text, dim);
  return Array.from({ length: dim }, (_, i) => fixed[i] ?? 0);
}

/** A vector as base64 of its little-endian float32 values. */
export function base64Vector(vector: readonly number[]): string {
  const bytes = Buffer.alloc(vector.length * 4);
  for (const [i, x] of vector.entries()) bytes.writeFloatLE(x, i * 4);
  return bytes.toString("base64");
}

/** Starts the endpoint on 127.0.0.1 with an ephemeral port. */
export async function startEmbeddingsEndpoint(options: EndpointOptions): Promise<Endpoint> {
  const requests: string[][] = [];
  const arrayInputs: boolean[] = [];
  const encodings: Array<string | undefined> = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", async () => {
      if (req.method !== "POST" || req.url !== "/v1/embeddings") {
        res.writeHead(404).end();
        return;
      }
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      res.on("close", () => {
        inFlight--;
      });
      const parsed = JSON.parse(body) as { input: string | string[]; encoding_format?: string };
      const inputs = Array.isArray(parsed.input) ? parsed.input : [parsed.input];
      requests.push(inputs);
      arrayInputs.push(Array.isArray(parsed.input));
      encodings.push(parsed.encoding_format);
      const wantsBase64 = parsed.encoding_format === "base64";
      const refused = wantsBase64 && options.base64 === "float-only";
      const plan = refused ? { status: 400 } : (options.plan?.(inputs, requests.length) ?? {});
      if (plan.delayMs) await new Promise((resolve) => setTimeout(resolve, plan.delayMs));
      if (res.destroyed) return;
      if (plan.status && plan.status !== 200) {
        res.writeHead(plan.status, { "content-type": "application/json", ...plan.headers });
        res.end(JSON.stringify({ error: { message: `planned failure ${plan.status}` } }));
        return;
      }
      const encode = wantsBase64 && (options.base64 ?? "answer") === "answer";
      const data = inputs.map((text, index) => {
        if (plan.omit?.includes(text)) return { object: "embedding", index };
        const vector = vectorFor(text, options, plan.dim);
        return { object: "embedding", index, embedding: encode ? base64Vector(vector) : vector };
      });
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ object: "list", data, model: "mock" }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    arrayInputs,
    encodings,
    maxInFlight: () => maxInFlight,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A base URL where nothing listens (a port that was just freed). */
export async function deadEndpointUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/v1`;
}
