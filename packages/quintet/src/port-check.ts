/** Finds out before start-up whether a listen address is already taken. */
import { createServer } from "node:net";

/** Resolves to an error message when `addr` (host:port) cannot be bound, else undefined. */
export function portProblem(addr: string): Promise<string | undefined> {
  const cut = addr.lastIndexOf(":");
  const host = addr.slice(0, cut).replace(/^\[|\]$/g, "");
  const port = Number(addr.slice(cut + 1));
  if (port === 0) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", (error: NodeJS.ErrnoException) => {
      resolve(
        error.code === "EADDRINUSE"
          ? `port ${port} on ${host} is already in use`
          : `cannot listen on ${addr}: ${error.message}`,
      );
    });
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(undefined)));
  });
}
