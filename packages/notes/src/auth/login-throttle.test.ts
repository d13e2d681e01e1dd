import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { addressKey, createLoginThrottle, emailKey } from "./login-throttle.js";

function clock(start = 1_000_000) {
  const state = { now: start };
  return { state, now: () => state.now };
}

describe("the login throttle", () => {
  it("allows attempts until the limit of failures is reached", () => {
    const c = clock();
    const throttle = createLoginThrottle({ maxFailures: 3, windowSeconds: 600, now: c.now });
    const keys = [emailKey("a@x.io")];
    for (let i = 0; i < 3; i++) {
      assert.equal(throttle.retryAfter(keys), 0);
      throttle.recordFailure(keys);
    }
    assert.equal(throttle.retryAfter(keys), 600);
  });

  it("lets a key try again once the oldest counted failure leaves the window", () => {
    const c = clock();
    const throttle = createLoginThrottle({ maxFailures: 2, windowSeconds: 100, now: c.now });
    const keys = [addressKey("10.0.0.1")];
    throttle.recordFailure(keys);
    c.state.now += 30_000;
    throttle.recordFailure(keys);
    assert.equal(throttle.retryAfter(keys), 70);
    c.state.now += 70_000;
    assert.equal(throttle.retryAfter(keys), 0);
  });

  it("blocks when any one of the keys is over the limit", () => {
    const throttle = createLoginThrottle({ maxFailures: 1, windowSeconds: 60, now: clock().now });
    throttle.recordFailure([addressKey("1.2.3.4")]);
    assert.equal(throttle.retryAfter([emailKey("fresh@x.io"), addressKey("1.2.3.4")]), 60);
    assert.equal(throttle.retryAfter([emailKey("fresh@x.io"), addressKey("5.6.7.8")]), 0);
  });

  it("forgets a key on reset", () => {
    const throttle = createLoginThrottle({ maxFailures: 1, windowSeconds: 60, now: clock().now });
    throttle.recordFailure([emailKey("a@x.io")]);
    throttle.reset(emailKey("a@x.io"));
    assert.equal(throttle.retryAfter([emailKey("a@x.io")]), 0);
  });

  it("counts an email in any letter case as the same key", () => {
    assert.equal(emailKey("A@X.io"), emailKey("a@x.IO"));
  });

  it("evicts the oldest keys beyond maxKeys so memory stays bounded", () => {
    const throttle = createLoginThrottle({
      maxFailures: 1,
      windowSeconds: 60,
      maxKeys: 2,
      now: clock().now,
    });
    throttle.recordFailure(["k1"]);
    throttle.recordFailure(["k2"]);
    throttle.recordFailure(["k3"]);
    assert.equal(throttle.retryAfter(["k1"]), 0);
    assert.equal(throttle.retryAfter(["k2"]), 60);
    assert.equal(throttle.retryAfter(["k3"]), 60);
  });
});
