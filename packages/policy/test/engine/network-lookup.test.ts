/** `net.lookup_ip_addr` through the system resolver, and JWKS fetched for io.jwt.decode_verify. */
import assert from "node:assert/strict";
import { createPrivateKey, generateKeyPairSync, sign } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { fromJSON } from "../../src/value/value.js";
import { engineWith, evalAsync, startServer, type TestServer } from "./network-helpers.js";

describe("net.lookup_ip_addr", () => {
  const LOOKUP = "package p\nips := net.lookup_ip_addr(input.host)\n";

  it("resolves localhost through the system resolver", async () => {
    const ips = (await evalAsync(engineWith(LOOKUP), "data.p.ips", {
      host: "localhost",
    })) as string[];
    assert.ok(ips.includes("127.0.0.1") || ips.includes("::1"), String(ips));
  });

  it("answers literal addresses without a lookup", async () => {
    assert.deepEqual(await evalAsync(engineWith(LOOKUP), "data.p.ips", { host: "10.1.2.3" }), [
      "10.1.2.3",
    ]);
  });

  it("is undefined for an unknown host, and an eval_builtin_error when strict", async () => {
    const host = "no-such-host.invalid";
    assert.equal(await evalAsync(engineWith(LOOKUP), "data.p.ips", { host }), undefined);
    await assert.rejects(
      engineWith(LOOKUP).queryAsync("data.p.ips", {
        input: fromJSON({ host }),
        strictBuiltinErrors: true,
      }),
      (e: unknown) =>
        (e as { code?: string }).code === "eval_builtin_error" &&
        (e as Error).message.startsWith(`net.lookup_ip_addr: lookup ${host}: `),
    );
  });
});

/** base64url of a JSON value or bytes. */
function b64url(v: unknown): string {
  const buf = Buffer.isBuffer(v) ? v : Buffer.from(JSON.stringify(v));
  return buf.toString("base64url");
}

describe("io.jwt.decode_verify with a JWKS fetched by http.send", () => {
  const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const jwk = publicKey.export({ format: "jwk" });
  let server: TestServer;
  before(async () => {
    server = await startServer((_req, res) => {
      res.setHeader("Content-Type", "application/json");
      res.setHeader("Cache-Control", "max-age=300");
      res.end(JSON.stringify({ keys: [{ ...jwk, kid: "k1", alg: "RS256", use: "sig" }] }));
    });
  });
  after(() => server.close());

  const token = (claims: Record<string, unknown>, key = privateKey): string => {
    const head = `${b64url({ alg: "RS256", typ: "JWT", kid: "k1" })}.${b64url(claims)}`;
    return `${head}.${b64url(sign("sha256", Buffer.from(head), key))}`;
  };
  const POLICY = `package p
jwks := http.send({"method": "GET", "url": input.jwks_url, "cache": true}).raw_body
claims := payload if {
	[valid, _, payload] := io.jwt.decode_verify(input.token, {"cert": jwks, "iss": "test-issuer"})
	valid
}
`;

  it("verifies a token signed by a key of the JWKS, and refuses one signed by another key", async () => {
    const e = engineWith(POLICY);
    const jwks_url = `${server.base}/jwks`;
    const good = token({ sub: "alice", iss: "test-issuer" });
    assert.deepEqual(await evalAsync(e, "data.p.claims", { jwks_url, token: good }), {
      sub: "alice",
      iss: "test-issuer",
    });
    const other = createPrivateKey(
      generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({
        format: "pem",
        type: "pkcs8",
      }),
    );
    const forged = token({ sub: "mallory", iss: "test-issuer" }, other);
    assert.equal(await evalAsync(e, "data.p.claims", { jwks_url, token: forged }), undefined);
    const wrongIssuer = token({ sub: "alice", iss: "someone-else" });
    assert.equal(await evalAsync(e, "data.p.claims", { jwks_url, token: wrongIssuer }), undefined);
    // The JWKS came once: `cache` and max-age kept it for the later queries.
    assert.equal(server.requests.length, 1);
  });
});
