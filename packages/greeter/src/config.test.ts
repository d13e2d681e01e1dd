import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ConfigError } from "@quintet/kit";
import { loadConfig } from "./config.js";

describe("loadConfig", () => {
  it("defaults to plaintext on 127.0.0.1:20001 without auth", () => {
    const config = loadConfig({});
    assert.equal(config.addr, "127.0.0.1:20001");
    assert.equal(config.token, undefined);
    assert.equal(config.tlsCert, undefined);
    assert.equal(config.shutdownGraceMs, 10000);
  });

  it("reports every bad variable at once, each by name", () => {
    assert.throws(
      () =>
        loadConfig({
          GREETER_ADDR: "nonsense",
          GREETER_TLS_CERT: "/no/such/cert.pem",
          GREETER_SHUTDOWN_GRACE_MS: "soon",
        }),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.match(error.message, /GREETER_ADDR must be host:port/);
        assert.match(error.message, /GREETER_TLS_CERT names a file that does not exist/);
        assert.match(error.message, /GREETER_TLS_CERT and GREETER_TLS_KEY must be set together/);
        assert.match(error.message, /GREETER_SHUTDOWN_GRACE_MS must be a whole number/);
        return true;
      },
    );
  });

  it("rejects a port out of range and a token with spaces", () => {
    assert.throws(() => loadConfig({ GREETER_ADDR: "localhost:70000" }), /GREETER_ADDR/);
    assert.throws(() => loadConfig({ GREETER_TOKEN: "a b" }), /GREETER_TOKEN/);
  });

  it("accepts IPv6 literals and port 0", () => {
    assert.equal(loadConfig({ GREETER_ADDR: "[::1]:0" }).addr, "[::1]:0");
  });

  it("stops on an unknown TZ, naming the variable", () => {
    assert.throws(
      () => loadConfig({ TZ: "Mars/Olympus" }),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.match(error.message, /TZ is not a known time zone: Mars\/Olympus/);
        return true;
      },
    );
  });

  it("accepts a known TZ (IANA name, with or without the POSIX leading colon) and an unset one", () => {
    for (const zone of ["Europe/Paris", ":Asia/Tokyo", "UTC", "", undefined]) {
      assert.doesNotThrow(() => loadConfig({ TZ: zone }), `TZ=${zone}`);
    }
  });
});
