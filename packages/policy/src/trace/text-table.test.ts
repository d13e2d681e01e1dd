import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { goDuration, textTable } from "./text-table.js";

describe("goDuration", () => {
  it("prints durations as Go's time.Duration does", () => {
    assert.equal(goDuration(0), "0s");
    assert.equal(goDuration(850), "850ns");
    assert.equal(goDuration(12_500), "12.5µs");
    assert.equal(goDuration(3_004_000), "3.004ms");
    assert.equal(goDuration(1_234_567), "1.234567ms");
    assert.equal(goDuration(1_500_000_000), "1.5s");
    assert.equal(goDuration(2_000_000), "2ms");
  });
});

describe("textTable", () => {
  it("centres upper-cased headers and left-aligns cells", () => {
    assert.equal(
      textTable(["Metric", "Value"], [["timer_x_ns", "12"]]),
      [
        "+------------+-------+",
        "|   METRIC   | VALUE |",
        "+------------+-------+",
        "| timer_x_ns | 12    |",
        "+------------+-------+",
        "",
      ].join("\n"),
    );
  });

  it("draws a table without a header", () => {
    assert.equal(
      textTable([], [["Overall Coverage", "50.00"]]),
      "+------------------+-------+\n| Overall Coverage | 50.00 |\n+------------------+-------+\n",
    );
  });
});
