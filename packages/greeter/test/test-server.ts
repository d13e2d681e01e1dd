/** Starts a real GreeterServer on an ephemeral port for a test, with a real client. */
import { GreeterClient, type GreeterClientOptions } from "../src/client.js";
import { GreeterServer, type GreeterServerOptions } from "../src/server.js";

export interface RunningGreeter {
  server: GreeterServer;
  addr: string;
  client(options?: GreeterClientOptions): GreeterClient;
  stop(): Promise<void>;
}

export async function startGreeter(options: GreeterServerOptions = {}): Promise<RunningGreeter> {
  const server = new GreeterServer(options);
  const port = await server.start("127.0.0.1:0");
  const addr = `127.0.0.1:${port}`;
  const clients: GreeterClient[] = [];
  return {
    server,
    addr,
    client(clientOptions) {
      const client = new GreeterClient(addr, clientOptions);
      clients.push(client);
      return client;
    },
    async stop() {
      for (const client of clients) client.close();
      await server.shutdown(1000);
    },
  };
}

/** A clock fixed at the given local wall time (hour:minute) on 2026-03-14. */
export function clockAt(hour: number, minute: number): () => Date {
  return () => new Date(2026, 2, 14, hour, minute, 0);
}
