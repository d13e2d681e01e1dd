/** Paths and helpers shared by the server and CLI tests. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** packages/policy/examples, from dist/test/ where the compiled tests run. */
export const EXAMPLES_DIR = fileURLToPath(new URL("../../examples", import.meta.url));

/** Writes `files` (relative path → content) under a new temporary directory. */
export function tempTree(files: Record<string, string>): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), "rego-test-"));
  for (const [rel, content] of Object.entries(files)) {
    const path = join(dir, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
