import {
  formatValue,
  type GoField,
  GoNamed,
  GoStruct,
  type GoType,
  NIL_SLICE,
} from "@quintet/gostd/fmt";
import { fromJson, goJson } from "@quintet/gostd/json";
import type { ToolDefinition } from "../api/types.js";
import type { TemplateMessage } from "./chat-template.js";

/**
 * The Go types of Ollama's `api` package that templates reach through `.Messages` and
 * `.Tools`: their field names (what a template may write), JSON names (what `json`
 * writes) and `String()` methods (what `{{ .Function }}` or `{{ .Function.Arguments }}`
 * print: JSON). `type` of a field names its type for the create-time check.
 */

export interface TypedField extends GoField {
  type: string;
}

const asJson = (v: GoStruct | GoNamed) => goJson(v);

export const PROPERTY_TYPE: GoType = {
  name: "api.PropertyType",
  string: (v) => {
    const list = (v as GoNamed).value as string[];
    return list.length === 0 ? "" : list.length === 1 ? (list[0] as string) : formatValue(list);
  },
  marshal: (v) => {
    const list = (v as GoNamed).value as string[];
    return list.length === 1 ? list[0] : list;
  },
};

export const ARGUMENTS: GoType = { name: "api.ToolCallFunctionArguments", string: asJson };

const f = (name: string, json: string, type: string, omitEmpty = false): TypedField => ({
  name,
  json,
  type,
  omitEmpty,
});

export const TOOL_PROPERTY: GoType & { fields: TypedField[] } = {
  name: "api.ToolProperty",
  fields: [
    f("Type", "type", "api.PropertyType", true),
    f("Items", "items", "any", true),
    f("Description", "description", "string", true),
    f("Enum", "enum", "[]any", true),
    f("AnyOf", "anyOf", "[]api.ToolProperty", true),
  ],
};

export const TOOL_PARAMETERS: GoType & { fields: TypedField[] } = {
  name: "api.ToolFunctionParameters",
  string: asJson,
  fields: [
    f("Type", "type", "string"),
    f("Defs", "$defs", "any", true),
    f("Items", "items", "any", true),
    f("Required", "required", "[]string", true),
    f("Properties", "properties", "map[string]api.ToolProperty"),
  ],
};

export const TOOL_FUNCTION: GoType & { fields: TypedField[] } = {
  name: "api.ToolFunction",
  string: asJson,
  fields: [
    f("Name", "name", "string"),
    f("Description", "description", "string", true),
    f("Parameters", "parameters", "api.ToolFunctionParameters"),
  ],
};

export const TOOL: GoType & { fields: TypedField[] } = {
  name: "api.Tool",
  string: asJson,
  fields: [
    f("Type", "type", "string"),
    f("Items", "items", "any", true),
    f("Function", "function", "api.ToolFunction"),
  ],
};

export const TOOL_CALL_FUNCTION: GoType & { fields: TypedField[] } = {
  name: "api.ToolCallFunction",
  fields: [
    f("Index", "index", "int", true),
    f("Name", "name", "string"),
    f("Arguments", "arguments", "api.ToolCallFunctionArguments"),
  ],
};

export const TOOL_CALL: GoType & { fields: TypedField[] } = {
  name: "api.ToolCall",
  fields: [f("ID", "id", "string", true), f("Function", "function", "api.ToolCallFunction")],
};

export const MESSAGE: GoType & { fields: TypedField[] } = {
  name: "api.Message",
  pointer: true,
  fields: [
    f("Role", "role", "string"),
    f("Content", "content", "string"),
    f("Thinking", "thinking", "string", true),
    f("Images", "images", "[]api.ImageData", true),
    f("ToolCalls", "tool_calls", "[]api.ToolCall", true),
    f("ToolName", "tool_name", "string", true),
    f("ToolCallID", "tool_call_id", "string", true),
  ],
};

/** Struct types by name, for the create-time check of field names. */
export const STRUCT_TYPES: ReadonlyMap<string, GoType & { fields: TypedField[] }> = new Map(
  [TOOL_PROPERTY, TOOL_PARAMETERS, TOOL_FUNCTION, TOOL, TOOL_CALL_FUNCTION, TOOL_CALL, MESSAGE].map(
    (t) => [t.name, t],
  ),
);

