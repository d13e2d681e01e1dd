/** Real HTTP(S) servers on port 0 and a test CA, for the tests of network builtins. */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
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

/** A CA and certificates it signed, made with openssl in a temporary directory. */
export interface TestPki {
  ca: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
  /** Files of the same, for the *_file options. */
  files: { ca: string; clientCert: string; clientKey: string };
  remove(): void;
}

export function makePki(): TestPki {
  const dir = mkdtempSync(join(tmpdir(), "rego-pki-"));
  const at = (f: string): string => join(dir, f);
  const run = (args: string[]): void => {
    execFileSync("openssl", args, { cwd: dir, stdio: "ignore" });
  };
  const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
  run([
    "req",
    "-x509",
    ...ec,
    "-keyout",
    "ca.key",
    "-out",
    "ca.crt",
    "-days",
    "2",
    "-subj",
    "/CN=Rego Test CA",
    "-addext",
    "basicConstraints=critical,CA:TRUE",
    "-addext",
    "keyUsage=critical,keyCertSign,cRLSign",
  ]);
  const leaf = (name: string, ext: string): void => {
    run(["req", ...ec, "-keyout", `${name}.key`, "-out", `${name}.csr`, "-subj", `/CN=${name}`]);
    writeFileSync(at(`${name}.ext`), ext);
    run([
      "x509",
      "-req",
      "-in",
      `${name}.csr`,
      "-CA",
      "ca.crt",
      "-CAkey",
      "ca.key",
      "-CAcreateserial",
      "-out",
      `${name}.crt`,
      "-days",
      "2",
      "-extfile",
      `${name}.ext`,
    ]);
  };
  leaf("server", "basicConstraints=CA:FALSE\nsubjectAltName=DNS:localhost,IP:127.0.0.1\n");
  leaf("client", "basicConstraints=CA:FALSE\nextendedKeyUsage=clientAuth\n");
  const read = (f: string): string => readFileSync(at(f), "utf8");
  return {
    ca: read("ca.crt"),
    serverCert: read("server.crt"),
    serverKey: read("server.key"),
    clientCert: read("client.crt"),
    clientKey: read("client.key"),
    files: { ca: at("ca.crt"), clientCert: at("client.crt"), clientKey: at("client.key") },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
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
