// CPU time of a process and its descendants (Linux /proc), steadier than wall time on a busy machine.
import { readFileSync } from "node:fs";

/** Clock ticks per second of /proc's utime and stime (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

function ownTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the command name, which is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return Number(fields[11]) + Number(fields[12]); // utime, stime
}

function childrenOf(pid: number): number[] {
  try {
    const text = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim();
    return text === "" ? [] : text.split(" ").map(Number);
  } catch {
    return [];
  }
}

/**
 * Seconds of CPU used so far by `pid` and its live descendants (the server and its model
 * runners); NaN where /proc cannot tell (another OS).
 */
export function treeCpuSeconds(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  try {
    let ticks = 0;
    const pending = [pid];
    for (let p = pending.pop(); p !== undefined; p = pending.pop()) {
      ticks += ownTicks(p);
      pending.push(...childrenOf(p));
    }
    return ticks / TICKS_PER_SECOND;
  } catch {
    return Number.NaN;
  }
}
