// Walks the store's manifest files, and the blob digests they reference.
import type { Dirent } from "node:fs";
import { readdir, readFile, rmdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { asManifest, type Manifest } from "./manifest.js";

/**
 * Every manifest file under `<root>/manifests` as its four path segments
 * (host, namespace, model, tag). Dot-files are manifests being written and are skipped.
 */
export async function manifestFiles(root: string): Promise<string[][]> {
  const walk = async (dir: string, depth: number, prefix: string[]): Promise<string[][]> => {
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return [];
    }
    const found: string[][] = [];
    for (const e of entries) {
      if (e.name.startsWith(".")) continue;
      const next = [...prefix, e.name];
      if (depth === 3 && e.isFile()) found.push(next);
      else if (depth < 3 && e.isDirectory())
        found.push(...(await walk(join(dir, e.name), depth + 1, next)));
    }
    return found;
  };
  return walk(join(root, "manifests"), 0, []);
}

/**
 * Digests every manifest references, read raw (a manifest whose blobs are missing still
 * counts); undefined when one cannot be parsed, so the caller keeps every blob.
 */
export async function referencedDigests(root: string): Promise<Set<string> | undefined> {
  const out = new Set<string>();
  for (const segments of await manifestFiles(root)) {
    let manifest: Manifest | undefined;
    try {
      const raw = await readFile(join(root, "manifests", ...segments), "utf8");
      manifest = asManifest(JSON.parse(raw));
    } catch {
      manifest = undefined;
    }
    if (!manifest) return undefined;
    for (const l of [manifest.config, ...manifest.layers]) out.add(l.digest);
  }
  return out;
}

/** Removes `start` and its parents while they are empty, stopping at `top`. */
export async function removeEmptyFolders(top: string, start: string): Promise<void> {
  let dir = start;
  while (dir.startsWith(top) && dir !== top) {
    try {
      await rmdir(dir);
    } catch {
      return;
    }
    dir = dirname(dir);
  }
}
