/**
 * What one client may hold of the server's sockets and time. Without these, a client sending a
 * body one byte every 2 s kept its connection for ever, and a few hundred such connections used
 * up the file descriptors every visitor needs. Node enforces the headers and whole-request
 * deadlines (checked every `checkIntervalMs`); this module adds the body-idle rule and the cap
 * on connections per client address, and words the 408/503 answers.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { FastifyBaseLogger, FastifyServerOptions } from "fastify";

/** The limits, all from configuration (NOTES_*_TIMEOUT_MS, NOTES_MAX_CONNECTIONS_PER_ADDRESS). */
export interface ConnectionLimits {
  /** All request headers must arrive within this many ms of the request's start. */
  readonly headersTimeoutMs: number;
  /** The whole request, body included, must arrive within this many ms. */
  readonly requestTimeoutMs: number;
  /** A connection on which nothing arrives for this many ms mid-request is closed. */
  readonly bodyIdleTimeoutMs: number;
  /** An idle keep-alive connection is closed after this many ms. */
  readonly keepAliveTimeoutMs: number;
  /** Open connections allowed per client address (IPv6: per /64); 0 = no cap. */
  readonly maxConnectionsPerAddress: number;
}

const seconds = (ms: number) => `${Number((ms / 1000).toFixed(3))} s`;

/** Text of the 408 sent when headers or the whole request came too slowly. */
export function requestTimeoutMessage(limits: ConnectionLimits): string {
  return `Request timed out !!! Headers must arrive within ${seconds(limits.headersTimeoutMs)} and the whole request within ${seconds(limits.requestTimeoutMs)}.`;
}

/** Text of the 408 sent when a request body stopped arriving. */
export function bodyIdleMessage(limits: ConnectionLimits): string {
  return `Request timed out !!! Nothing arrived for ${seconds(limits.bodyIdleTimeoutMs)} in the middle of a request.`;
}

/** Text of the 503 sent to a connection over the per-address cap. */
export function tooManyConnectionsMessage(limits: ConnectionLimits): string {
  return `Too many connections from your address !!! At most ${limits.maxConnectionsPerAddress} at a time.`;
}

/** A complete plain-text response that closes the connection. */
function rawResponse(status: string, text: string, extra = ""): string {
  const body = `${text}\n`;
  return `HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`;
}

/** Writes `response` if the socket can take it, then closes the socket. */
function answerAndClose(socket: Socket, response: string): void {
  if (socket.destroyed) return;
  socket.end(response);
  // A client that does not read must not keep the socket open by stalling the write.
  socket.destroySoon();
}

/** Fastify server options for the limits Node enforces itself. */
export function serverTimeoutOptions(limits: ConnectionLimits): Partial<FastifyServerOptions> {
  const shortest = Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs);
  return {
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionTimeout: limits.bodyIdleTimeoutMs,
    http: {
      headersTimeout: limits.headersTimeoutMs,
      // Node checks the two deadlines every 30 s by default, far later than they say.
      connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(shortest / 4))),
    },
    clientErrorHandler(error, socket) {
      if ((error as { code?: string }).code === "ECONNRESET" || socket.destroyed) return;
      if ((error as { code?: string }).code === "ERR_HTTP_REQUEST_TIMEOUT") {
        answerAndClose(socket, rawResponse("408 Request Timeout", requestTimeoutMessage(limits)));
        return;
      }
      answerAndClose(socket, rawResponse("400 Bad Request", "Bad request !!!"));
    },
  } as Partial<FastifyServerOptions>;
}

/**
 * The key a connection counts under: an IPv4 address (IPv4-mapped IPv6 unwrapped), or the /64
 * of an IPv6 address, since one subscriber usually holds a whole /64.
 */
export function addressGroup(address: string | undefined): string {
  if (!address) return "unknown";
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1] as string;
  if (!address.includes(":")) return address;
  const [head = "", tail = ""] = address.split("::");
  const left = head === "" ? [] : head.split(":");
  const right = address.includes("::") && tail !== "" ? tail.split(":") : [];
  const missing = 8 - left.length - right.length;
  const groups = [...left, ...Array<string>(Math.max(0, missing)).fill("0"), ...right];
  const prefix = groups.slice(0, 4).map((g) => Number.parseInt(g, 16).toString(16));
  return `${prefix.join(":")}::/64`;
}

