import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { addrProblem, readAddr, readWholeNumber } from "./env-readers.js";

describe("readAddr", () => {
  it("accepts host:port, IPv6 in brackets and port 0, and falls back when unset", () => {
    const bad: string[] = [];
    assert.equal(readAddr({ A: "localhost:8181" }, "A", "x:1", bad), "localhost:8181");
    assert.equal(readAddr({ A: "[::1]:0" }, "A", "x:1", bad), "[::1]:0");
    assert.equal(readAddr({}, "A", "127.0.0.1:1", bad), "127.0.0.1:1");
    assert.deepEqual(bad, []);
  });

  it("records a problem naming the variable for a bad address", () => {
    const bad: string[] = [];
    readAddr({ A: "nowhere" }, "A", "x:1", bad);
    readAddr({ B: "h:70000" }, "B", "x:1", bad);
    assert.deepEqual(bad, [
      'A must be host:port with a port 0-65535, got "nowhere"',
      'B must be host:port with a port 0-65535, got "h:70000"',
    ]);
    assert.equal(addrProblem("C", "h:1"), undefined);
    assert.match(addrProblem("D", ":8181") ?? "", /host before the colon/);
    assert.equal(addrProblem("D", ":8181", { emptyHost: true }), undefined);
  });
});

describe("readWholeNumber", () => {
  it("reads a number in range and falls back when unset or empty", () => {
    const bad: string[] = [];
    assert.equal(readWholeNumber({ N: "42" }, "N", 7, [1, 100], bad), 42);
    assert.equal(readWholeNumber({ N: "" }, "N", 7, [1, 100], bad), 7);
    assert.equal(readWholeNumber({}, "N", 7, [1, 100], bad), 7);
    assert.deepEqual(bad, []);
  });

  it("records out-of-range and non-numeric values by name", () => {
    const bad: string[] = [];
    assert.equal(readWholeNumber({ N: "101" }, "N", 7, [1, 100], bad), 7);
    readWholeNumber({ M: "1.5" }, "M", 7, [1, 100], bad);
    readWholeNumber({ K: "-3" }, "K", 7, [0, 100], bad);
    assert.deepEqual(bad, [
      'N must be a whole number from 1 to 100, got "101"',
      'M must be a whole number from 1 to 100, got "1.5"',
      'K must be a whole number from 0 to 100, got "-3"',
    ]);
  });
});
