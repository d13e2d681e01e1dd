/**
 * `rego run --watch`: notices changed policy and data files and reloads them. The paths are
 * polled (names, sizes and modification times of every file below them) rather than
 * watched with fs.watch, whose events differ between platforms and miss files created in
 * new directories; a poll every quarter second costs a directory walk.
 *
 * A reload builds a new engine from scratch; if anything fails to load, parse or compile,
 * the last good engine stays in use and the errors are reported.
 */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { PolicyEngine } from "../engine.js";
import { engineFromFiles } from "../loader/build-engine.js";
import { type LoadedFiles, loadPaths } from "../loader/load-paths.js";
import { describeFailure, isExpectedFailure } from "./error-report.js";

/** How often the paths are polled. */
export const WATCH_INTERVAL_MS = 250;

/** A text that changes whenever a file below `paths` is added, removed or rewritten. */
export function pathsSignature(paths: readonly string[]): string {
  const parts: string[] = [];
  const visit = (path: string): void => {
    let st: ReturnType<typeof statSync>;
    try {
      st = statSync(path);
    } catch {
      parts.push(`${path}:missing`);
      return;
    }
    if (st.isDirectory()) {
      let names: string[] = [];
      try {
        names = readdirSync(path).sort();
      } catch {
        parts.push(`${path}:unreadable`);
      }
      for (const name of names) visit(join(path, name));
    } else parts.push(`${path}:${st.size}:${st.mtimeMs}`);
  };
  for (const p of paths) visit(p);
  return parts.join("\n");
}

/** Calls `onChange` (never twice at once) whenever the files below `paths` change. */
export function watchPaths(
  paths: readonly string[],
  onChange: () => void | Promise<void>,
  intervalMs = WATCH_INTERVAL_MS,
): { stop(): void } {
  let last = pathsSignature(paths);
  let busy = false;
  const timer = setInterval(async () => {
    if (busy) return;
    const now = pathsSignature(paths);
    if (now === last) return;
    last = now;
    busy = true;
    try {
      await onChange();
    } finally {
      busy = false;
    }
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/** The engine built from the last good set of files. */
export interface LoadedEngine {
  engine: PolicyEngine;
  files: LoadedFiles;
}

/** The outcome of a reload: the new engine, or why the old one was kept. */
export type ReloadResult = { ok: true; loaded: LoadedEngine } | { ok: false; error: string };

/**
 * Loads `paths` afresh and compiles them (with `extra` modules, e.g. the REPL's rules);
 * a load, parse or compile failure comes back as text rather than an exception.
 */
export function reloadEngine(
  paths: readonly string[],
  v0Compatible: boolean,
  extra: (files: LoadedFiles) => LoadedFiles = (f) => f,
): ReloadResult {
  try {
    const files = loadPaths([...paths]);
    const engine = engineFromFiles(extra(files), { v0Compatible });
    return { ok: true, loaded: { engine, files } };
  } catch (e) {
    if (!isExpectedFailure(e)) throw e;
    return { ok: false, error: describeFailure(e, true).trimEnd() };
  }
}
