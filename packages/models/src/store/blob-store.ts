// The content-addressed blob store: digests, atomic writes, reads and removal.
import { createHash, randomBytes } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { LlmsrvError } from "../errors.js";

const DIGEST = /^sha256[:-]([0-9a-f]{64})$/;

/** Normalises `sha256:<hex>` or `sha256-<hex>` to `sha256:<hex>`; throws 400 otherwise. */
export function normalizeDigest(text: string): string {
  const m = DIGEST.exec(text.trim());
  if (!m) throw new LlmsrvError("invalid_digest", "invalid digest format");
  return `sha256:${m[1]}`;
}

/** SHA-256 of bytes as `sha256:<hex>`. */
export function digestOf(bytes: Buffer | string): string {
  return `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
}

/** SHA-256 of a file as `sha256:<hex>`, streamed. */
export async function digestOfFile(path: string): Promise<string> {
  const hash = createHash("sha256");
  await pipeline(createReadStream(path), hash);
  return `sha256:${hash.digest("hex")}`;
}

/** A temporary name next to `path`, unique per process and operation. */
export function tempPathFor(path: string): string {
  return `${path}-partial-${process.pid}-${randomBytes(6).toString("hex")}`;
}

/** Content-addressed files under `blobs/sha256-<hex>`, written atomically and verified. */
export class BlobStore {
  readonly dir: string;

  constructor(root: string) {
    this.dir = join(root, "blobs");
  }

  /** Absolute path of a blob (whether or not it exists). */
  path(digest: string): string {
    return join(this.dir, normalizeDigest(digest).replace(":", "-"));
  }

  async has(digest: string): Promise<boolean> {
    try {
      return (await stat(this.path(digest))).isFile();
    } catch {
      return false;
    }
  }

  async size(digest: string): Promise<number> {
    return (await stat(this.path(digest))).size;
  }

  /** Stores bytes, returning their digest. Existing blobs are left as they are. */
  async putBytes(bytes: Buffer | string): Promise<string> {
    const digest = digestOf(bytes);
    if (await this.has(digest)) return digest;
    await mkdir(this.dir, { recursive: true });
    const tmp = tempPathFor(this.path(digest));
    await writeFile(tmp, bytes);
    await rename(tmp, this.path(digest));
    return digest;
  }

  /**
   * Stores a stream under the digest the caller claims, hashing as it writes; a mismatch
   * deletes the partial file and throws 400 naming both digests. Returns false when the
   * blob already existed (nothing written).
   */
  async putStream(claimed: string, body: Readable): Promise<boolean> {
    const digest = normalizeDigest(claimed);
    if (await this.has(digest)) {
      body.resume();
      return false;
    }
    await mkdir(this.dir, { recursive: true });
    const tmp = tempPathFor(this.path(digest));
    const hash = createHash("sha256");
    body.on("data", (chunk: Buffer) => hash.update(chunk));
    try {
      await pipeline(body, createWriteStream(tmp));
    } catch (e) {
      await rm(tmp, { force: true });
      throw e;
    }
    const actual = `sha256:${hash.digest("hex")}`;
    if (actual !== digest) {
      await rm(tmp, { force: true });
      throw new LlmsrvError(
        "digest_mismatch",
        `digest mismatch, expected "${digest}", got "${actual}"`,
      );
    }
    await rename(tmp, this.path(digest));
    return true;
  }

  /** Copies a local file into the store; returns its digest. */
  async putFile(path: string): Promise<string> {
    const digest = await digestOfFile(path);
    await this.putStream(digest, createReadStream(path));
    return digest;
  }

  /** Removes one blob; a missing one is not an error. */
  async remove(digest: string): Promise<void> {
    await rm(this.path(digest), { force: true });
  }
}
