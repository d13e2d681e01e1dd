import assert from "node:assert/strict";
import { availableParallelism } from "node:os";
import { describe, it } from "node:test";
import { configTable, loadConfig } from "./config.js";
import { ConfigError } from "./errors.js";

describe("loadConfig", () => {
  it("uses the documented defaults and generates a secret in development", () => {
    const config = loadConfig({});
    assert.equal(config.host, "127.0.0.1");
    assert.equal(config.port, 8080);
    assert.equal(config.databaseUrl, undefined);
    assert.equal(config.dataDir, "./.data/notes");
    assert.equal(config.sessionSecretGenerated, true);
    assert.ok(config.sessionSecret.length >= 32);
    assert.equal(config.bcryptCost, 10);
    assert.equal(config.loginMaxFailures, 10);
    assert.equal(config.loginWindowSeconds, 600);
    assert.ok(Object.isFrozen(config));
  });

  it("reads every variable", () => {
    const config = loadConfig({
      NOTES_ADDR: "[::1]:0",
      DATABASE_URL: "postgres://u@db:5432/notes",
      NOTES_DATA_DIR: "/var/lib/notes",
      SESSION_SECRET: "a-long-enough-secret",
      NOTES_SESSION_MAX_AGE: "3600",
      NOTES_BCRYPT_COST: "12",
      NOTES_LOGIN_MAX_FAILURES: "5",
      NOTES_LOGIN_WINDOW: "60",
      NOTES_TRUST_PROXY: "true",
      NOTES_LOG_LEVEL: "warn",
    });
    assert.equal(config.host, "::1");
    assert.equal(config.port, 0);
    assert.equal(config.databaseUrl, "postgres://u@db:5432/notes");
    assert.equal(config.sessionSecret, "a-long-enough-secret");
    assert.equal(config.sessionSecretGenerated, false);
    assert.deepEqual(
      [
        config.sessionMaxAgeSeconds,
        config.bcryptCost,
        config.loginMaxFailures,
        config.loginWindowSeconds,
      ],
      [3600, 12, 5, 60],
    );
    assert.equal(config.trustProxy, true);
    assert.equal(config.logLevel, "warn");
  });

  it("reads the sign-up throttle and hashing threads, defaulting to cores minus one", () => {
    const defaults = loadConfig({});
    assert.deepEqual([defaults.signupMaxAttempts, defaults.signupWindowSeconds], [10, 3600]);
    assert.equal(defaults.hashThreads, Math.max(1, availableParallelism() - 1));
    const set = loadConfig({
      NOTES_SIGNUP_MAX_ATTEMPTS: "4",
      NOTES_SIGNUP_WINDOW: "120",
      NOTES_HASH_THREADS: "3",
    });
    assert.deepEqual(
      [set.signupMaxAttempts, set.signupWindowSeconds, set.hashThreads],
      [4, 120, 3],
    );
    assert.throws(
      () => loadConfig({ NOTES_HASH_THREADS: "0", NOTES_SIGNUP_MAX_ATTEMPTS: "many" }),
      (error: ConfigError) => {
        assert.match(error.message, /NOTES_HASH_THREADS must be a whole number from 1 to 64/);
        assert.match(error.message, /NOTES_SIGNUP_MAX_ATTEMPTS must be a whole number/);
        return true;
      },
    );
  });

  it("reads the time-outs and the connection cap, off by default behind a proxy", () => {
    assert.deepEqual(
      { ...loadConfig({}).connectionLimits },
      {
        headersTimeoutMs: 10_000,
        requestTimeoutMs: 30_000,
        bodyIdleTimeoutMs: 10_000,
        keepAliveTimeoutMs: 5_000,
        maxConnectionsPerAddress: 32,
      },
    );
    assert.equal(
      loadConfig({ NOTES_TRUST_PROXY: "true" }).connectionLimits.maxConnectionsPerAddress,
      0,
    );
    const drafts = loadConfig({ NOTES_DRAFT_MAX_AGE: "120", NOTES_MAX_DRAFTS: "0" });
    assert.deepEqual([drafts.draftMaxAgeSeconds, drafts.maxDrafts], [120, 0]);
    assert.deepEqual([loadConfig({}).draftMaxAgeSeconds, loadConfig({}).maxDrafts], [900, 500]);
    const set = loadConfig({
      NOTES_HEADERS_TIMEOUT_MS: "200",
      NOTES_REQUEST_TIMEOUT_MS: "400",
      NOTES_BODY_IDLE_TIMEOUT_MS: "300",
      NOTES_KEEP_ALIVE_TIMEOUT_MS: "100",
      NOTES_MAX_CONNECTIONS_PER_ADDRESS: "3",
      NOTES_TRUST_PROXY: "true",
    }).connectionLimits;
    assert.deepEqual(Object.values(set), [200, 400, 300, 100, 3]);
    assert.throws(
      () =>
        loadConfig({
          NOTES_HEADERS_TIMEOUT_MS: "40000",
          NOTES_KEEP_ALIVE_TIMEOUT_MS: "0",
          NOTES_MAX_CONNECTIONS_PER_ADDRESS: "-1",
        }),
      (error: ConfigError) => {
        assert.match(
          error.message,
          /NOTES_HEADERS_TIMEOUT_MS \(40000\) must not exceed NOTES_REQUEST_TIMEOUT_MS \(30000\)/,
        );
        assert.match(
          error.message,
          /NOTES_KEEP_ALIVE_TIMEOUT_MS must be a whole number from 100 to 600000/,
        );
        assert.match(
          error.message,
          /NOTES_MAX_CONNECTIONS_PER_ADDRESS must be a whole number from 0/,
        );
        return true;
      },
    );
  });

  it("refuses to start in production without SESSION_SECRET, naming the variable", () => {
    assert.throws(
      () => loadConfig({ NODE_ENV: "production" }),
      (error: ConfigError) => {
        assert.ok(error instanceof ConfigError);
        assert.equal(error.code, "config_invalid");
        assert.match(error.message, /SESSION_SECRET: required when NODE_ENV=production/);
        return true;
      },
    );
  });

  it("reports every bad variable at once", () => {
    assert.throws(
      () =>
        loadConfig({
          NOTES_ADDR: "nonsense",
          SESSION_SECRET: "short",
          NOTES_BCRYPT_COST: "31",
          NOTES_LOGIN_MAX_FAILURES: "-1",
          NOTES_LOGIN_WINDOW: "ten",
          NOTES_TRUST_PROXY: "maybe",
          NOTES_LOG_LEVEL: "loud",
          DATABASE_URL: "mysql://x",
          NOTES_SESSION_MAX_AGE: "1",
        }),
      (error: ConfigError) => {
        const names = error.problems.map((p) => /^[A-Z_]+/.exec(p)?.[0]);
        assert.deepEqual(names.sort(), [
          "DATABASE_URL",
          "NOTES_ADDR",
          "NOTES_BCRYPT_COST",
          "NOTES_LOGIN_MAX_FAILURES",
          "NOTES_LOGIN_WINDOW",
          "NOTES_LOG_LEVEL",
          "NOTES_SESSION_MAX_AGE",
          "NOTES_TRUST_PROXY",
          "SESSION_SECRET",
        ]);
        return true;
      },
    );
  });

  it("rejects a port above 65535", () => {
    assert.throws(() => loadConfig({ NOTES_ADDR: "127.0.0.1:70000" }), /NOTES_ADDR/);
  });

  it("documents every variable it reads in the configuration table", () => {
    const names = configTable.map((v) => v.name);
    for (const name of [
      "NOTES_ADDR",
      "DATABASE_URL",
      "NOTES_DATA_DIR",
      "SESSION_SECRET",
      "NODE_ENV",
      "NOTES_BCRYPT_COST",
    ]) {
      assert.ok(names.includes(name), name);
    }
  });
});
