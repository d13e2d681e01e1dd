/**
 * `--profile`: time spent per expression line, as OPA's profiler measures it. Each Eval or
 * Redo of an expression starts a clock; the next one stops it and charges the time (and
 * one eval or redo) to the line of the expression that started it. NUM GEN EXPR counts
 * the distinct expressions on a line.
 */
import type { Expr, Loc } from "../ast/nodes.js";
import { goDuration, textTable } from "./text-table.js";
import type { TraceEvent } from "./tracer.js";

/** One line's figures (OPA's profiler.ExprStats JSON). */
export interface ExprStats {
  location: { file: string; row: number; col: number };
  total_time_ns: number;
  num_eval: number;
  num_redo: number;
  num_gen_expr: number;
}

/** The criteria `--profile-sort` accepts, each sorting in decreasing order. */
export const PROFILE_SORT_CRITERIA = [
  "total_time_ns",
  "num_eval",
  "num_redo",
  "num_gen_expr",
  "file",
  "line",
] as const;
export type ProfileSort = (typeof PROFILE_SORT_CRITERIA)[number];

/** OPA's default order. */
export const DEFAULT_PROFILE_SORT: readonly ProfileSort[] = [
  "total_time_ns",
  "num_eval",
  "num_redo",
  "file",
  "line",
];

interface LineStats {
  stats: ExprStats;
  exprs: Set<Expr>;
}

const compareBy: Record<ProfileSort, (a: ExprStats, b: ExprStats) => number> = {
  total_time_ns: (a, b) => b.total_time_ns - a.total_time_ns,
  num_eval: (a, b) => b.num_eval - a.num_eval,
  num_redo: (a, b) => b.num_redo - a.num_redo,
  num_gen_expr: (a, b) => b.num_gen_expr - a.num_gen_expr,
  file: (a, b) =>
    a.location.file < b.location.file ? 1 : a.location.file > b.location.file ? -1 : 0,
  line: (a, b) => b.location.row - a.location.row,
};

/** Collects per-line timings from trace events. */
export class Profiler {
  private readonly lines = new Map<string, LineStats>();
  private prev: { expr: Expr; redo: boolean; at: bigint } | undefined;

  /** The trace listener. */
  readonly listener = (event: TraceEvent): void => {
    if ((event.op !== "Eval" && event.op !== "Redo") || event.node.kind !== "expr") return;
    const now = process.hrtime.bigint();
    this.charge(now);
    this.prev = { expr: event.node.expr, redo: event.op === "Redo", at: now };
  };

  private charge(now: bigint): void {
    const p = this.prev;
    if (!p) return;
    const loc: Loc = p.expr.loc;
    const key = `${loc.file}\u0000${loc.row}`;
    let line = this.lines.get(key);
    if (!line) {
      line = {
        stats: {
          location: { file: loc.file, row: loc.row, col: loc.col },
          total_time_ns: 0,
          num_eval: 0,
          num_redo: 0,
          num_gen_expr: 0,
        },
        exprs: new Set(),
      };
      this.lines.set(key, line);
    }
    line.stats.total_time_ns += Number(now - p.at);
    if (p.redo) line.stats.num_redo++;
    else line.stats.num_eval++;
    line.exprs.add(p.expr);
  }

  /** The lines sorted by `criteria` (ties broken by the next), at most `limit` (0: all). */
  report(criteria: readonly ProfileSort[], limit: number): ExprStats[] {
    this.charge(process.hrtime.bigint());
    this.prev = undefined;
    const stats = [...this.lines.values()].map((l) => ({
      ...l.stats,
      num_gen_expr: l.exprs.size,
    }));
    stats.sort((a, b) => {
      for (const c of criteria) {
        const d = compareBy[c](a, b);
        if (d !== 0) return d;
      }
      return 0;
    });
    return limit > 0 ? stats.slice(0, limit) : stats;
  }
}

/** OPA's profile table: TIME, NUM EVAL, NUM REDO, NUM GEN EXPR, LOCATION. */
export function profileTable(stats: readonly ExprStats[]): string {
  if (stats.length === 0) return "";
  return textTable(
    ["Time", "Num Eval", "Num Redo", "Num Gen Expr", "Location"],
    stats.map((s) => [
      goDuration(s.total_time_ns),
      String(s.num_eval),
      String(s.num_redo),
      String(s.num_gen_expr),
      `${s.location.file}:${s.location.row}`,
    ]),
  );
}
