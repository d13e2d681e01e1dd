import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseGoDuration, parseKeepAliveEnv, parseKeepAliveField } from "./duration.js";

describe("durations", () => {
  it("parses Go duration strings into milliseconds", () => {
    assert.equal(parseGoDuration("5m"), 300_000);
    assert.equal(parseGoDuration("1h30m"), 5_400_000);
    assert.equal(parseGoDuration("500ms"), 500);
    assert.equal(parseGoDuration("1.5s"), 1500);
    assert.equal(parseGoDuration("-1m"), -60_000);
    assert.equal(parseGoDuration("0"), 0);
  });

  it("rejects strings that are not Go durations", () => {
    for (const s of ["", "5", "m", "5 m", "5mm", "five minutes", "1d"])
      assert.equal(parseGoDuration(s), undefined, s);
  });

  it("reads LLMSRV_KEEP_ALIVE: durations, plain seconds, negative as forever", () => {
    assert.equal(parseKeepAliveEnv("5m"), 300_000);
    assert.equal(parseKeepAliveEnv("300"), 300_000);
    assert.equal(parseKeepAliveEnv("0"), 0);
    assert.equal(parseKeepAliveEnv("-1"), Number.POSITIVE_INFINITY);
    assert.equal(parseKeepAliveEnv("-5m"), Number.POSITIVE_INFINITY);
    assert.equal(parseKeepAliveEnv("later"), undefined);
  });

  it("reads a request's keep_alive as Ollama does, with Go's error for numeric strings", () => {
    assert.deepEqual(parseKeepAliveField(undefined), { ms: undefined });
    assert.deepEqual(parseKeepAliveField(30), { ms: 30_000 });
    assert.deepEqual(parseKeepAliveField(-1), { ms: Number.POSITIVE_INFINITY });
    assert.deepEqual(parseKeepAliveField("10m"), { ms: 600_000 });
    assert.deepEqual(parseKeepAliveField("0"), { ms: 0 });
    assert.deepEqual(parseKeepAliveField("3600"), {
      error: 'time: missing unit in duration "3600"',
    });
    assert.ok("error" in parseKeepAliveField(true));
    assert.ok("error" in parseKeepAliveField("soon"));
  });
});
