// Removes unreferenced blobs at start-up, sparing those of creates in progress.
import { readdir, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { referencedDigests } from "./manifest-files.js";

/**
 * How old an unreferenced blob must be before start-up removes it. At start-up this
 * process has nothing in flight, so the grace only protects work of others: a client that
 * uploaded a blob just before the restart and sends its create just after, or another
 * server sharing the store whose create is still checking the file (a trial load may take
 * two minutes). A blob's modification time is the moment its last byte was written.
 */
export const PRUNE_GRACE_MS = 10 * 60_000;

/** A finished blob: `sha256-<64 hex>`. */
const BLOB = /^sha256-[0-9a-f]{64}$/;
/** An upload's temporary file: `<blob>-partial-<pid>-<random>` (blob-store.ts). */
const UPLOAD_TEMP = /^sha256-[0-9a-f]{64}-partial-(\d+)-[0-9a-f]+$/;

/** What a start-up prune did. */
export interface PruneReport {
  removed: number;
  removedBytes: number;
  /** Set when nothing was removed because a manifest could not be parsed. */
  skipped?: string;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Ollama's start-up prune: removes blobs that no manifest references, and temporary files
 * of uploads whose process is gone, when older than `graceMs`. A pull's partial file
 * (`<blob>-partial`) is kept, since the next pull resumes it. Nothing is removed when any
 * manifest cannot be parsed (its blobs would look unreferenced).
 */
export async function pruneUnreferencedBlobs(
  root: string,
  graceMs = PRUNE_GRACE_MS,
  now = Date.now(),
): Promise<PruneReport> {
  const report: PruneReport = { removed: 0, removedBytes: 0 };
  const referenced = await referencedDigests(root);
  if (!referenced) {
    report.skipped = "a manifest could not be parsed";
    return report;
  }
  const dir = join(root, "blobs");
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    const upload = UPLOAD_TEMP.exec(name);
    const candidate = upload
      ? !processAlive(Number(upload[1]))
      : BLOB.test(name) && !referenced.has(name.replace("-", ":"));
    if (!candidate) continue;
    const path = join(dir, name);
    const info = await stat(path).catch(() => undefined);
    if (!info?.isFile() || now - info.mtimeMs < graceMs) continue;
    await rm(path, { force: true });
    report.removed++;
    report.removedBytes += info.size;
  }
  return report;
}
