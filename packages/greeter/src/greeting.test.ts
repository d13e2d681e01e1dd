import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { greetingFor, parseGreeting, phraseForHour } from "./greeting.js";
import { MAX_NAME_LENGTH, nameProblem } from "./name-check.js";

describe("phraseForHour", () => {
  const cases: [number, string][] = [
    [0, "Good Morning"],
    [11, "Good Morning"],
    [12, "Good Afternoon"],
    [15, "Good Afternoon"],
    [16, "Good Evening"],
    [20, "Good Evening"],
    [21, "Good Night"],
    [23, "Good Night"],
  ];
  for (const [hour, phrase] of cases) {
    it(`gives ${phrase} at hour ${hour}`, () => assert.equal(phraseForHour(hour), phrase));
  }

  it("rejects hours outside 0-23", () => {
    assert.throws(() => phraseForHour(24), RangeError);
    assert.throws(() => phraseForHour(-1), RangeError);
    assert.throws(() => phraseForHour(1.5), RangeError);
  });
});

describe("greetingFor", () => {
  it("uses layout variant 1 with the local hour", () => {
    assert.equal(greetingFor("Ann", new Date(2026, 0, 1, 13, 0)), "Hello, Ann, Good Afternoon !!!");
  });
});

describe("parseGreeting", () => {
  it("reads layout variant 1 (comma after Hello)", () => {
    assert.deepEqual(parseGreeting("Hello, Ann, Good Night !!!"), {
      name: "Ann",
      phrase: "Good Night",
    });
  });

  it("reads layout variant 2 (no comma after Hello)", () => {
    assert.deepEqual(parseGreeting("Hello Ann, Good Evening !!!"), {
      name: "Ann",
      phrase: "Good Evening",
    });
  });

  it("keeps names that contain commas and spaces", () => {
    assert.deepEqual(parseGreeting("Hello, Doe, Jane, Good Morning !!!"), {
      name: "Doe, Jane",
      phrase: "Good Morning",
    });
  });

  it("rejects text that is not a greeting", () => {
    assert.equal(parseGreeting("Hi, Ann, Good Morning !!!"), undefined);
    assert.equal(parseGreeting("Hello, Ann, Good Day !!!"), undefined);
    assert.equal(parseGreeting("Hello, Ann, Good Morning"), undefined);
  });
});

describe("nameProblem", () => {
  it("accepts an ordinary name and one of exactly the maximum length", () => {
    assert.equal(nameProblem("Ann"), undefined);
    assert.equal(nameProblem("x".repeat(MAX_NAME_LENGTH)), undefined);
  });

  it("says which rule a bad name breaks", () => {
    assert.equal(nameProblem(""), "name is required");
    assert.equal(nameProblem(undefined), "name is required");
    assert.equal(nameProblem(" \t "), "name must not be blank");
    assert.match(nameProblem("x".repeat(257)) ?? "", /too long: 257 characters, at most 256/);
  });

  it("counts characters, not UTF-16 units", () => {
    assert.equal(nameProblem("😀".repeat(MAX_NAME_LENGTH)), undefined);
  });
});
