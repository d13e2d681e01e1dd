import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { goTime, retryBackoffMs } from "./bundle-plugin.js";

describe("bundle plugin helpers", () => {
  it("backs off as OPA's DefaultBackoff: at once, then 100 ms x 1.6^n up to the max, ±20%", () => {
    const middle = () => 0.5; // no jitter
    assert.equal(retryBackoffMs(120_000, 0, middle), 0);
    assert.equal(retryBackoffMs(120_000, 1, middle), 160);
    assert.equal(Math.round(retryBackoffMs(120_000, 3, middle)), 410);
    assert.equal(retryBackoffMs(120_000, 50, middle), 120_000);
    assert.equal(retryBackoffMs(50, 2, middle), 50);
    assert.equal(
      retryBackoffMs(120_000, 1, () => 0),
      128,
    );
    assert.equal(
      retryBackoffMs(120_000, 1, () => 1),
      192,
    );
  });

  it("prints times as Go's RFC3339Nano in UTC", () => {
    assert.equal(goTime(Date.UTC(2024, 0, 2, 3, 4, 5, 120)), "2024-01-02T03:04:05.12Z");
    assert.equal(goTime(Date.UTC(2024, 0, 2, 3, 4, 5, 0)), "2024-01-02T03:04:05Z");
  });
});
