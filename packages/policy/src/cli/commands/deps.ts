/**
 * `rego deps <query> [-d path...]`: the base and virtual documents a query depends on, as
 * `opa deps` prints them: a table (BASE DOCUMENTS / VIRTUAL DOCUMENTS) or, with
 * `--format json`, `{"base": [ref...], "virtual": [ref...]}` with refs as OPA's AST terms.
 * The query is parsed, not compiled (as OPA does); the policies are compiled. Errors: exit 1.
 */
import type { Term } from "../../ast/nodes.js";
import { OpaAstEncoder, stringifyAst } from "../../ast/opa-json.js";
import { Compiler } from "../../compile/compiler.js";
import {
  type Dependencies,
  queryDependencies,
  type Ref,
} from "../../dependencies/query-dependencies.js";
import { loadPaths } from "../../loader/load-paths.js";
import { parseModule, parseQuery } from "../../syntax/module-parser.js";
import type { Command, PolicyIo } from "../cli-io.js";
import { describeFailure } from "../error-report.js";
import { parseFlags, parseOrReportUsage, requirePrettyOrJson, UsageError } from "../parse-flags.js";

const USAGE = `Usage: rego deps [flags] <query>

Prints the base documents (data and input) and virtual documents (rules) the query
depends on.

Flags:
  -d, --data <path>    policy or data file or directory (repeatable)
  -f, --format <fmt>   pretty (default) or json
      --ignore <pattern>  skip files and directories with a matching name (repeatable)
      --v0-compatible  parse policies as Rego v0
      --v1-compatible  parse policies as Rego v1 (the default)
`;

const OPTIONS = {
  data: { type: "string", short: "d", multiple: true, default: [] as string[] },
  format: { type: "string", short: "f", default: "pretty" },
  ignore: { type: "string", multiple: true },
  "v0-compatible": { type: "boolean" },
  "v1-compatible": { type: "boolean" },
} as const;

function parse(argv: string[]) {
  const parsed = parseFlags(argv, OPTIONS);
  if (parsed.positionals.length !== 1) throw new UsageError("specify exactly one query argument");
  requirePrettyOrJson(parsed.values.format);
  return { values: parsed.values, query: parsed.positionals[0] as string };
}

const varLike = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A ref as OPA prints it: `data.a.b`, `input["x y"]`, `data.a[0]`. */
export function refText(ref: Ref): string {
  return ref
    .map((t, i) => {
      if (i === 0) return t.type === "var" ? t.name : termText(t);
      if (t.type === "scalar" && typeof t.value === "string")
        return varLike.test(t.value) ? `.${t.value}` : `[${JSON.stringify(t.value)}]`;
      return `[${termText(t)}]`;
    })
    .join("");
}

function termText(t: Term): string {
  switch (t.type) {
    case "scalar":
      return typeof t.value === "string" ? JSON.stringify(t.value) : String(t.value);
    case "var":
      return t.name;
    case "ref":
      return refText([t.head, ...t.path]);
    case "array":
      return `[${t.items.map(termText).join(", ")}]`;
    case "set":
      return t.items.length === 0 ? "set()" : `{${t.items.map(termText).join(", ")}}`;
    case "object":
      return `{${t.entries.map(([k, v]) => `${termText(k)}: ${termText(v)}`).join(", ")}}`;
    default:
      return t.type;
  }
}

/** OPA's table: upper-case centred headers, cells padded, `+---+` borders. */
export function depsTable(deps: Dependencies): string {
  const columns: [string, string[]][] = [];
  if (deps.base.length > 0) columns.push(["Base Documents", deps.base.map(refText)]);
  if (deps.virtual.length > 0) columns.push(["Virtual Documents", deps.virtual.map(refText)]);
  if (columns.length === 0) return "";
  const widths = columns.map(([h, cells]) => Math.max(h.length, ...cells.map((c) => c.length)));
  const border = `+${widths.map((w) => "-".repeat(w + 2)).join("+")}+\n`;
  const header = columns.map(([h], i) => {
    const pad = (widths[i] as number) - h.length;
    const left = Math.floor(pad / 2);
    return ` ${" ".repeat(left)}${h.toUpperCase()}${" ".repeat(pad - left)} `;
  });
  const rows = Math.max(...columns.map(([, cells]) => cells.length));
  const lines = [border, `|${header.join("|")}|\n`, border];
  for (let r = 0; r < rows; r++) {
    const cells = columns.map(([, c], i) => ` ${(c[r] ?? "").padEnd(widths[i] as number)} `);
    lines.push(`|${cells.join("|")}|\n`);
  }
  lines.push(border);
  return lines.join("");
}

function depsJson(deps: Dependencies): string {
  const enc = new OpaAstEncoder("", { locations: false, comments: false });
  const refs = (list: Ref[]) => list.map((r) => r.map((t) => enc.term(t)));
  const out: Record<string, ReturnType<typeof refs>> = {};
  if (deps.base.length > 0) out.base = refs(deps.base);
  if (deps.virtual.length > 0) out.virtual = refs(deps.virtual);
  return `${stringifyAst(out)}\n`;
}

async function runDeps(argv: string[], io: PolicyIo): Promise<number> {
  const parsed = parseOrReportUsage(() => parse(argv), USAGE, io);
  if (!parsed) return 2;
  const { values, query } = parsed;
  try {
    const body = parseQuery(query);
    const files = loadPaths(values.data, { ignore: values.ignore });
    const v0 = values["v0-compatible"] ?? false;
    const modules = files.modules.map((m) => parseModule(m.file, m.source, v0));
    const policy = new Compiler().compile(modules);
    const deps = queryDependencies(policy, body);
    io.stdout.write(values.format === "json" ? depsJson(deps) : depsTable(deps));
    return 0;
  } catch (e) {
    io.stderr.write(describeFailure(e));
    return 1;
  }
}

export const depsCommand: Command = {
  name: "deps",
  summary: "Analyze the dependencies of a query",
  usage: USAGE,
  run: runDeps,
};
