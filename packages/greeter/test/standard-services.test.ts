import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, describe, it } from "node:test";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { protoPath as healthProtoPath } from "grpc-health-check";
import { GreeterClient } from "../src/client.js";
import { type RunningGreeter, startGreeter } from "./test-server.js";

const require = createRequire(import.meta.url);
const reflectionProto = join(
  dirname(require.resolve("@grpc/reflection/package.json")),
  "build/proto/grpc/reflection/v1/reflection.proto",
);

type HealthCheck = (
  request: { service: string },
  callback: (error: Error | null, response: { status: string }) => void,
) => void;

type Loaded = Record<string, Record<string, Record<string, unknown>>>;

function packageOf(protoFile: string): Loaded {
  return grpc.loadPackageDefinition(
    protoLoader.loadSync(protoFile, { keepCase: true, defaults: true, enums: String }),
  ) as unknown as Loaded;
}

describe("standard gRPC services", () => {
  let running: RunningGreeter;
  before(async () => {
    running = await startGreeter();
  });
  after(() => running.stop());

  it("answers grpc.health.v1.Health/Check with SERVING for the server and GreetService", async () => {
    const Health = packageOf(healthProtoPath).grpc?.health?.v1 as {
      Health: grpc.ServiceClientConstructor;
    };
    const client = new Health.Health(running.addr, grpc.credentials.createInsecure());
    try {
      for (const service of ["", "unary.GreetService"]) {
        const reply = await new Promise<{ status: string }>((resolve, reject) =>
          (client as unknown as Record<string, HealthCheck>).Check(
            { service },
            (error: Error | null, response: { status: string }) =>
              error ? reject(error) : resolve(response),
          ),
        );
        assert.equal(reply.status, "SERVING");
      }
    } finally {
      client.close();
    }
  });

  it("lists unary.GreetService through server reflection (as `grpcurl list` does)", async () => {
    const Reflection = packageOf(reflectionProto).grpc?.reflection?.v1 as {
      ServerReflection: grpc.ServiceClientConstructor;
    };
    const client = new Reflection.ServerReflection(running.addr, grpc.credentials.createInsecure());
    try {
      const names = await new Promise<string[]>((resolve, reject) => {
        const stream = (
          client as unknown as Record<string, () => grpc.ClientDuplexStream<unknown, unknown>>
        ).ServerReflectionInfo();
        stream.on(
          "data",
          (response: { list_services_response?: { service: { name: string }[] } }) => {
            resolve(response.list_services_response?.service.map((s) => s.name) ?? []);
            stream.end();
          },
        );
        stream.on("error", reject);
        stream.write({ list_services: "" });
      });
      assert.ok(names.includes("unary.GreetService"), `listed: ${names.join(", ")}`);
      assert.ok(names.includes("grpc.health.v1.Health"), `listed: ${names.join(", ")}`);
    } finally {
      client.close();
    }
  });
});

/** A self-signed certificate for 127.0.0.1 made with the openssl CLI, if it is installed. */
function selfSignedCertificate(): { cert: Buffer; key: Buffer } | undefined {
  const dir = mkdtempSync(join(tmpdir(), "greeter-tls-"));
  try {
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
        "-keyout",
        join(dir, "key.pem"),
        "-out",
        join(dir, "cert.pem"),
        "-days",
        "1",
        "-subj",
        "/CN=localhost",
        "-addext",
        "subjectAltName=IP:127.0.0.1,DNS:localhost",
      ],
      { stdio: "ignore" },
    );
  } catch {
    return undefined;
  }
  return { cert: readFileSync(join(dir, "cert.pem")), key: readFileSync(join(dir, "key.pem")) };
}

describe("TLS", () => {
  const tls = selfSignedCertificate();
  it("serves over TLS and refuses plaintext clients", {
    skip: tls ? false : "openssl is not installed",
  }, async () => {
    const running = await startGreeter({ tls });
    try {
      // Dial by host name: the certificate names localhost, and TLS SNI takes no IP address.
      const byName = new GreeterClient(running.addr.replace("127.0.0.1", "localhost"), {
        tlsCa: tls?.cert,
      });
      const greeting = await byName
        .greet("Ann", { deadlineMs: 10_000 })
        .finally(() => byName.close());
      assert.match(greeting.message, /^Hello, Ann, Good /);
      await assert.rejects(running.client().greet("Ann", { deadlineMs: 3000 }));
    } finally {
      await running.stop();
    }
  });
});
