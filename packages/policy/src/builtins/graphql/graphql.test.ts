import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { builtinError, callBuiltin, callJSON, typeError } from "../testing/call-builtin.js";

const schema = `
  type Employee { id: String! salary: Int! }
  schema { query: Query }
  type Query { employeeByID(id: String): Employee }
`;

describe("graphql.parse_query", () => {
  test("returns the operation tree with gqlparser's field names and empty parts left out", () => {
    assert.equal(
      callJSON("graphql.parse_query", "{hero {name}}"),
      '{"Operations":[{"Name":"","Operation":"query","SelectionSet":[{"Alias":"hero","Name":"hero","SelectionSet":[{"Alias":"name","Name":"name"}]}]}]}',
    );
  });

  test("keeps value kinds, variables and list types", () => {
    const out = callJSON(
      "graphql.parse_query",
      "query ($a: [Int!]!) { f(x: $a, y: [1, 2.5], z: ENUM_V) }",
    );
    assert.match(out, /"Kind":0,"Raw":"a"/);
    assert.match(out, /"Kind":2,"Raw":"2.5"/);
    assert.match(out, /"Kind":7,"Raw":"ENUM_V"/);
    assert.match(
      out,
      /"Type":\{"Elem":\{"NamedType":"Int","NonNull":true\},"NamedType":"","NonNull":true\}/,
    );
  });

  test("decodes block strings by stripping their common indentation", () => {
    const out = callJSON("graphql.parse_query", '{ f(s: """\n    a\n      b\n  """) }');
    assert.match(out, /"Kind":4,"Raw":"a\\n {2}b"/);
  });

  test("reports syntax errors with their line and column", () => {
    assert.throws(
      () => callBuiltin("graphql.parse_query", ["{"]),
      builtinError(
        "graphql.parse_query: Expected Name, found <EOF> in GraphQL string at location 1:2",
      ),
    );
    assert.throws(
      () =>
        callBuiltin("graphql.parse_query", ["\n  { ...MissingOn }\n  fragment MissingOn Type\n"]),
      builtinError(
        'graphql.parse_query: Expected "on", found Name "Type" in GraphQL string at location 3:22',
      ),
    );
  });

  test("refuses a non-string operand", () => {
    assert.throws(
      () => callBuiltin("graphql.parse_query", [1]),
      typeError("graphql.parse_query: operand 1 must be string but got number"),
    );
  });
});

describe("graphql.parse_schema", () => {
  test("returns definitions and extensions separately", () => {
    assert.equal(
      callJSON("graphql.parse_schema", "union U = A | B\nextend type T implements I"),
      '{"Definitions":[{"BuiltIn":false,"Description":"","Kind":"UNION","Name":"U","Types":["A","B"]}],"Extensions":[{"BuiltIn":false,"Description":"","Interfaces":["I"],"Kind":"OBJECT","Name":"T"}]}',
    );
  });

  test("rejects empty field lists and unknown directive locations", () => {
    assert.throws(
      () => callBuiltin("graphql.parse_schema", ["type Hello {}"]),
      builtinError(
        "graphql.parse_schema: expected at least one definition, found } in GraphQL string at location 1:13",
      ),
    );
    assert.throws(
      () => callBuiltin("graphql.parse_schema", ["directive @foo on FIELD | NOWHERE"]),
      builtinError(
        'graphql.parse_schema: Unexpected Name "NOWHERE" in GraphQL string at location 1:27',
      ),
    );
  });
});

describe("graphql validation", () => {
  test("accepts a query that fits the schema and rejects one that does not", () => {
    assert.equal(
      callBuiltin("graphql.is_valid", ['{ employeeByID(id: "a") { salary } }', schema]),
      true,
    );
    assert.equal(
      callBuiltin("graphql.is_valid", ['{ employeeByID(id: "a") { bonus } }', schema]),
      false,
    );
    assert.equal(
      callBuiltin("graphql.is_valid", ["{ employeeByID(id: 1) { salary } }", schema]),
      false,
    );
    assert.equal(callBuiltin("graphql.is_valid", ["{ employeeByID { salary } }", schema]), true);
    assert.equal(
      callBuiltin("graphql.is_valid", ["{ employeeByID(id: $x) { salary } }", schema]),
      false,
    );
  });

  test("graphql.parse names the first validation problem", () => {
    assert.throws(
      () => callBuiltin("graphql.parse", ['{ employeeByID(id: "a") }', schema]),
      builtinError(
        'graphql.parse: Field "employeeByID" of type "Employee" must have a selection of subfields in GraphQL string at location 1:3',
      ),
    );
  });

  test("accepts AST objects from an earlier parse and returns them unchanged", () => {
    const q = callBuiltin("graphql.parse_query", ['{ employeeByID(id: "a") { salary } }']);
    const s = callBuiltin("graphql.parse_schema", [schema]);
    const out = callBuiltin("graphql.parse_and_verify", [q, s]) as unknown[];
    assert.equal(out[0], true);
    assert.deepEqual(out.slice(1), [q, s]);
  });

  test("parse_and_verify answers false with empty objects for an invalid query", () => {
    assert.equal(callJSON("graphql.parse_and_verify", "{ nope }", schema), "[false,{},{}]");
  });

  test("validity checks answer false for operands that are neither text nor AST objects", () => {
    assert.equal(callBuiltin("graphql.is_valid", [1, schema]), false);
    assert.equal(callBuiltin("graphql.schema_is_valid", [[]]), false);
    assert.equal(callJSON("graphql.parse_and_verify", "{ a }", 1), "[false,{},{}]");
    assert.throws(
      () => callBuiltin("graphql.parse", [1, schema]),
      typeError("graphql.parse: operand 1 must be one of {string, object} but got number"),
    );
  });

  test("graphql.parse reports schema problems in the library's wrapped form", () => {
    assert.throws(
      () => callBuiltin("graphql.parse", ["{ a }", "type Query { a: Nope }"]),
      builtinError(
        "graphql.parse: Error in gqlparser SchemaDocument to Schema conversion: input:1:17: Undefined type Nope.",
      ),
    );
  });

  test("schema_is_valid checks references, kinds and interface implementations", () => {
    assert.equal(callBuiltin("graphql.schema_is_valid", [schema]), true);
    assert.equal(
      callBuiltin("graphql.schema_is_valid", ["type Hello implements World { f: String }"]),
      false,
    );
    assert.equal(
      callBuiltin("graphql.schema_is_valid", [`input I { f: Employee } ${schema}`]),
      false,
    );
    assert.equal(callBuiltin("graphql.schema_is_valid", ["schema { query: Query }"]), false);
    assert.equal(callBuiltin("graphql.schema_is_valid", ["type Hello {}"]), false);
  });
});

