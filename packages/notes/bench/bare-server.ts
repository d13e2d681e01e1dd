/**
 * Baseline of the benchmark: a bare `node:http` server that answers every request with the
 * exact bytes (status, headers, body) captured from the notes app's `GET /`.
 * Usage: node bare-server.js <capture.json>   prints `listening on http://127.0.0.1:<port>`.
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:http";

interface Capture {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const capture = JSON.parse(readFileSync(process.argv[2] ?? "", "utf8")) as Capture;
const body = Buffer.from(capture.body, "utf8");

const server = createServer((_request, response) => {
  response.writeHead(capture.status, capture.headers);
  response.end(body);
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  process.stdout.write(`listening on http://127.0.0.1:${port}\n`);
});
process.once("SIGTERM", () => server.close());