function record(v: unknown): Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v)
    ? (v as Record<string, unknown>)
    : {};
}

function str(v: unknown): string {
  return typeof v === "string" ? v : "";
}

function toolProperty(v: unknown): GoStruct {
  const p = record(v);
  const type =
    typeof p.type === "string" ? [p.type] : Array.isArray(p.type) ? p.type.map(String) : [];
  return new GoStruct(TOOL_PROPERTY, {
    Type: new GoNamed(PROPERTY_TYPE, type),
    Items: p.items === undefined ? null : fromJson(p.items),
    Description: str(p.description),
    Enum: Array.isArray(p.enum) ? fromJson(p.enum) : NIL_SLICE,
    AnyOf: Array.isArray(p.anyOf) ? p.anyOf.map(toolProperty) : NIL_SLICE,
  });
}

/** A request's tool as Ollama's `api.Tool`. */
export function goTool(t: ToolDefinition): GoStruct {
  const fn = record(t.function);
  const params = record(fn.parameters);
  const props: Record<string, GoStruct> = {};
  for (const [k, v] of Object.entries(record(params.properties))) props[k] = toolProperty(v);
  const parameters = new GoStruct(TOOL_PARAMETERS, {
    Type: str(params.type),
    Defs: params.$defs === undefined ? null : fromJson(params.$defs),
    Items: params.items === undefined ? null : fromJson(params.items),
    Required: Array.isArray(params.required) ? params.required.map(String) : NIL_SLICE,
    Properties: params.properties === undefined ? null : props,
  });
  return new GoStruct(TOOL, {
    Type: str(t.type),
    Items: null,
    Function: new GoStruct(TOOL_FUNCTION, {
      Name: str(fn.name),
      Description: str(fn.description),
      Parameters: parameters,
    }),
  });
}

/** A message as Ollama's `*api.Message`, with its tool calls. */
export function goMessage(
  m: TemplateMessage & { thinking?: string; images?: unknown[] },
): GoStruct {
  const calls = (m.tool_calls ?? []).map((c, index) => {
    const fn = record(c.function);
    let args = fn.arguments;
    if (typeof args === "string") {
      try {
        args = JSON.parse(args);
      } catch {
        // left as the text it is
      }
    }
    const call = new GoStruct(TOOL_CALL_FUNCTION, {
      Index: typeof fn.index === "number" ? fn.index : index,
      Name: str(fn.name),
      // No arguments is a nil map: it prints `null`, as in Ollama.
      Arguments: new GoNamed(
        ARGUMENTS,
        args === undefined || args === null ? null : fromJson(args),
      ),
    });
    return new GoStruct(TOOL_CALL, { ID: str(record(c).id), Function: call });
  });
  return new GoStruct(MESSAGE, {
    Role: m.role,
    Content: m.content,
    Thinking: m.thinking ?? "",
    Images: m.images?.length ? m.images.map(() => new Uint8Array()) : NIL_SLICE,
    ToolCalls: calls.length > 0 ? calls : NIL_SLICE,
    ToolName: m.tool_name ?? "",
    ToolCallID: "",
  });
}

const TS_TYPES: Record<string, string> = {
  string: "string",
  number: "number",
  integer: "number",
  boolean: "boolean",
  array: "any[]",
  object: "Record<string, any>",
  null: "null",
};

/** Ollama's `toTypeScriptType`: a tool property's JSON-schema type as a TypeScript type. */
export function toTypeScriptType(v: unknown): string {
  if (!(v instanceof GoStruct) || v.type !== TOOL_PROPERTY) return "any";
  const anyOf = v.fields.AnyOf as unknown[];
  if (anyOf.length > 0) return anyOf.map(toTypeScriptType).join(" | ");
  const types = (v.fields.Type as GoNamed).value as string[];
  if (types.length === 0) return "any";
  return types.map((t) => TS_TYPES[t] ?? "any").join(" | ");
}
