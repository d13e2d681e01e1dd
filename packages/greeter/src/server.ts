/**
 * The greeting server: unary.GreetService plus what gRPC users expect next to it — the
 * standard health service, server reflection, optional TLS and bearer-token authentication,
 * and a graceful shutdown that lets in-flight calls finish.
 */
import * as grpc from "@grpc/grpc-js";
import { ReflectionService } from "@grpc/reflection";
import { HealthImplementation } from "grpc-health-check";
import { greetingFor } from "./greeting.js";
import { addHealthService, type HealthWatches } from "./health-watches.js";
import { nameProblem } from "./name-check.js";
import { type GreetResponse, greetServerDefinition, loadServicePackages } from "./proto.js";
import type { DecodedGreetRequest } from "./request-codec.js";
import { requireRequestMessage } from "./request-framing.js";

export const GREET_SERVICE_NAME = "unary.GreetService";

export interface GreeterServerOptions {
  /** Source of "now"; the hour is read in the process's local zone (TZ). */
  clock?: () => Date;
  /** When set, GreetService calls need metadata `authorization: Bearer <token>`. */
  token?: string;
  /** PEM certificate chain and key: the server speaks TLS instead of plaintext. */
  tls?: { cert: Buffer; key: Buffer };
  /**
   * Awaited before each reply. A seam for tests that need a slow call (deadlines, graceful
   * shutdown); production leaves it unset.
   */
  beforeReply?: () => Promise<void>;
}

/**
 * Whether the call carries `authorization: Bearer <token>` with the expected token. The scheme
 * name is case-insensitive (RFC 6750 via RFC 7235); the token itself is compared exactly.
 */
function authorized(metadata: grpc.Metadata, token: string): boolean {
  return metadata.get("authorization").some((value) => {
    const match = /^bearer +(\S+)$/i.exec(String(value));
    return match?.[1] === token;
  });
}

export class GreeterServer {
  private readonly server = new grpc.Server({ interceptors: [requireRequestMessage] });
  private readonly health = new HealthImplementation({
    "": "NOT_SERVING",
    [GREET_SERVICE_NAME]: "NOT_SERVING",
  });

  private readonly healthWatches: HealthWatches;

  constructor(private readonly options: GreeterServerOptions = {}) {
    this.server.addService(greetServerDefinition(), { greet: this.greet });
    this.healthWatches = addHealthService(this.server, this.health);
    new ReflectionService(loadServicePackages()).addToServer(this.server);
  }

  /** Handles unary.GreetService/greet. Never throws: every failure becomes a status. */
  private readonly greet = (
    call: grpc.ServerUnaryCall<DecodedGreetRequest, GreetResponse>,
    callback: grpc.sendUnaryData<GreetResponse>,
  ): void => {
    const { token, beforeReply, clock = () => new Date() } = this.options;
    if (token !== undefined && !authorized(call.metadata, token)) {
      callback({
        code: grpc.status.UNAUTHENTICATED,
        details: "missing or invalid bearer token in metadata `authorization`",
      });
      return;
    }
    const problem = call.request?.problem ?? nameProblem(call.request?.name);
    if (problem) {
      callback({ code: grpc.status.INVALID_ARGUMENT, details: problem });
      return;
    }
    const reply = () => callback(null, { message: greetingFor(call.request.name, clock()) });
    if (!beforeReply) {
      reply();
      return;
    }
    beforeReply().then(reply, (error: unknown) =>
      callback({ code: grpc.status.INTERNAL, details: String(error) }),
    );
  };

  /** Binds `addr` (port 0 picks one) and starts serving; resolves to the bound port. */
  start(addr: string): Promise<number> {
    const { tls } = this.options;
    const credentials = tls
      ? grpc.ServerCredentials.createSsl(
          null,
          [{ cert_chain: tls.cert, private_key: tls.key }],
          false,
        )
      : grpc.ServerCredentials.createInsecure();
    return new Promise((resolve, reject) => {
      this.server.bindAsync(addr, credentials, (error, port) => {
        if (error) {
          reject(new Error(`cannot listen on ${addr}: ${error.message}`));
          return;
        }
        this.health.setStatus("", "SERVING");
        this.health.setStatus(GREET_SERVICE_NAME, "SERVING");
        resolve(port);
      });
    });
  }

  /**
   * Stops accepting calls, tells health watchers NOT_SERVING and ends their streams, lets
   * in-flight calls finish, and cancels whatever is still running after `graceMs`. Resolves
   * with `forced: true` when that cancelling was needed.
   */
  shutdown(graceMs = 10_000): Promise<{ forced: boolean }> {
    this.health.setStatus("", "NOT_SERVING");
    this.health.setStatus(GREET_SERVICE_NAME, "NOT_SERVING");
    this.healthWatches.endAll();
    return new Promise((resolve) => {
      let forced = false;
      const timer = setTimeout(() => {
        forced = true;
        this.server.forceShutdown();
      }, graceMs);
      timer.unref();
      this.server.tryShutdown(() => {
        clearTimeout(timer);
        resolve({ forced });
      });
    });
  }
}
