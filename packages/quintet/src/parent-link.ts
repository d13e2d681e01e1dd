/**
 * The launcher's side of the parent link: how a child is started so that it stops on its own
 * when the launcher is gone, even after kill -9 (which the launcher cannot catch). The child
 * gets one end of a pipe as an extra file descriptor and a preload (`node --import`) that
 * watches it; the kernel closes the launcher's end whenever the launcher dies, and the
 * preload in the child then sees end-of-file (see parent-watchdog.ts).
 */
import type { StdioOptions } from "node:child_process";

/** Names the child's descriptor that is the launcher's pipe; unset means no watching. */
export const parentFdVar = "QUINTET_PARENT_FD";
/** How long an orphaned child gets for its graceful shutdown before it is killed. */
export const orphanGraceVar = "QUINTET_ORPHAN_GRACE_MS";

/** The descriptor number the pipe lands on in the child (after stdin, stdout, stderr). */
const linkFd = 3;

const watchdogUrl = new URL("./parent-watchdog.js", import.meta.url).href;

export interface LinkedSpawn {
  /** Node options to put before the child's script. */
  execArgv: string[];
  /** stdio for spawn: no stdin, piped output, and the link pipe. */
  stdio: StdioOptions;
  /** Variables that tell the preload which descriptor to watch. */
  env: Record<string, string>;
}

/** What a `node <script>` child needs on its command line to be linked to this process. */
export function linkedSpawn(orphanGraceMs: number): LinkedSpawn {
  return {
    execArgv: ["--import", watchdogUrl],
    stdio: ["ignore", "pipe", "pipe", "pipe"],
    env: { [parentFdVar]: String(linkFd), [orphanGraceVar]: String(orphanGraceMs) },
  };
}
