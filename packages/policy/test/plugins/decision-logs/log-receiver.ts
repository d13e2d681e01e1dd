/**
 * A decision log service for tests: a real HTTP server on 127.0.0.1:0 that gunzips each
 * POSTed batch and keeps it with its headers. `failWith` makes it answer an error status
 * instead (the batch is then not kept); `close` takes it down entirely.
 */
import { once } from "node:events";
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import { createServer as createTLSServer } from "node:https";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";

export interface ReceivedBatch {
  path: string;
  headers: IncomingHttpHeaders;
  /** Size of the body as sent (compressed). */
  compressedBytes: number;
  events: Record<string, unknown>[];
}

export interface LogReceiver {
  url: string;
  batches: ReceivedBatch[];
  /** Every event received, in order. */
  events(): Record<string, unknown>[];
  /** Answer this status to the next uploads (undefined: accept them). */
  failWith: number | undefined;
  /** Requests answered, failed ones included. */
  requests: number;
  /** Resolves once `count` events have been received. */
  waitForEvents(count: number): Promise<void>;
  close(): Promise<void>;
}

/** `tls`: serve https with this key and certificate. */
export async function startLogReceiver(
  port = 0,
  tls?: { key: string; cert: string },
): Promise<LogReceiver> {
  const waiters: { count: number; resolve: () => void }[] = [];
  const receiver: LogReceiver = {
    url: "",
    batches: [],
    events: () => receiver.batches.flatMap((b) => b.events),
    failWith: undefined,
    requests: 0,
    waitForEvents: (count) =>
      receiver.events().length >= count
        ? Promise.resolve()
        : new Promise((resolve) => waiters.push({ count, resolve })),
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const parts: Buffer[] = [];
    req.on("data", (b: Buffer) => parts.push(b));
    req.on("end", () => {
      receiver.requests++;
      if (receiver.failWith !== undefined) {
        res.writeHead(receiver.failWith).end();
        return;
      }
      const body = Buffer.concat(parts);
      const events = JSON.parse(gunzipSync(body).toString("utf8")) as Record<string, unknown>[];
      receiver.batches.push({
        path: req.url ?? "",
        headers: req.headers,
        compressedBytes: body.length,
        events,
      });
      res.writeHead(200).end();
      const total = receiver.events().length;
      for (const w of waiters.filter((x) => x.count <= total)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    });
  };
  const server: Server = tls ? createTLSServer(tls, handle) : createServer(handle);
  server.listen(port, "127.0.0.1");
  await once(server, "listening");
  const scheme = tls ? "https" : "http";
  receiver.url = `${scheme}://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}
