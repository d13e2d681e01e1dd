/**
 * The HTTP baseline: a bare node:http server that reads the request body and answers a
 * constant JSON body, the least any JSON API on node:http can do. Prints its URL.
 */
import { createServer } from "node:http";

const body = '{"result":{"allow":true,"limit":1000.75,"role":"user"}}\n';
const server = createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    res.writeHead(200, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(body),
    });
    res.end(body);
  });
});
server.keepAliveTimeout = 5000;
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`http://127.0.0.1:${server.address().port}\n`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
