import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { QueryDocument, SchemaDocument } from "./ast.js";
import { GraphQLSyntaxError } from "./lexer.js";
import { parseQueryDocument } from "./query-parser.js";
import { validateQuery } from "./query-rules.js";
import { loadSchema, type Schema } from "./schema.js";
import { parseSchemaDocument } from "./schema-parser.js";

const sdl = "type Query { hero(id: ID!): Hero } type Hero { name: String friends: [Hero] }";

function parsed<T>(result: T | GraphQLSyntaxError): T {
  if (result instanceof GraphQLSyntaxError) throw result;
  return result;
}

function schema(): Schema {
  return parsed(loadSchema(parsed<SchemaDocument>(parseSchemaDocument(sdl))));
}

/** The messages and positions of the validator's errors for `query`. */
function problems(query: string): string[] {
  const doc = parsed<QueryDocument>(parseQueryDocument(query));
  return validateQuery(schema(), doc).map((e) => `${e.pos?.line}:${e.pos?.column} ${e.message}`);
}

describe("GraphQL parser (gqlparser's messages)", () => {
  test("an unfinished selection set expects a name at the end of input", () => {
    const result = parseQueryDocument("{ hero ");
    assert.ok(result instanceof GraphQLSyntaxError);
    assert.equal(result.message, "Expected Name, found <EOF>");
  });

  test("schema loading refuses a field of an undefined type", () => {
    const doc = parsed<SchemaDocument>(parseSchemaDocument("type Query { a: Missing }"));
    const result = loadSchema(doc);
    assert.ok(result instanceof GraphQLSyntaxError);
    assert.equal(result.message, "Undefined type Missing.");
  });
});

describe("GraphQL validator (gqlparser's rules)", () => {
  test("a valid query has no errors", () => {
    assert.deepEqual(problems('{ hero(id: "1") { name friends { name } } }'), []);
  });

  test("an unknown field is reported with a suggestion", () => {
    assert.deepEqual(problems('{ hero(id: "1") { nmae } }'), [
      '1:19 Cannot query field "nmae" on type "Hero". Did you mean "name"?',
    ]);
  });

  test("a missing required argument is reported on the field", () => {
    assert.deepEqual(problems("{ hero { name } }"), [
      '1:3 Field "hero" argument "id" of type "ID!" is required, but it was not provided.',
    ]);
  });
});
