/**
 * GraphQL builtins: parse queries and schemas into OPA's AST objects and validate queries
 * against schemas. Operands may be GraphQL text or AST objects from an earlier parse.
 */
import { BuiltinError, BuiltinTypeError } from "../../errors.js";
import type { QueryDocument, SchemaDocument } from "../../lib/graphql/ast.js";
import { GraphQLSyntaxError } from "../../lib/graphql/lexer.js";
import { parseQueryDocument } from "../../lib/graphql/query-parser.js";
import { validateQuery } from "../../lib/graphql/query-rules.js";
import { loadSchema, type Schema } from "../../lib/graphql/schema.js";
import { parseSchemaDocument } from "../../lib/graphql/schema-parser.js";
import { RegoObject, type Value } from "../../value/value.js";
import { asString, oneOfError } from "../args.js";
import type { BuiltinContext, BuiltinDef } from "../registry-types.js";
import { queryDocumentFromValue, schemaDocumentFromValue } from "./from-value.js";
import { queryDocumentToValue, schemaDocumentToValue } from "./to-value.js";

type Stage = "parse" | "validate" | "schema";

/**
 * OPA's wording for each stage: syntax errors and query validation errors (trailing period
 * dropped) as `<message> in GraphQL string at location <line>:<column>`, schema loading errors
 * wrapped with the library's `input:<line>:<column>: <message>` form.
 */
function toBuiltinError(fn: string, err: GraphQLSyntaxError, stage: Stage = "parse"): BuiltinError {
  const pos = err.pos;
  if (stage === "schema") {
    const where = pos ? `input:${pos.line}:${pos.column}` : "input";
    return new BuiltinError(
      `${fn}: Error in gqlparser SchemaDocument to Schema conversion: ${where}: ${err.message}`,
    );
  }
  const message = stage === "validate" ? err.message.replace(/\.$/, "") : err.message;
  if (!pos) return new BuiltinError(`${fn}: GraphQL parse error: ${message}`);
  return new BuiltinError(
    `${fn}: ${message} in GraphQL string at location ${pos.line}:${pos.column}`,
  );
}

/**
 * Parsing and schema loading are pure functions of the text, so one query evaluation keeps
 * their results (policies often check many queries against one schema).
 */
function memo<T>(ctx: BuiltinContext, key: string, compute: () => T): T {
  if (ctx.cache.has(key)) return ctx.cache.get(key) as T;
  const v = compute();
  ctx.cache.set(key, v);
  return v;
}

function queryOperand(fn: string, v: Value, pos: number, ctx: BuiltinContext): QueryDocument {
  if (v instanceof RegoObject) return queryDocumentFromValue(v);
  if (typeof v !== "string") throw oneOfError(fn, pos, ["string", "object"], v);
  const doc = memo(ctx, `graphql.query:${v}`, () => parseQueryDocument(v));
  if (doc instanceof GraphQLSyntaxError) throw toBuiltinError(fn, doc);
  return doc;
}

function schemaOperand(fn: string, v: Value, pos: number, ctx: BuiltinContext): SchemaDocument {
  if (v instanceof RegoObject) return schemaDocumentFromValue(v);
  if (typeof v !== "string") throw oneOfError(fn, pos, ["string", "object"], v);
  const doc = memo(ctx, `graphql.schema:${v}`, () => parseSchemaDocument(v));
  if (doc instanceof GraphQLSyntaxError) throw toBuiltinError(fn, doc);
  return doc;
}

function loadedSchema(fn: string, v: Value, pos: number, ctx: BuiltinContext): Schema {
  const doc = schemaOperand(fn, v, pos, ctx);
  const schema =
    typeof v === "string"
      ? memo(ctx, `graphql.loaded:${v}`, () => loadSchema(doc))
      : loadSchema(doc);
  if (schema instanceof GraphQLSyntaxError) throw toBuiltinError(fn, schema, "schema");
  return schema;
}

/** Parses both operands and validates the query; throws the first problem as a BuiltinError. */
function parseAndValidate(fn: string, args: Value[], ctx: BuiltinContext): [Value, Value] {
  const query = queryOperand(fn, args[0] as Value, 1, ctx);
  const schemaDoc = schemaOperand(fn, args[1] as Value, 2, ctx);
  const queryValue = queryDocumentToValue(query);
  const schemaValue = schemaDocumentToValue(schemaDoc);
  const schema = loadedSchema(fn, args[1] as Value, 2, ctx);
  const errors = validateQuery(schema, query);
  if (errors[0]) throw toBuiltinError(fn, errors[0], "validate");
  return [queryValue, schemaValue];
}

/** True when `f` completes; invalid GraphQL and operands of the wrong kind count as false. */
function succeeds(f: () => unknown): boolean {
  try {
    f();
    return true;
  } catch (e) {
    if (e instanceof BuiltinError || e instanceof BuiltinTypeError) return false;
    throw e;
  }
}

const queryOrAst = "string | object";

export const graphqlBuiltins: BuiltinDef[] = [
  {
    name: "graphql.parse_query",
    args: ["string"],
    result: "object",
    impl: ([q], ctx) => {
      const fn = "graphql.parse_query";
      return queryDocumentToValue(queryOperand(fn, asString(fn, q as Value, 1), 1, ctx));
    },
  },
  {
    name: "graphql.parse_schema",
    args: ["string"],
    result: "object",
    impl: ([s], ctx) => {
      const fn = "graphql.parse_schema";
      return schemaDocumentToValue(schemaOperand(fn, asString(fn, s as Value, 1), 1, ctx));
    },
  },
  {
    name: "graphql.parse",
    args: [queryOrAst, queryOrAst],
    result: "array[object]",
    impl: (args, ctx) => parseAndValidate("graphql.parse", args, ctx),
  },
  {
    name: "graphql.parse_and_verify",
    args: [queryOrAst, queryOrAst],
    result: "array[any]",
    impl: (args, ctx) => {
      let parsed: [Value, Value] | undefined;
      const ok = succeeds(() => {
        parsed = parseAndValidate("graphql.parse_and_verify", args, ctx);
      });
      return ok && parsed ? [true, ...parsed] : [false, new RegoObject(), new RegoObject()];
    },
  },
  {
    name: "graphql.is_valid",
    args: [queryOrAst, queryOrAst],
    result: "boolean",
    impl: (args, ctx) => succeeds(() => parseAndValidate("graphql.is_valid", args, ctx)),
  },
  {
    name: "graphql.schema_is_valid",
    args: [queryOrAst],
    result: "boolean",
    impl: ([s], ctx) => succeeds(() => loadedSchema("graphql.schema_is_valid", s as Value, 1, ctx)),
  },
];
