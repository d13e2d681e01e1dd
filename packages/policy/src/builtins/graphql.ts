/**
 * GraphQL builtins: parse queries and schemas into OPA's AST objects and validate queries
 * against schemas. Operands may be GraphQL text or AST objects from an earlier parse.
 */
import { BuiltinError } from "../errors.js";
import { RegoObject, type Value } from "../value/value.js";
import { asString, oneOfError } from "./args.js";
import type { QueryDocument, SchemaDocument } from "./graphql/ast.js";
import { queryDocumentFromValue, schemaDocumentFromValue } from "./graphql/from-value.js";
import { GraphQLSyntaxError } from "./graphql/lexer.js";
import { parseQueryDocument } from "./graphql/query-parser.js";
import { validateQuery } from "./graphql/query-rules.js";
import { loadSchema } from "./graphql/schema.js";
import { parseSchemaDocument } from "./graphql/schema-parser.js";
import { queryDocumentToValue, schemaDocumentToValue } from "./graphql/to-value.js";
import type { BuiltinDef } from "./registry-types.js";

/** OPA's wording: `<message> in GraphQL string at location <line>:<column>`. */
function toBuiltinError(fn: string, err: GraphQLSyntaxError): BuiltinError {
  const where = err.pos ? ` at location ${err.pos.line}:${err.pos.column}` : "";
  return new BuiltinError(`${fn}: ${err.message} in GraphQL string${where}`);
}

function queryOperand(fn: string, v: Value, pos: number): QueryDocument {
  if (v instanceof RegoObject) return queryDocumentFromValue(v);
  if (typeof v !== "string") throw oneOfError(fn, pos, ["object", "string"], v);
  const doc = parseQueryDocument(v);
  if (doc instanceof GraphQLSyntaxError) throw toBuiltinError(fn, doc);
  return doc;
}

function schemaOperand(fn: string, v: Value, pos: number): SchemaDocument {
  if (v instanceof RegoObject) return schemaDocumentFromValue(v);
  if (typeof v !== "string") throw oneOfError(fn, pos, ["object", "string"], v);
  const doc = parseSchemaDocument(v);
  if (doc instanceof GraphQLSyntaxError) throw toBuiltinError(fn, doc);
  return doc;
}

/** Parses both operands and validates the query; throws the first problem as a BuiltinError. */
function parseAndValidate(fn: string, args: Value[]): [Value, Value] {
  const query = queryOperand(fn, args[0] as Value, 1);
  const schemaDoc = schemaOperand(fn, args[1] as Value, 2);
  const queryValue = queryDocumentToValue(query);
  const schemaValue = schemaDocumentToValue(schemaDoc);
  const schema = loadSchema(schemaDoc);
  if (schema instanceof GraphQLSyntaxError) throw toBuiltinError(fn, schema);
  const errors = validateQuery(schema, query);
  if (errors[0]) throw toBuiltinError(fn, errors[0]);
  return [queryValue, schemaValue];
}

/** True when `f` completes; BuiltinErrors (invalid GraphQL) count as false, type errors propagate. */
function succeeds(f: () => unknown): boolean {
  try {
    f();
    return true;
  } catch (e) {
    if (e instanceof BuiltinError) return false;
    throw e;
  }
}

const queryOrAst = "string | object";

export const graphqlBuiltins: BuiltinDef[] = [
  {
    name: "graphql.parse_query",
    args: ["string"],
    result: "object",
    impl: ([q]) =>
      queryDocumentToValue(
        queryOperand("graphql.parse_query", asString("graphql.parse_query", q as Value, 1), 1),
      ),
  },
  {
    name: "graphql.parse_schema",
    args: ["string"],
    result: "object",
    impl: ([s]) =>
      schemaDocumentToValue(
        schemaOperand("graphql.parse_schema", asString("graphql.parse_schema", s as Value, 1), 1),
      ),
  },
  {
    name: "graphql.parse",
    args: [queryOrAst, queryOrAst],
    result: "array[object]",
    impl: (args) => parseAndValidate("graphql.parse", args),
  },
  {
    name: "graphql.parse_and_verify",
    args: [queryOrAst, queryOrAst],
    result: "array[any]",
    impl: (args) => {
      let parsed: [Value, Value] | undefined;
      const ok = succeeds(() => {
        parsed = parseAndValidate("graphql.parse_and_verify", args);
      });
      return ok && parsed ? [true, ...parsed] : [false, new RegoObject(), new RegoObject()];
    },
  },
  {
    name: "graphql.is_valid",
    args: [queryOrAst, queryOrAst],
    result: "boolean",
    impl: (args) => succeeds(() => parseAndValidate("graphql.is_valid", args)),
  },
  {
    name: "graphql.schema_is_valid",
    args: [queryOrAst],
    result: "boolean",
    impl: ([s]) =>
      succeeds(() => {
        const schema = loadSchema(schemaOperand("graphql.schema_is_valid", s as Value, 1));
        if (schema instanceof GraphQLSyntaxError)
          throw toBuiltinError("graphql.schema_is_valid", schema);
      }),
  },
];
