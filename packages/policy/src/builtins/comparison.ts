/**
 * Comparison operators and the internal builtins the language itself needs (`print`,
 * `trace`, `rego.*`, `opa.runtime`). `print` and `rego.metadata.*` are evaluated by the
 * evaluator, which knows about undefined operands and the current rule; their entries here
 * give the type checker their signatures.
 */
import { moduleToValue } from "../ast/json.js";
import { BuiltinError, BuiltinTypeError } from "../errors.js";
import { parseModule } from "../syntax/module-parser.js";
import { compare, equal, RegoObject, type Value } from "../value/value.js";
import { asObject, asString } from "./args.js";
import type { BuiltinDef } from "./registry-types.js";

function comparison(name: string, test: (c: number) => boolean): BuiltinDef {
  return {
    name,
    args: ["any", "any"],
    result: "boolean",
    impl: ([a, b]) => test(compare(a as Value, b as Value)),
  };
}

const httpRequestKeys = new Set([
  "method",
  "url",
  "body",
  "raw_body",
  "headers",
  "enable_redirect",
  "force_json_decode",
  "force_yaml_decode",
  "tls_use_system_certs",
  "tls_ca_cert",
  "tls_ca_cert_file",
  "tls_ca_cert_env_variable",
  "tls_client_cert",
  "tls_client_cert_file",
  "tls_client_cert_env_variable",
  "tls_client_key",
  "tls_client_key_file",
  "tls_client_key_env_variable",
  "tls_insecure_skip_verify",
  "tls_server_name",
  "timeout",
  "cache",
  "force_cache",
  "force_cache_duration_seconds",
  "raise_error",
  "caching_mode",
  "max_retry_attempts",
  "cache_ignored_headers",
]);

/** `http.send` request validation, with OPA's messages; the call itself is never made. */
function checkHttpRequest(req: RegoObject): void {
  const bad = [...req.keys()].filter((k) => typeof k !== "string" || !httpRequestKeys.has(k));
  if (bad.length > 0) {
    const list = bad.map((k) => JSON.stringify(k)).join(", ");
    throw new BuiltinTypeError(`http.send: invalid request parameters(s): {${list}}`);
  }
  const missing = ["method", "url"].filter((k) => !req.has(k));
  if (missing.length > 0) {
    const list = missing.map((k) => JSON.stringify(k)).join(", ");
    throw new BuiltinTypeError(`http.send: missing required request parameters(s): {${list}}`);
  }
}

export const comparisonBuiltins: BuiltinDef[] = [
  {
    name: "equal",
    args: ["any", "any"],
    result: "boolean",
    impl: ([a, b]) => equal(a as Value, b as Value),
  },
  {
    name: "neq",
    args: ["any", "any"],
    result: "boolean",
    impl: ([a, b]) => !equal(a as Value, b as Value),
  },
  comparison("lt", (c) => c < 0),
  comparison("lte", (c) => c <= 0),
  comparison("gt", (c) => c > 0),
  comparison("gte", (c) => c >= 0),
  {
    name: "print",
    args: [],
    result: "boolean",
    impl: () => true,
  },
  {
    name: "internal.print",
    args: ["array"],
    result: "boolean",
    impl: () => true,
  },
  {
    name: "trace",
    args: ["string"],
    result: "boolean",
    impl: ([note], ctx) => {
      const text = asString("trace", note as Value, 1);
      ctx.trace?.(text);
      return true;
    },
  },
  {
    name: "rego.metadata.chain",
    args: [],
    result: "array",
    impl: () => undefined,
  },
  {
    name: "rego.metadata.rule",
    args: [],
    result: "any",
    impl: () => undefined,
  },
  {
    name: "opa.runtime",
    args: [],
    result: "object",
    impl: () => new RegoObject(),
  },
  {
    name: "rego.parse_module",
    args: ["string", "string"],
    result: "object",
    impl: ([file, source]) => {
      const name = asString("rego.parse_module", file as Value, 1);
      const text = asString("rego.parse_module", source as Value, 2);
      try {
        return moduleToValue(parseModule(name, text));
      } catch (e) {
        throw new BuiltinError(`rego.parse_module: ${String(e instanceof Error ? e.message : e)}`);
      }
    },
  },
  {
    name: "http.send",
    args: ["object"],
    result: "object",
    impl: ([req]) => {
      checkHttpRequest(asObject("http.send", req as Value, 1));
      throw new BuiltinError("http.send: outbound HTTP is not available in this engine");
    },
  },
];
