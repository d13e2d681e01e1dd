/**
 * Unary call throughput and latency of the greeter beside a bare grpc-js server that
 * returns a constant, same proto, same client, same run. Each server runs in its own child
 * process so client and server do not share an event loop. Writes BENCHMARKS.md.
 * Usage: npm run bench -w @quintet/greeter [-- --seconds 5]
 */
import { fork } from "node:child_process";
import { writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { parseArgs } from "node:util";
import * as grpc from "@grpc/grpc-js";
import { GreeterClient } from "../src/client.js";
import { greetServiceDefinition } from "../src/proto.js";
import { GreeterServer } from "../src/server.js";

type Kind = "greeter" | "bare";

/** Child role: serve one kind on an ephemeral port and report it to the parent. */
async function serveChild(kind: Kind): Promise<void> {
  let port: number;
  if (kind === "greeter") {
    port = await new GreeterServer().start("127.0.0.1:0");
  } else {
    const server = new grpc.Server();
    const constant = { message: "Hello, bench, Good Morning !!!" };
    server.addService(greetServiceDefinition(), {
      greet: (_call: unknown, callback: grpc.sendUnaryData<typeof constant>) =>
        callback(null, constant),
    });
    port = await new Promise((resolve, reject) =>
      server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, p) =>
        e ? reject(e) : resolve(p),
      ),
    );
  }
  process.send?.({ port });
}

interface Result {
  kind: Kind;
  concurrency: number;
  callsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function measure(kind: Kind, concurrency: number, seconds: number): Promise<Result> {
  const child = fork(process.argv[1] as string, ["--serve", kind], { stdio: "inherit" });
  const port = await new Promise<number>((resolve) =>
    child.once("message", (m: { port: number }) => resolve(m.port)),
  );
  const client = new GreeterClient(`127.0.0.1:${port}`);
  await client.greet("warmup");
  const latencies: number[] = [];
  const warmupEnd = Date.now() + 500;
  const end = warmupEnd + seconds * 1000;
  const worker = async () => {
    while (Date.now() < end) {
      const start = process.hrtime.bigint();
      await client.greet("bench");
      if (Date.now() > warmupEnd) latencies.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  client.close();
  child.kill();
  latencies.sort((a, b) => a - b);
  return {
    kind,
    concurrency,
    callsPerSecond: latencies.length / seconds,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
  };
}

async function runBench(seconds: number): Promise<void> {
  const rows: Result[] = [];
  for (const concurrency of [1, 32]) {
    // Interleave the two kinds so drift in machine load hits both alike.
    for (const kind of ["bare", "greeter", "bare", "greeter"] as Kind[]) {
      rows.push(await measure(kind, concurrency, seconds / 2));
    }
  }
  const merged = [1, 32].flatMap((concurrency) =>
    (["bare", "greeter"] as Kind[]).map((kind) => {
      const runs = rows.filter((r) => r.kind === kind && r.concurrency === concurrency);
      const avg = (f: (r: Result) => number) => runs.reduce((s, r) => s + f(r), 0) / runs.length;
      return {
        kind,
        concurrency,
        callsPerSecond: avg((r) => r.callsPerSecond),
        p50Ms: avg((r) => r.p50Ms),
        p99Ms: avg((r) => r.p99Ms),
      };
    }),
  );
  const lines = merged.map(
    (r) =>
      `| ${r.kind} | ${r.concurrency} | ${r.callsPerSecond.toFixed(0)} | ${r.p50Ms.toFixed(3)} | ${r.p99Ms.toFixed(3)} |`,
  );
  const ratios = [1, 32].map((c) => {
    const bare = merged.find((r) => r.kind === "bare" && r.concurrency === c)?.callsPerSecond ?? 1;
    const greeter =
      merged.find((r) => r.kind === "greeter" && r.concurrency === c)?.callsPerSecond ?? 0;
    return `- ${c} concurrent caller${c > 1 ? "s" : ""}: greeter/bare throughput = ${(greeter / bare).toFixed(3)} (goal >= 0.95)`;
  });
  const report = `# Greeter benchmarks

Measured ${new Date().toISOString().slice(0, 10)} on ${cpus().length} × ${cpus()[0]?.model ?? "CPU"}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}.
Each server in its own child process, plaintext, one client channel; ${seconds} s per row (two interleaved halves, averaged), after a 0.5 s warm-up.
The bare server is grpc-js with the same proto returning a constant message.

| server | concurrent callers | calls/s | p50 ms | p99 ms |
|---|---|---|---|---|
${lines.join("\n")}

${ratios.join("\n")}
`;
  process.stdout.write(report);
  writeFileSync(new URL("../../BENCHMARKS.md", import.meta.url), report);
}

const { values } = parseArgs({
  options: { serve: { type: "string" }, seconds: { type: "string", default: "6" } },
});
if (values.serve) await serveChild(values.serve as Kind);
else await runBench(Number(values.seconds));
