import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { aggregatesBuiltins } from "./aggregates.js";
import { arithmeticBuiltins } from "./arithmetic.js";
import { arraysBuiltins } from "./arrays.js";
import { bitsBuiltins } from "./bits.js";
import { castsBuiltins } from "./casts.js";
import { graphBuiltins } from "./graph.js";
import { jsonOpsBuiltins } from "./json-ops.js";
import { objectsBuiltins } from "./objects.js";
import { lookupBuiltin } from "./registry.js";
import type { BuiltinDef } from "./registry-types.js";
import { setsBuiltins } from "./sets.js";
import { typesBuiltins } from "./types.js";

const families: Record<string, BuiltinDef[]> = {
  aggregates: aggregatesBuiltins,
  arithmetic: arithmeticBuiltins,
  arrays: arraysBuiltins,
  bits: bitsBuiltins,
  casts: castsBuiltins,
  graph: graphBuiltins,
  "json-ops": jsonOpsBuiltins,
  objects: objectsBuiltins,
  sets: setsBuiltins,
  types: typesBuiltins,
};

/**
 * Checks a type against the notation of registry-types.ts:
 * type := alt ("|" alt)*;  alt := scalar | ("array" | "set") ["[" type "]"] | "object" ["[" type "," type "]"]
 */
function isValidType(text: string): boolean {
  const tokens = text.match(/[a-z]+|[[\],|]/g) ?? [];
  if (tokens.join("") !== text.replace(/\s+/g, "")) return false;
  let i = 0;
  const union = (): boolean => {
    if (!alternative()) return false;
    while (tokens[i] === "|") {
      i++;
      if (!alternative()) return false;
    }
    return true;
  };
  const bracketed = (count: number): boolean => {
    if (tokens[i] !== "[") return true;
    i++;
    for (let k = 0; k < count; k++) {
      if (k > 0 && tokens[i++] !== ",") return false;
      if (!union()) return false;
    }
    return tokens[i++] === "]";
  };
  const alternative = (): boolean => {
    const word = tokens[i++];
    if (["any", "null", "boolean", "number", "string"].includes(word as string)) return true;
    if (word === "array" || word === "set") return bracketed(1);
    if (word === "object") return bracketed(2);
    return false;
  };
  return union() && i === tokens.length;
}

describe("builtin signatures", () => {
  test("the notation checker accepts valid types and refuses broken ones", () => {
    assert.ok(isValidType("array[number] | set[number]"));
    assert.ok(isValidType("object[string, any]"));
    assert.ok(!isValidType("array[number"));
    assert.ok(!isValidType("list"));
    assert.ok(!isValidType("number |"));
  });

  for (const [family, defs] of Object.entries(families)) {
    test(`every ${family} builtin declares well-formed operand and result types`, () => {
      assert.ok(defs.length > 0);
      for (const def of defs) {
        for (const t of [...def.args, def.result]) {
          assert.ok(isValidType(t), `${def.name}: bad type ${JSON.stringify(t)}`);
        }
      }
    });

    test(`every ${family} builtin is registered under its name`, () => {
      for (const def of defs) assert.equal(lookupBuiltin(def.name), def);
    });
  }

  test("only rand.intn is nondeterministic, and only walk is a relation", () => {
    const all = Object.values(families).flat();
    assert.deepEqual(
      all.filter((d) => d.nondeterministic).map((d) => d.name),
      ["rand.intn"],
    );
    assert.deepEqual(
      all.filter((d) => d.relation).map((d) => d.name),
      ["walk"],
    );
  });
});
