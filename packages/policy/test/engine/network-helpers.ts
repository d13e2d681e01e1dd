/** Real HTTP(S) servers on port 0, for the tests of network builtins (test CA: ../test-pki.ts). */
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { PolicyEngine, type QueryOptions } from "../../src/engine.js";
import { fromJSON, toJSON } from "../../src/value/value.js";

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void;

export interface TestServer {
  /** `http://127.0.0.1:<port>` (or https). */
  base: string;
  /** Every request received: method, url, lower-cased headers, body. */
  requests: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }[];
  close(): Promise<void>;
}

function listen(
  server: http.Server,
  scheme: string,
  requests: TestServer["requests"],
): Promise<TestServer> {
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        base: `${scheme}://127.0.0.1:${port}`,
        requests,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

function recording(handler: Handler, requests: TestServer["requests"]): http.RequestListener {
  return (req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (c: string) => {
      body += c;
    });
    req.on("end", () => {
      requests.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      handler(req, res, body);
    });
  };
}

export function startServer(handler: Handler): Promise<TestServer> {
  const requests: TestServer["requests"] = [];
  return listen(http.createServer(recording(handler, requests)), "http", requests);
}

export function startTlsServer(
  options: https.ServerOptions,
  handler: Handler,
): Promise<TestServer> {
  const requests: TestServer["requests"] = [];
  return listen(https.createServer(options, recording(handler, requests)), "https", requests);
}

/** A port nothing listens on (a server's, closed again). */
export async function closedPort(): Promise<number> {
  const s = await startServer(() => undefined);
  const port = Number(new URL(s.base).port);
  await s.close();
  return port;
}

/** An engine holding one module. */
export function engineWith(
  policy: string,
  options?: ConstructorParameters<typeof PolicyEngine>[0],
): PolicyEngine {
  const e = new PolicyEngine(options);
  e.addModule("p.rego", policy);
  return e;
}

/** `queryAsync` of `query` with JSON input; the first expression's value as JSON. */
export async function evalAsync(
  engine: PolicyEngine,
  query: string,
  input?: unknown,
  options: QueryOptions = {},
): Promise<unknown> {
  const results = await engine.queryAsync(query, {
    ...options,
    input: input === undefined ? undefined : fromJSON(input),
  });
  const first = results[0]?.expressions[0];
  return first === undefined ? undefined : toJSON(first.value);
}
