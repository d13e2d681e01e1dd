/** Starts a real policy server on an ephemeral port for HTTP tests. */
import { buildEngine } from "../../src/loader/build-engine.js";
import {
  type DecisionLogsConfig,
  parseDecisionLogsConfig,
} from "../../src/plugins/decision-logs/config.js";
import { DecisionLogsPlugin } from "../../src/plugins/decision-logs/decision-logs-plugin.js";
import { type RunningServer, startPolicyServer } from "../../src/server/app.js";

export interface Harness {
  server: RunningServer;
  /** Decision log lines written so far (when logging is on). */
  logLines: string[];
  post(path: string, body: string, headers?: Record<string, string>): Promise<Response>;
  get(path: string): Promise<Response>;
  request(method: string, path: string): Promise<Response>;
  /** Any method, with an optional body (sent as is) and headers. */
  send(
    method: string,
    path: string,
    body?: string,
    headers?: Record<string, string>,
  ): Promise<Response>;
}

/** Loads `paths`, starts a server on 127.0.0.1:0 and returns helpers to call it. */
export async function startHarness(
  paths: string[],
  options: {
    decisionLogs?: boolean;
    maxBodyBytes?: number;
    evalTimeoutMs?: number;
    maxInputDepth?: number;
    maxCollectionSize?: number;
    defaultDecision?: string[];
    /** Evaluation workers; default 0, or REGO_TEST_SERVER_WORKERS to run a suite on the pool. */
    workers?: number;
  } = {},
): Promise<Harness> {
  const { engine, files } = buildEngine(paths);
  const logLines: string[] = [];
  const server = await startPolicyServer(
    {
      engine,
      policies: files.modules,
      bundles: files.bundles,
      maxBodyBytes: options.maxBodyBytes ?? 1024 * 1024,
      evalTimeoutMs: options.evalTimeoutMs ?? 0,
      maxInputDepth: options.maxInputDepth,
      maxCollectionSize: options.maxCollectionSize,
      defaultDecision: options.defaultDecision,
      workers: options.workers ?? Number(process.env.REGO_TEST_SERVER_WORKERS ?? 0),
      decisionLogger: options.decisionLogs
        ? new DecisionLogsPlugin({
            config: parseDecisionLogsConfig({ console: true }, []) as DecisionLogsConfig,
            engine: () => engine,
            console: (line) => logLines.push(line),
          })
        : undefined,
    },
    "127.0.0.1:0",
  );
  const call = (
    method: string,
    path: string,
    body?: string,
    headers: Record<string, string> = {},
  ) =>
    fetch(`${server.url}${path}`, {
      method,
      body,
      headers: body === undefined ? headers : { "content-type": "application/json", ...headers },
    });
  return {
    server,
    logLines,
    post: (path, body, headers) => call("POST", path, body, headers),
    get: (path) => call("GET", path),
    request: (method, path) => call(method, path),
    send: (method, path, body, headers) => call(method, path, body, headers),
  };
}
