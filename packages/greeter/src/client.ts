/**
 * The client library: calls unary.GreetService/greet and reads the answer in either layout
 * of the spec's rule 3, exposing the phrase it parsed.
 */
import * as grpc from "@grpc/grpc-js";
import { type GoodPhrase, parseGreeting } from "./greeting.js";
import { type GreetRequest, type GreetResponse, greetClientConstructor } from "./proto.js";

export interface GreeterClientOptions {
  /** Bearer token sent as `authorization` metadata. */
  token?: string;
  /** PEM CA bundle to trust; set means TLS. */
  tlsCa?: Buffer;
}

export interface Greeting {
  /** The message exactly as the server sent it. */
  message: string;
  /** The name the greeting addresses. */
  name: string;
  /** Good Morning, Good Afternoon, Good Evening or Good Night. */
  phrase: GoodPhrase;
}

/** A failed call: the gRPC status name and the server's message. */
export class GreetCallError extends Error {
  constructor(
    readonly code: grpc.status,
    readonly details: string,
  ) {
    super(`${grpc.status[code]}: ${details}`);
    this.name = "GreetCallError";
  }

  /** The status name, e.g. `INVALID_ARGUMENT`. */
  get statusName(): string {
    return grpc.status[this.code] ?? String(this.code);
  }
}

type GreetMethod = (
  request: GreetRequest,
  metadata: grpc.Metadata,
  options: grpc.CallOptions,
  callback: (error: grpc.ServiceError | null, response?: GreetResponse) => void,
) => grpc.ClientUnaryCall;

export class GreeterClient {
  private readonly client: grpc.Client;

  constructor(
    readonly addr: string,
    private readonly options: GreeterClientOptions = {},
  ) {
    const Constructor = greetClientConstructor();
    const credentials = options.tlsCa
      ? grpc.credentials.createSsl(options.tlsCa)
      : grpc.credentials.createInsecure();
    this.client = new Constructor(addr, credentials);
  }

  /** Greets `name`; rejects with GreetCallError carrying the status on failure. */
  greet(name: string, callOptions: { deadlineMs?: number } = {}): Promise<Greeting> {
    const metadata = new grpc.Metadata();
    if (this.options.token) metadata.set("authorization", `Bearer ${this.options.token}`);
    const options: grpc.CallOptions = {};
    if (callOptions.deadlineMs !== undefined) {
      options.deadline = new Date(Date.now() + callOptions.deadlineMs);
    }
    const method = (this.client as unknown as { greet: GreetMethod }).greet.bind(this.client);
    return new Promise((resolve, reject) => {
      method({ name }, metadata, options, (error, response) => {
        if (error) {
          reject(new GreetCallError(error.code, error.details));
          return;
        }
        const message = response?.message ?? "";
        const parsed = parseGreeting(message);
        if (!parsed) {
          reject(new GreetCallError(grpc.status.UNKNOWN, `unrecognised greeting: ${message}`));
          return;
        }
        resolve({ message, ...parsed });
      });
    });
  }

  close(): void {
    this.client.close();
  }
}
