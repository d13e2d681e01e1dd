import { createWriteStream } from "node:fs";
import { mkdir, rename, rm, stat, truncate } from "node:fs/promises";
import { dirname } from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { LlmsrvError } from "../errors.js";
import { digestOfFile } from "./blob-store.js";
import type { ManifestLayer } from "./manifest.js";
import type { RegistryClient } from "./registry-client.js";

/** One progress line of a pull or push, in Ollama's shape. */
export interface TransferProgress {
  status: string;
  digest?: string;
  total?: number;
  completed?: number;
}

/** Ollama's per-layer status: the verb and the first 12 hex digits of the digest. */
export function layerStatus(verb: string, digest: string): string {
  return `${verb} ${digest.slice(7, 19)}`;
}

/**
 * The partial file of a blob being pulled. Its name is stable, so a pull that was cut off
 * resumes from its size with an HTTP Range request; it is never a blob until verified.
 */
export function partialPath(blobPath: string): string {
  return `${blobPath}-partial`;
}

async function sizeOf(path: string): Promise<number> {
  return stat(path).then(
    (s) => s.size,
    () => 0,
  );
}

/** Counts bytes as they pass and reports progress about once per percent. */
function counter(
  layer: ManifestLayer,
  start: number,
  report: (p: TransferProgress) => void,
  verb: string,
): Transform {
  let done = start;
  let reported = start;
  const step = Math.max(1, Math.floor(layer.size / 100));
  return new Transform({
    transform(chunk: Buffer, _enc, callback) {
      done += chunk.length;
      if (done - reported >= step || done === layer.size) {
        reported = done;
        report({
          status: layerStatus(verb, layer.digest),
          digest: layer.digest,
          total: layer.size,
          completed: done,
        });
      }
      callback(null, chunk);
    },
  });
}

/**
 * Downloads a layer into its partial file, resuming from what an earlier pull left. The
 * partial file is kept when the transfer fails, so the next pull continues it.
 */
export async function downloadLayer(
  client: RegistryClient,
  layer: ManifestLayer,
  partial: string,
  report: (p: TransferProgress) => void,
  signal?: AbortSignal,
): Promise<void> {
  await mkdir(dirname(partial), { recursive: true });
  let offset = await sizeOf(partial);
  if (offset > layer.size) {
    await truncate(partial, 0);
    offset = 0;
  }
  const status = layerStatus("pulling", layer.digest);
  report({ status, digest: layer.digest, total: layer.size, completed: offset });
  if (offset === layer.size) return;
  const res = await client.blob(layer.digest, offset, signal);
  // A registry that ignores Range sends the whole blob again: start over.
  const append = offset > 0 && res.status === 206;
  if (!append) offset = 0;
  if (!res.body) throw new LlmsrvError("internal", `pull blob ${layer.digest}: empty answer`);
  try {
    await pipeline(
      Readable.fromWeb(res.body as import("node:stream/web").ReadableStream),
      counter(layer, offset, report, "pulling"),
      createWriteStream(partial, { flags: append ? "a" : "w" }),
      { signal },
    );
  } catch (e) {
    throw new LlmsrvError(
      "internal",
      `pull blob ${layer.digest}: download interrupted after ${await sizeOf(partial)} of ${layer.size} bytes (pull again to resume): ${(e as Error).message}`,
    );
  }
}

/**
 * Checks a downloaded partial file against its digest. A mismatch removes it (its bytes
 * are wrong, resuming would keep them) and throws in Ollama's words.
 */
export async function verifyPartial(layer: ManifestLayer, partial: string): Promise<void> {
  const actual = await digestOfFile(partial);
  if (actual === layer.digest) return;
  await rm(partial, { force: true });
  throw new LlmsrvError(
    "digest_mismatch",
    `digest mismatch, file must be downloaded again: want ${layer.digest}, got ${actual}`,
  );
}

/** Moves a verified partial file into place as the blob. */
export async function promotePartial(partial: string, blobPath: string): Promise<void> {
  await rename(partial, blobPath);
}