describe("graphql query validation rules", () => {
  const starWars = `
    type Query { hero(episode: Episode, id: ID!): Character droid(id: ID!): Droid }
    enum Episode { NEWHOPE EMPIRE JEDI }
    interface Character { id: ID! name: String }
    type Human implements Character { id: ID! name: String height: Float }
    type Droid implements Character { id: ID! name: String primaryFunction: String }
    type Subscription { a: Int b: Int }
  `;
  const invalid: [string, string][] = [
    [
      '{ hero(id: "1") { nope } }',
      'Cannot query field "nope" on type "Character". Did you mean "name"?',
    ],
    [
      '{ hero(id: "1") { height } }',
      'Cannot query field "height" on type "Character". Did you mean to use an inline fragment on "Human"?',
    ],
    ['{ hero(id: "1", x: 1) { name } }', 'Unknown argument "x" on field "Query.hero".'],
    ['{ hero(id: "1", episode: FOO) { name } }', 'Value "FOO" does not exist in "Episode" enum.'],
    [
      '{ hero(id: "1", episode: "JEDI") { name } }',
      'Enum "Episode" cannot represent non-enum value: "JEDI".',
    ],
    ['{ hero(id: "1") { ...F } }', 'Unknown fragment "F".'],
    ['{ hero(id: "1") { name } } fragment F on Human { height }', 'Fragment "F" is never used.'],
    [
      '{ hero(id: "1") { ...A } } fragment A on Character { ...B } fragment B on Character { ...A }',
      'Cannot spread fragment "A" within itself via B.',
    ],
    [
      '{ droid(id: "1") { ... on Human { height } } }',
      'Fragment cannot be spread here as objects of type "Droid" can never be of type "Human".',
    ],
    ["query Q { hero(id: $x) { name } }", 'Variable "$x" is not defined by operation "Q".'],
    ['query Q($x: ID) { hero(id: "1") { name } }', 'Variable "$x" is never used in operation "Q".'],
    [
      "query Q($x: ID) { hero(id: $x) { name } }",
      'Variable "$x" of type "ID" used in position expecting type "ID!".',
    ],
    [
      'query Q($x: Droid) { hero(id: "1") { name } }',
      'Variable "$x" cannot be non-input type "Droid".',
    ],
    ['{ hero(id: "1") @nope { name } }', 'Unknown directive "@nope".'],
    [
      'query Q @include(if: true) { hero(id: "1") { name } }',
      'Directive "@include" may not be used on QUERY.',
    ],
    [
      '{ hero(id: "1") { name: id name } }',
      'Fields "name" conflict because id and name are different fields. Use different aliases on the fields to fetch both if this was intentional.',
    ],
    [
      'query A { droid(id: "1") { id } } query A { droid(id: "2") { id } }',
      'There can be only one operation named "A".',
    ],
    ["subscription S { a b }", 'Subscription "S" must select only one top level field.'],
    ["mutation { x }", 'Schema does not support operation type "mutation"'],
    ["{ hero(id: null) { id } }", 'Expected value of type "ID!", found null.'],
  ];
  for (const [query, message] of invalid) {
    test(`rejects ${query} with: ${message}`, () => {
      assert.throws(() => callBuiltin("graphql.parse", [query, starWars]), {
        name: "BuiltinError",
        message: new RegExp(
          `^graphql\\.parse: ${message.replace(/\.$/, "").replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} in GraphQL string at location \\d+:\\d+$`,
        ),
      });
    });
  }

  test("accepts introspection, __typename, aliases and satisfied variables", () => {
    const ok = [
      '{ __schema { types { name } } hero(id: "1") { __typename a: name ... on Human { height } } }',
      "query Q($x: ID!, $e: Episode = JEDI) { hero(id: $x, episode: $e) { name name } }",
      "subscription { a }",
    ];
    for (const query of ok)
      assert.equal(callBuiltin("graphql.is_valid", [query, starWars]), true, query);
  });
});
