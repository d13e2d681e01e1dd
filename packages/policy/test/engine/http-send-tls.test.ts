/** `http.send` over TLS with a test CA made here: tls_* options and client certificates. */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { TLSSocket } from "node:tls";
import { makePki, type TestPki } from "../test-pki.js";
import { engineWith, evalAsync, startTlsServer, type TestServer } from "./network-helpers.js";

const SEND = "package p\nresp := http.send(input.req)\n";
/** `http.send`'s response object, as far as these tests read it. */
interface SendResponse {
  raw_body?: unknown;
  error: { code: string; message: string };
}
const send = async (req: Record<string, unknown>) =>
  (await evalAsync(engineWith(SEND), "data.p.resp", { req })) as SendResponse;

describe("http.send over TLS", () => {
  let pki: TestPki;
  let server: TestServer;
  let mtls: TestServer;
  before(async () => {
    pki = makePki();
    server = await startTlsServer({ cert: pki.serverCert, key: pki.serverKey }, (_req, res) => {
      res.end("secure");
    });
    // Asks for a client certificate and says whether it was one the CA signed.
    mtls = await startTlsServer(
      {
        cert: pki.serverCert,
        key: pki.serverKey,
        ca: pki.ca,
        requestCert: true,
        rejectUnauthorized: false,
      },
      (req, res) => {
        const socket = req.socket as TLSSocket;
        const peer = socket.getPeerCertificate();
        res.end(socket.authorized ? `client ${peer.subject?.CN}` : "anonymous");
      },
    );
  });
  after(async () => {
    await server.close();
    await mtls.close();
    pki.remove();
  });

  it("refuses a server whose CA it does not trust", async () => {
    const r = await send({ method: "GET", url: `${server.base}/`, raise_error: false });
    assert.deepEqual(r, {
      status_code: 0,
      error: {
        code: "eval_http_send_network_error",
        message: `Get "${server.base}/": tls: failed to verify certificate: x509: certificate signed by unknown authority`,
      },
    });
  });

  it("trusts the CA given inline, from a file or from an environment variable", async () => {
    const url = `${server.base}/`;
    const inline = await send({ method: "GET", url, tls_ca_cert: pki.ca });
    assert.equal(inline.raw_body, "secure");
    // OPA accepts PEM text with escaped newlines.
    const escaped = await send({
      method: "GET",
      url,
      tls_ca_cert: pki.ca.replaceAll("\n", "\\n"),
    });
    assert.equal(escaped.raw_body, "secure");
    const file = await send({ method: "GET", url, tls_ca_cert_file: pki.files.ca });
    assert.equal(file.raw_body, "secure");
    process.env.REGO_TEST_CA = pki.ca;
    try {
      const env = await send({
        method: "GET",
        url,
        tls_ca_cert_env_variable: "REGO_TEST_CA",
      });
      assert.equal(env.raw_body, "secure");
    } finally {
      delete process.env.REGO_TEST_CA;
    }
    const withSystem = await send({
      method: "GET",
      url,
      tls_ca_cert: pki.ca,
      tls_use_system_certs: true,
    });
    assert.equal(withSystem.raw_body, "secure");
  });

  it("skips verification with tls_insecure_skip_verify", async () => {
    const r = await send({
      method: "GET",
      url: `${server.base}/`,
      tls_insecure_skip_verify: true,
    });
    assert.equal(r.raw_body, "secure");
  });

  it("checks the name the certificate was issued for (tls_server_name)", async () => {
    const good = await send({
      method: "GET",
      url: `${server.base}/`,
      tls_ca_cert: pki.ca,
      tls_server_name: "localhost",
    });
    assert.equal(good.raw_body, "secure");
    const bad = await send({
      method: "GET",
      url: `${server.base}/`,
      tls_ca_cert: pki.ca,
      tls_server_name: "elsewhere.example",
      raise_error: false,
    });
    assert.equal(bad.error.code, "eval_http_send_network_error");
    assert.match(bad.error.message, /x509: certificate is not valid for/);
  });

  it("presents a client certificate given inline or as files", async () => {
    const url = `${mtls.base}/`;
    const none = await send({ method: "GET", url, tls_ca_cert: pki.ca });
    assert.equal(none.raw_body, "anonymous");
    const inline = await send({
      method: "GET",
      url,
      tls_ca_cert: pki.ca,
      tls_client_cert: pki.clientCert,
      tls_client_key: pki.clientKey,
    });
    assert.equal(inline.raw_body, "client client");
    const files = await send({
      method: "GET",
      url,
      tls_ca_cert_file: pki.files.ca,
      tls_client_cert_file: pki.files.clientCert,
      tls_client_key_file: pki.files.clientKey,
    });
    assert.equal(files.raw_body, "client client");
  });
});
