/**
 * The Health API: `GET /health` answers 200 `{}` once a trivial query evaluates (on the
 * main thread: it must answer at once even while workers run slow decisions) and decisions
 * can be evaluated (an evaluation worker has started, or the main thread evaluates them;
 * 500 while workers are starting or failing to); with `?bundles` (or the legacy `?bundle`) every configured
 * bundle must also have activated, and with `?plugins` every plugin must be OK
 * (`exclude-plugin=<name>` skips some). `GET /health/<path>` evaluates
 * `data.system.health.<path>` where decisions are evaluated, with the plugins' states as
 * input (`plugin_state`, `plugins_ready`), and is healthy only when it is true.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { BUNDLE_PLUGIN } from "../plugins/bundle-plugin.js";
import { dataPath } from "./data-handler.js";
import type { JobResult } from "./eval-job.js";
import { boolParam } from "./query-params.js";
import { sendJson } from "./respond.js";
import { evaluationsOf, type RequestTarget, type ServerContext } from "./server-context.js";

/** The `?bundles` / `?plugins` verdict; undefined when healthy. */
function pluginProblem(ctx: ServerContext, params: URLSearchParams): string | undefined {
  const manager = ctx.management?.manager;
  if (!manager) return undefined;
  if (boolParam(params, "bundles") || boolParam(params, "bundle")) {
    const state = manager.state(BUNDLE_PLUGIN);
    if (state !== undefined && state !== "OK") return "one or more bundles are not activated";
  }
  if (boolParam(params, "plugins")) {
    const excluded = new Set(params.getAll("exclude-plugin"));
    for (const [name, state] of Object.entries(manager.allStates())) {
      if (!excluded.has(name) && state !== "OK") return "one or more plugins are not up";
    }
  }
  return undefined;
}

/** The input of a `/health/<path>` policy: every plugin's state and the readiness latch. */
function healthInput(ctx: ServerContext) {
  const manager = ctx.management?.manager;
  return {
    plugin_state: manager?.allStates() ?? {},
    plugins_ready: manager?.pluginsReady ?? true,
  };
}

/** Serves GET /health and /health/<path>. */
export async function handleHealth(
  ctx: ServerContext,
  _req: IncomingMessage,
  res: ServerResponse,
  target: RequestTarget,
): Promise<void> {
  const pretty = target.params.has("pretty");
  const sub = dataPath(target.pathname);
  if (sub.length === 0) {
    try {
      ctx.engine.query("x = 1");
      if (!evaluationsOf(ctx).ready()) throw new Error("decisions cannot be evaluated now");
    } catch {
      sendJson(res, 500, { error: "unable to perform evaluation" }, pretty);
      return;
    }
    const problem = pluginProblem(ctx, target.params);
    if (problem) sendJson(res, 500, { error: problem }, pretty);
    else sendJson(res, 200, {}, pretty);
    return;
  }
  const name = `data.system.health.${sub.join(".")}`;
  if (!evaluationsOf(ctx).ready()) {
    sendJson(res, 500, { error: "unable to perform evaluation" }, pretty);
    return;
  }
  let result: JobResult;
  try {
    result = await evaluationsOf(ctx).run({ kind: "health", path: sub, input: healthInput(ctx) });
  } catch {
    sendJson(res, 500, { error: `health check (${name}) returned unexpected value` }, pretty);
    return;
  }
  if (result.resultText === "true") sendJson(res, 200, {}, pretty);
  else if (result.resultText === undefined)
    sendJson(res, 500, { error: `health check (${name}) was undefined` }, pretty);
  else sendJson(res, 500, { error: `health check (${name}) returned unexpected value` }, pretty);
}
