import net from "node:net";
import Fastify from "fastify";
import {
  enforceConnectionLimits,
  serverTimeoutOptions,
} from "./dist/src/http/connection-limits.js";

const limits = {
  headersTimeoutMs: 10000,
  requestTimeoutMs: 30000,
  bodyIdleTimeoutMs: 10000,
  keepAliveTimeoutMs: 5000,
  maxConnectionsPerAddress: 2,
};
const app = Fastify({ ...serverTimeoutOptions(limits), logger: { level: "info" } });
app.get("/", async () => "hi");
enforceConnectionLimits(app.server, limits, app.log);
await app.listen({ port: 0, host: "127.0.0.1" });
const port = app.server.address().port;
function conn() {
  return new Promise((res) => {
    const s = net.connect(port, "127.0.0.1");
    let data = "";
    s.on("data", (d) => {
      data += d;
      if (data.includes("hi")) res({ s, data });
    });
    s.on("close", () => res({ s, data, closed: true }));
    s.on("error", (e) => {
      data += `ERR ${e.code}`;
    });
    s.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
  });
}
const a = await conn();
const b = await conn();
const c = await conn();
console.log(JSON.stringify(c.data), c.closed);
a.s.destroy();
b.s.destroy();
await app.close();
