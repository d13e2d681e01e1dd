/**
 * Who a process is, beyond its pid: a pid alone is reused by unrelated processes, answers
 * `kill(pid, 0)` while its process is a zombie, and in a fresh pid namespace the new process is
 * pid 1 exactly like the crashed one before it. On Linux, /proc gives each process's start time
 * (clock ticks after boot, field 22 of /proc/<pid>/stat) and the kernel's boot id; together with
 * the pid they name one process for as long as the machine runs. Elsewhere (no /proc) only the
 * pid is known and liveness falls back to a signal-0 probe.
 */
import { readFileSync } from "node:fs";

/** A process as a lock file records it; `start` and `boot` are absent without /proc. */
export interface ProcessIdentity {
  readonly pid: number;
  readonly start?: string;
  readonly boot?: string;
}

/** What /proc/<pid>/stat says about a process that is there. */
interface ProcStat {
  readonly pid: number;
  readonly state: string;
  readonly start: string;
}

/** Reads /proc/<pid>/stat; undefined when it is absent, unreadable or not in the known layout. */
function readProcStat(pid: number | "self"): ProcStat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may itself hold spaces or ')', so the
  // fields are counted from the last ')': field 3 (state) comes first, field 22 (starttime) 20th.
  const close = text.lastIndexOf(")");
  const fields = text.slice(close + 2).split(" ");
  const own = Number(text.slice(0, text.indexOf(" (")));
  const [state, start] = [fields[0], fields[19]];
  if (!Number.isSafeInteger(own) || !state || !start || !/^\d+$/.test(start)) return undefined;
  return { pid: own, state, start };
}

/** The kernel's boot id, or undefined without /proc. */
function readBootId(): string | undefined {
  try {
    const id = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
    return /^[\w-]+$/.test(id) ? id : undefined;
  } catch {
    return undefined;
  }
}

let own: ProcessIdentity | undefined;

/**
 * This process's identity. /proc counts only when /proc/self is this process (a /proc mounted
 * from another pid namespace would describe other processes under our pids).
 */
export function ownIdentity(): ProcessIdentity {
  if (own === undefined) {
    const self = readProcStat("self");
    own =
      self?.pid === process.pid
        ? { pid: process.pid, start: self.start, boot: readBootId() }
        : { pid: process.pid };
  }
  return own;
}

/** True when a signal could reach the pid (EPERM: the process exists but is someone else's). */
function signalReaches(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * True when the process `who` names has certainly ended: it was recorded in an earlier boot,
 * its pid is gone, it is a zombie (exited, not yet reaped), or its pid now belongs to a process
 * that started at another time. False while it may still run; a process that /proc hides
 * (mounted with hidepid) is asked with signal 0, and counts as running when that reaches it.
 */
export function hasEnded(who: ProcessIdentity): boolean {
  const me = ownIdentity();
  if (who.boot !== undefined && me.boot !== undefined && who.boot !== me.boot) return true;
  if (me.start !== undefined) {
    const stat = readProcStat(who.pid);
    if (stat !== undefined) {
      if (stat.state === "Z" || stat.state === "X" || stat.state === "x") return true;
      return who.start !== undefined && who.start !== stat.start;
    }
  }
  return !signalReaches(who.pid);
}
