/**
 * `--metrics` / `--instrument`: named timers (nanoseconds) and counters, printed as OPA
 * prints its metrics: a JSON object sorted by name, or a METRIC/VALUE table.
 */
import { textTable } from "./text-table.js";
import type { TraceEvent } from "./tracer.js";

/** Timers and counters of one command run. */
export class Metrics {
  private readonly values = new Map<string, number>();

  /** Runs `f`, adding its wall time to `timer_<name>_ns`. */
  time<T>(name: string, f: () => T): T {
    const start = process.hrtime.bigint();
    try {
      return f();
    } finally {
      this.add(`timer_${name}_ns`, Number(process.hrtime.bigint() - start));
    }
  }

  add(key: string, n: number): void {
    this.values.set(key, (this.values.get(key) ?? 0) + n);
  }

  get(key: string): number | undefined {
    return this.values.get(key);
  }

  /** The metrics as a JSON object, keys sorted. */
  toJSON(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const key of [...this.values.keys()].sort()) out[key] = this.values.get(key) as number;
    return out;
  }

  /** The METRIC/VALUE table. */
  table(): string {
    const rows = Object.entries(this.toJSON()).map(([k, v]) => [k, String(v)]);
    return rows.length === 0 ? "" : textTable(["Metric", "Value"], rows);
  }
}

/**
 * `--instrument`'s counters, from trace events: expressions evaluated and re-evaluated,
 * rule bodies entered and the `trace()` notes seen.
 */
export function instrumentListener(metrics: Metrics): (event: TraceEvent) => void {
  return (event) => {
    if (event.node.kind === "expr") {
      if (event.op === "Eval") metrics.add("counter_eval_op_expr_eval", 1);
      else if (event.op === "Redo") metrics.add("counter_eval_op_expr_redo", 1);
      else if (event.op === "Fail") metrics.add("counter_eval_op_expr_fail", 1);
      else if (event.op === "Note") metrics.add("counter_eval_op_note", 1);
    } else if (event.node.kind === "rule" && event.op === "Enter") {
      metrics.add("counter_eval_op_rule_eval", 1);
    }
  };
}
