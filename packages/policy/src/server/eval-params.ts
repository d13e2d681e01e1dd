/**
 * What a request asks of an evaluation besides its value, read as OPA reads it: `metrics`,
 * `instrument` (metrics plus evaluation counters), `explain` (`notes`, `fails`, `full` or
 * `debug`; anything else is off), `provenance`, `strict-builtin-errors`, and the limits
 * the server sets on every evaluation.
 */

import { EXPLAIN_MODES, type ExplainMode } from "../trace/pretty-trace.js";
import { packageVersion } from "../version.js";
import type { JobInsight, JobLimits } from "./eval-job.js";
import { boolParam, lastParam } from "./query-params.js";
import { inputDepthLimit, type ServerContext } from "./server-context.js";

/** `explain`'s mode, or undefined when off (OPA: exact lower-case names only). */
export function explainParam(params: URLSearchParams): ExplainMode | undefined {
  const mode = lastParam(params, "explain");
  return (EXPLAIN_MODES as readonly string[]).includes(mode ?? "")
    ? (mode as ExplainMode)
    : undefined;
}

/** The insight of a request; `timed` also when the decision log needs the timers. */
export function insightParams(params: URLSearchParams, logged: boolean): JobInsight {
  const instrument = boolParam(params, "instrument");
  const metrics = instrument || boolParam(params, "metrics");
  const explain = explainParam(params);
  return {
    timed: metrics || logged,
    instrument,
    explain,
    prettyExplain: explain !== undefined && boolParam(params, "pretty"),
  };
}

/** True when the response carries `metrics` (`?metrics` or `?instrument`). */
export function wantsMetrics(params: URLSearchParams): boolean {
  return boolParam(params, "metrics") || boolParam(params, "instrument");
}

/** The limits the server puts on each evaluation. */
export function jobLimits(ctx: ServerContext, params: URLSearchParams): JobLimits {
  return {
    timeoutMs: ctx.evalTimeoutMs > 0 ? ctx.evalTimeoutMs : undefined,
    maxCollectionSize: ctx.maxCollectionSize,
    maxInputDepth: inputDepthLimit(ctx),
    strict: boolParam(params, "strict-builtin-errors"),
  };
}

let version: string | undefined;

/**
 * OPA's `provenance` object: this server's version (build details are not recorded in
 * this package, so they are empty as in an OPA development build) and the bundles loaded.
 */
export function provenance(ctx: ServerContext): Record<string, unknown> {
  version ??= packageVersion();
  const out: Record<string, unknown> = {
    version,
    build_commit: "",
    build_timestamp: "",
    build_hostname: "",
  };
  const bundles = ctx.bundles ?? [];
  if (bundles.length > 0) {
    const named: Record<string, { revision: string }> = {};
    for (const b of bundles) named[b.name] = { revision: "" };
    out.bundles = named;
  }
  return out;
}
