import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { fromJSON, stringifyJSON, type Value } from "../value/value.js";
import { lookupBuiltin } from "./registry.js";
import { callBuiltin, callJSON, set, testContext, typeError } from "./testing/call-builtin.js";

/** The `walk` relation's outputs for `doc`, each as JSON text. */
function walkPairs(doc: unknown): string[] {
  const relation = lookupBuiltin("walk")?.relation;
  assert.ok(relation, "walk is registered as a relation");
  return [...relation([fromJSON(doc)], testContext())].map((pair) => stringifyJSON(pair));
}

describe("walk", () => {
  test("relates a scalar to the empty path", () => {
    assert.deepEqual(walkPairs(1), ["[[],1]"]);
  });

  test("visits every node of arrays and objects with its path", () => {
    assert.deepEqual(walkPairs([1, { b: 2 }]), [
      '[[],[1,{"b":2}]]',
      "[[0],1]",
      '[[1],{"b":2}]',
      '[[1,"b"],2]',
    ]);
  });

  test("uses set members as path segments", () => {
    assert.deepEqual(walkPairs(set(set(1, 2))), [
      "[[],[[1,2]]]",
      "[[[1,2]],[1,2]]",
      "[[[1,2],1],1]",
      "[[[1,2],2],2]",
    ]);
  });

  test("gives every pair its own path array", () => {
    const relation = lookupBuiltin("walk")?.relation;
    const pairs = [
      ...(relation?.([fromJSON({ a: [{ x: 1 }, { y: 2 }] })], testContext()) ?? []),
    ] as Value[][];
    const paths = pairs.map((p) => stringifyJSON(p[0] as Value));
    assert.deepEqual(paths, ["[]", '["a"]', '["a",0]', '["a",0,"x"]', '["a",1]', '["a",1,"y"]']);
  });
});

describe("graph.reachable", () => {
  test("follows edges given as sets or arrays, through cycles", () => {
    assert.equal(
      callJSON("graph.reachable", { a: set("b"), b: set("c"), c: set("a") }, set("a")),
      '["a","b","c"]',
    );
    assert.equal(
      callJSON("graph.reachable", { a: ["b"], b: ["c"], c: ["a"] }, ["a"]),
      '["a","b","c"]',
    );
  });

  test("counts only nodes that are keys of the graph", () => {
    const graph = {
      a: set("b", "c"),
      b: set("d"),
      c: set("d"),
      d: set(),
      e: set("f"),
      f: set("e"),
      x: set("x"),
    };
    assert.equal(callJSON("graph.reachable", graph, set("b", "e")), '["b","d","e","f"]');
    assert.equal(callJSON("graph.reachable", {}, set("a")), "[]");
    assert.equal(callJSON("graph.reachable", { a: null }, ["a"]), '["a"]');
    assert.equal(callJSON("graph.reachable", { a: ["zz"] }, ["a"]), '["a"]');
  });

  test("refuses a non-object graph and non-collection start nodes", () => {
    assert.throws(
      () => callBuiltin("graph.reachable", [1, [1]]),
      typeError("graph.reachable: operand 1 must be object but got number"),
    );
    assert.throws(
      () => callBuiltin("graph.reachable", [{ a: [] }, "a"]),
      typeError("graph.reachable: operand 2 must be {array, set} but got string"),
    );
  });
});

describe("graph.reachable_paths", () => {
  test("lists maximal paths, stopping at cycles", () => {
    assert.equal(
      callJSON("graph.reachable_paths", { a: set("b"), b: set("c"), c: set("a") }, set("a")),
      '[["a","b","c"]]',
    );
    assert.equal(
      callJSON("graph.reachable_paths", { a: ["b", "c"], b: ["c"], c: [] }, set("a")),
      '[["a","b","c"],["a","c"]]',
    );
  });

  test("ends a path before a node missing from the graph", () => {
    assert.equal(
      callJSON("graph.reachable_paths", { a: ["b"], b: ["nonexistent"] }, set("a", "b")),
      '[["a","b"],["b"]]',
    );
    assert.equal(callJSON("graph.reachable_paths", {}, set("a")), "[]");
    assert.equal(callJSON("graph.reachable_paths", { a: null }, ["a"]), '[["a"]]');
  });

  test("stops at a node an earlier sibling branch already reached", () => {
    const graph = {
      one: ["two", "five"],
      two: ["four"],
      three: [""],
      four: ["three"],
      five: ["seven", "six"],
      six: ["nine", "seven"],
      seven: ["eight"],
      eight: ["three"],
      nine: [""],
    };
    assert.equal(
      callJSON("graph.reachable_paths", graph, set("one")),
      '[["one","five","seven","eight","three"],["one","five","six"],["one","five","six","nine"],["one","two","four","three"]]',
    );
  });

  test("refuses malformed operands", () => {
    assert.throws(
      () => callBuiltin("graph.reachable_paths", [1, [1]]),
      typeError("graph.reachable_paths: operand 1 must be object but got number"),
    );
  });
});
