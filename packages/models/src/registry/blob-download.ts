// Downloads one blob from a registry: resumed partial files, verified before use.
import { mkdir, open, rename, rm, stat, truncate } from "node:fs/promises";
import { dirname } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { TransferProgress } from "../api/types.js";
import { LlmsrvError } from "../errors.js";
import { digestOfFile } from "../store/blob-store.js";
import type { ManifestLayer } from "../store/manifest.js";
import {
  type RegistryClient,
  type RegistrySettings,
  RegistryUnreachable,
} from "./registry-client.js";

/** Tries of one blob download within a pull, as Ollama's maxRetries (server/download.go). */
export const DOWNLOAD_ATTEMPTS = 6;

/** Ollama's first wait before a retry, doubled each time (1, 2, 4, 8, 16 s). */
const DEFAULT_RETRY_DELAY_MS = 1000;

/** A transfer cut off before the blob's last byte: worth trying again from there. */
class DownloadInterrupted extends Error {}

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

/** Reports a layer's progress about once per percent, and when it completes. */
function progressReporter(
  layer: ManifestLayer,
  start: number,
  report: (p: TransferProgress) => void,
  verb: string,
): (n: number) => void {
  let done = start;
  let reported = start;
  const step = Math.max(1, Math.floor(layer.size / 100));
  return (n) => {
    done += n;
    if (done - reported < step && done !== layer.size) return;
    reported = done;
    const status = layerStatus(verb, layer.digest);
    report({ status, digest: layer.digest, total: layer.size, completed: done });
  };
}

class OversizedBlob extends Error {}

/**
 * Appends every chunk to the file as it arrives, awaiting each write, so a transfer cut
 * off keeps every byte received (a stream pipeline would drop its queued writes).
 */
async function writeChunks(
  body: AsyncIterable<Uint8Array>,
  path: string,
  room: number,
  append: boolean,
  progress: (n: number) => void,
): Promise<void> {
  const file = await open(path, append ? "a" : "w");
  let left = room;
  try {
    for await (const chunk of body) {
      // More bytes than the manifest's size can only be wrong: stop before the disk fills.
      if (chunk.length > left) throw new OversizedBlob();
      left -= chunk.length;
      await file.write(chunk);
      progress(chunk.length);
    }
  } finally {
    await file.close();
  }
}

/**
 * Downloads a layer into its partial file, resuming from what an earlier pull left. A
 * transfer cut off is tried again from the bytes written (Range), up to DOWNLOAD_ATTEMPTS
 * times with a doubling wait, as Ollama does; then the pull fails and the partial file is
 * kept, so the next pull continues it.
 */
export async function downloadLayer(
  client: RegistryClient,
  layer: ManifestLayer,
  partial: string,
  report: (p: TransferProgress) => void,
  signal?: AbortSignal,
  retry: Pick<RegistrySettings, "retryDelayMs" | "onRetry"> = {},
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await downloadOnce(client, layer, partial, report, signal);
      return;
    } catch (e) {
      const retriable = e instanceof DownloadInterrupted || e instanceof RegistryUnreachable;
      if (!retriable || signal?.aborted) throw e;
      const done = await sizeOf(partial);
      const what = `download interrupted after ${done} of ${layer.size} bytes`;
      if (attempt >= DOWNLOAD_ATTEMPTS)
        throw new LlmsrvError(
          "internal",
          `pull blob ${layer.digest}: max retries exceeded: ${what} in each of ${DOWNLOAD_ATTEMPTS} attempts (pull again to resume): ${e.message}`,
        );
      const wait = (retry.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS) * 2 ** (attempt - 1);
      retry.onRetry?.(
        `${layer.digest.slice(7, 19)} attempt ${attempt} failed: ${what}: ${e.message}, retrying in ${wait} ms`,
      );
      await sleep(wait, undefined, { signal });
    }
  }
}

/** One try of a layer's download, from the partial file's size on. */
async function downloadOnce(
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
    const progress = progressReporter(layer, offset, report, "pulling");
    const body = res.body as unknown as AsyncIterable<Uint8Array>;
    await writeChunks(body, partial, layer.size - offset, append, progress);
  } catch (e) {
    if (e instanceof OversizedBlob) {
      await rm(partial, { force: true });
      throw new LlmsrvError(
        "digest_mismatch",
        `pull blob ${layer.digest}: the registry sent more than the manifest's ${layer.size} bytes`,
      );
    }
    if (signal?.aborted) throw e;
    throw new DownloadInterrupted((e as Error).message);
  }
  // A body that ends early without an error (a registry closing cleanly) is cut off too.
  const size = await sizeOf(partial);
  if (size < layer.size) throw new DownloadInterrupted(`connection closed at byte ${size}`);
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
