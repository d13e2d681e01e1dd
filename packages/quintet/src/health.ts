/** Health probes: one answer (healthy or not) per call, never a throw. */
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { protoPath as healthProtoPath } from "grpc-health-check";

export type HealthProbe = (signal: AbortSignal) => Promise<boolean>;

/** Healthy when GET `url` answers 2xx. */
export function httpProbe(url: string): HealthProbe {
  return async (signal) => {
    try {
      const response = await fetch(url, { signal });
      await response.body?.cancel();
      return response.ok;
    } catch {
      return false;
    }
  };
}

type HealthClient = grpc.Client & {
  Check(
    request: { service: string },
    options: grpc.CallOptions,
    callback: (error: grpc.ServiceError | null, response?: { status: string }) => void,
  ): void;
};

let healthConstructor: grpc.ServiceClientConstructor | undefined;

function healthClient(addr: string): HealthClient {
  if (!healthConstructor) {
    const definition = protoLoader.loadSync(healthProtoPath, { keepCase: true, enums: String });
    const loaded = grpc.loadPackageDefinition(definition) as unknown as {
      grpc: { health: { v1: { Health: grpc.ServiceClientConstructor } } };
    };
    healthConstructor = loaded.grpc.health.v1.Health;
  }
  return new healthConstructor(addr, grpc.credentials.createInsecure()) as unknown as HealthClient;
}

/** Healthy when grpc.health.v1.Health/Check for `service` answers SERVING. */
export function grpcProbe(addr: string, service = ""): HealthProbe {
  return (signal) =>
    new Promise((resolve) => {
      const client = healthClient(addr);
      const done = (healthy: boolean) => {
        client.close();
        resolve(healthy);
      };
      if (signal.aborted) return done(false);
      client.Check({ service }, { deadline: Date.now() + 2000 }, (error, response) =>
        done(!error && response?.status === "SERVING"),
      );
    });
}
