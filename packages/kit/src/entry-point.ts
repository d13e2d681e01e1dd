import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * Whether the module at `moduleUrl` is the script Node was started with (so a CLI module
 * runs its main only then, and tests can import it). Follows the npm bin symlink.
 */
export function isEntryPoint(moduleUrl: string): boolean {
  const script = process.argv[1];
  if (script === undefined) return false;
  try {
    return realpathSync(script) === fileURLToPath(moduleUrl);
  } catch {
    return false;
  }
}