/** The request a socket is serving now, seen from the server's 'request' event. */
type Exchange = { req: IncomingMessage; res: ServerResponse };

/**
 * Installs the body-idle rule and the per-address cap on `server`. The idle timer is the
 * socket's inactivity timeout (Fastify's `connectionTimeout`); on it, a request still arriving
 * gets a 408, a response we are still computing (a password hash in the queue) is left alone,
 * and anything else (a client not reading our answer) is closed.
 */
export function enforceConnectionLimits(
  server: Server,
  limits: ConnectionLimits,
  log: FastifyBaseLogger,
  refusalDelayMs = 0,
): void {
  const current = new WeakMap<Socket, Exchange>();
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    current.set(req.socket, { req, res });
  });
  server.on("timeout", (socket: Socket) => {
    const exchange = current.get(socket);
    if (exchange && !exchange.res.headersSent) {
      if (exchange.req.complete) return;
      log.info({ ip: socket.remoteAddress }, "request body stalled: connection closed");
      answerAndClose(socket, rawResponse("408 Request Timeout", bodyIdleMessage(limits)));
      return;
    }
    socket.destroy();
  });
  if (limits.maxConnectionsPerAddress > 0) {
    capConnectionsPerAddress(server, limits, log, refusalDelayMs);
  }
}

/**
 * Refuses connections past the cap with a 503. Answered at once, a refusal invites a reconnect at
 * once: a 50-connection flood from one address then got 2,700 503s a second and raised the other
 * clients' p99 twelvefold (BENCHMARKS.md). So the answer is held back `refusalDelayMs` (the
 * throttled answers' NOTES_THROTTLE_DELAY_MS); at most `maxConnectionsPerAddress` refusals per
 * address wait at once, and connections past those are dropped unanswered, so the sockets one
 * address holds stay bounded. The decision is taken before the HTTP server's own connection
 * listener runs, which is called for admitted sockets only: a refused socket is never parsed,
 * so nothing it sends is served, however long its answer waits.
 */
function capConnectionsPerAddress(
  server: Server,
  limits: ConnectionLimits,
  log: FastifyBaseLogger,
  refusalDelayMs: number,
): void {
  const open = new Map<string, number>();
  const held = new Map<string, number>();
  const refusing = new Set<string>();
  const refusal = rawResponse(
    "503 Service Unavailable",
    tooManyConnectionsMessage(limits),
    "Retry-After: 1\r\n",
  );
  const refuse = (socket: Socket, key: string) => {
    if (refusalDelayMs === 0) return answerAndClose(socket, refusal);
    const waiting = held.get(key) ?? 0;
    if (waiting >= limits.maxConnectionsPerAddress) return void socket.destroy();
    held.set(key, waiting + 1);
    const timer = setTimeout(() => answerAndClose(socket, refusal), refusalDelayMs);
    socket.once("close", () => {
      clearTimeout(timer);
      const left = (held.get(key) ?? 1) - 1;
      if (left > 0) held.set(key, left);
      else held.delete(key);
    });
  };
  const serve = server.listeners("connection") as ((socket: Socket) => void)[];
  server.removeAllListeners("connection");
  server.on("connection", (socket: Socket) => {
    const key = addressGroup(socket.remoteAddress);
    const count = open.get(key) ?? 0;
    if (count >= limits.maxConnectionsPerAddress) {
      // One log line per episode, not one per refused connection of a flood.
      if (!refusing.has(key)) log.warn({ address: key, open: count }, "connection cap reached");
      refusing.add(key);
      refuse(socket, key);
      return;
    }
    open.set(key, count + 1);
    socket.once("close", () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left > 0) open.set(key, left);
      else open.delete(key);
      refusing.delete(key);
    });
    for (const listener of serve) listener.call(server, socket);
  });
}
