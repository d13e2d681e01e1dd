/**
 * The standard health service with its open Watch streams tracked. A Watch stream never ends
 * on its own, so a graceful shutdown would otherwise wait the whole grace period for it.
 */
import * as grpc from "@grpc/grpc-js";
import type { HealthImplementation } from "grpc-health-check";

type WatchCall = grpc.ServerWritableStream<unknown, unknown>;
type WatchHandler = (call: WatchCall) => void;

export interface HealthWatches {
  /**
   * Ends every open Watch stream with UNAVAILABLE ("server is shutting down"), after what was
   * already written to it (the NOT_SERVING update): a watcher should look for another server.
   */
  endAll(): void;
}

/** Adds `health` to `server`, wrapping its Watch handler to remember the open streams. */
export function addHealthService(server: grpc.Server, health: HealthImplementation): HealthWatches {
  const open = new Set<WatchCall>();
  const wrapping = {
    addService(service: grpc.ServiceDefinition, implementation: grpc.UntypedServiceImplementation) {
      const watch = implementation.watch as WatchHandler;
      const tracked: WatchHandler = (call) => {
        open.add(call);
        const forget = () => open.delete(call);
        call.on("cancelled", forget);
        call.on("finish", forget);
        watch(call);
      };
      server.addService(service, { ...implementation, watch: tracked });
    },
  };
  // addToServer only calls addService, so a stand-in with that one method is enough.
  health.addToServer(wrapping as unknown as grpc.Server);
  return {
    endAll() {
      for (const call of open) {
        call.emit("error", {
          code: grpc.status.UNAVAILABLE,
          details: "server is shutting down",
        });
      }
      open.clear();
    },
  };
}
