/**
 * `rego eval [flags] <query>`: loads policies and data, evaluates a query and prints the
 * results as `opa eval` does. Exit 0 ok; 1 when --fail/--fail-defined trips; 2 on any error.
 */
import { readFileSync } from "node:fs";
import { parseGoDuration } from "@quintet/gostd/time";
import { buildEngine } from "../../loader/build-engine.js";
import { parseDataText } from "../../loader/data-document.js";
import { loadSchemas } from "../../loader/schemas.js";
import type { Value } from "../../value/value.js";
import type { Command, PolicyIo } from "../cli-io.js";
import { describeFailure, failureJson, isExpectedFailure } from "../error-report.js";
import { EVAL_FORMATS, type EvalFormat, formatEvalResults } from "../eval-output.js";
import { parseFlags, UsageError } from "../parse-flags.js";
import { formatPartial } from "../partial-output.js";
import { EvalInsight, INSIGHT_OPTIONS, INSIGHT_USAGE } from "./eval-insight.js";

const USAGE = `Usage: rego eval [flags] <query>

Flags:
  -d, --data <path>            policy or data file or directory (repeatable)
  -i, --input <file>           input document (JSON or YAML)
  -I, --stdin-input            read the input document from stdin
      --stdin                  read the query from stdin
  -f, --format <fmt>           json (default), values, bindings, pretty or raw (source with --partial)
      --fail                   exit 1 when the result is undefined or empty
      --fail-defined           exit 1 when the result is defined
      --timeout <duration>     bound evaluation time (Go duration, e.g. 5s)
      --ignore <pattern>       skip files and directories with a matching name (repeatable)
      --v0-compatible          parse policies as Rego v0
      --strict-builtin-errors  builtin errors halt evaluation
  -s, --schema <file|dir>      JSON Schema of input (a file) or schemas for METADATA annotations
  -p, --partial                partial evaluation: print residual queries and support modules
  -u, --unknowns <ref>         with --partial: a ref treated as unknown (repeatable; default input)
      --disable-inlining <ref> with --partial: never inline the rules under this ref (repeatable)
      --nondeterminstic-builtins  with --partial: evaluate time.now_ns & co. (OPA's spelling)
${INSIGHT_USAGE}`;

const OPTIONS = {
  data: { type: "string", short: "d", multiple: true },
  input: { type: "string", short: "i" },
  "stdin-input": { type: "boolean", short: "I" },
  stdin: { type: "boolean" },
  format: { type: "string", short: "f", default: "json" },
  fail: { type: "boolean" },
  "fail-defined": { type: "boolean" },
  timeout: { type: "string" },
  ignore: { type: "string", multiple: true },
  "v0-compatible": { type: "boolean" },
  "strict-builtin-errors": { type: "boolean" },
  schema: { type: "string", short: "s" },
  partial: { type: "boolean", short: "p" },
  unknowns: { type: "string", short: "u", multiple: true },
  "disable-inlining": { type: "string", multiple: true },
  "nondeterminstic-builtins": { type: "boolean" },
  ...INSIGHT_OPTIONS,
} as const;

interface EvalRequest {
  query: string;
  input: Value | undefined;
  format: EvalFormat;
  timeoutMs: number | undefined;
  /** Explain, profile, metrics, coverage: undefined when none was asked for. */
  insight?: EvalInsight;
}

function parseEvalArgs(argv: string[]) {
  return parseFlags(argv, OPTIONS);
}

type EvalFlags = ReturnType<typeof parseEvalArgs>["values"];

async function readRequest(
  values: EvalFlags,
  positionals: string[],
  io: PolicyIo,
): Promise<EvalRequest> {
  const format = values.format as EvalFormat;
  if (values.format === "source" && !values.partial)
    throw new UsageError("the source format is only valid with --partial");
  if (!EVAL_FORMATS.includes(format) && !(values.partial && values.format === "source"))
    throw new UsageError(`unknown format "${values.format}" (expected ${EVAL_FORMATS.join(", ")})`);
  if (values.fail && values["fail-defined"])
    throw new UsageError("specify --fail or --fail-defined, not both");
  if (values.input && values["stdin-input"])
    throw new UsageError("specify --input or --stdin-input, not both");
  const query = values.stdin ? (await io.readStdin()).trim() : positionals.join(" ");
  if (query === "" || (values.stdin && positionals.length > 0))
    throw new UsageError("specify exactly one query argument (or --stdin)");
  let input: Value | undefined;
  if (values.input) input = parseDataText(values.input, readFileSync(values.input, "utf8"));
  else if (values["stdin-input"]) input = parseDataText("stdin.json", await io.readStdin());
  let timeoutMs: number | undefined;
  if (values.timeout) {
    try {
      timeoutMs = Number(parseGoDuration(values.timeout) / 1_000_000n);
    } catch (e) {
      throw new UsageError(`--timeout: ${(e as Error).message}`);
    }
  }
  checkPartialFlags(values, format);
  const insight = EvalInsight.fromFlags(values, values["v0-compatible"] ?? false);
  return { query, input, format, timeoutMs, insight };
}

/** Partial evaluation prints json, pretty or source only, as `opa eval -p`. */
function checkPartialFlags(values: EvalFlags, format: EvalFormat): void {
  if (!values.partial) {
    if (values.unknowns || values["disable-inlining"])
      throw new UsageError("--unknowns and --disable-inlining need --partial");
    return;
  }
  if (format !== "json" && format !== "pretty" && format !== ("source" as EvalFormat))
    throw new UsageError(`--partial prints json, pretty or source only (not ${format})`);
}

async function runEval(argv: string[], io: PolicyIo): Promise<number> {
  let parsed: ReturnType<typeof parseEvalArgs>;
  let request: EvalRequest;
  try {
    parsed = parseEvalArgs(argv);
    request = await readRequest(parsed.values, parsed.positionals, io);
  } catch (e) {
    if (!(e instanceof UsageError)) {
      io.stderr.write(describeFailure(e));
      return 2;
    }
    io.stderr.write(`error: ${e.message}\n\n${USAGE}`);
    return 2;
  }
  const { values } = parsed;
  try {
    const insight = request.insight;
    const engine = insight
      ? insight.build(values.data ?? [], values.ignore)
      : buildEngine(values.data ?? [], {
          v0Compatible: values["v0-compatible"],
          ignore: values.ignore,
          compileChecks:
            values.schema === undefined ? undefined : { schemas: loadSchemas(values.schema) },
        }).engine;
    const options = {
      input: request.input,
      strictBuiltinErrors: values["strict-builtin-errors"],
      timeoutMs: request.timeoutMs,
      print: (message: string) => io.stderr.write(`${message}\n`),
    };
    if (values.partial) {
      const result = engine.partial(request.query, {
        ...options,
        unknowns: values.unknowns ?? ["input"],
        disableInlining: values["disable-inlining"],
        nondeterministicBuiltins: values["nondeterminstic-builtins"],
      });
      io.stdout.write(formatPartial(result, request.format));
      const defined = result.queries.length > 0;
      return (values.fail && !defined) || (values["fail-defined"] && defined) ? 1 : 0;
    }
    const results = insight
      ? await insight.query(engine, request.query, options)
      : await engine.queryAsync(request.query, options);
    io.stdout.write(
      insight
        ? insight.render(results, request.format)
        : formatEvalResults(results, request.format),
    );
    const defined = results.length > 0;
    if ((values.fail && !defined) || (values["fail-defined"] && defined)) return 1;
    return 0;
  } catch (e) {
    if (!isExpectedFailure(e)) throw e;
    // As OPA: the trace up to the error, then the error.
    if (request.format === "pretty" && request.insight)
      io.stdout.write(request.insight.traceText());
    if (request.format === "json") io.stdout.write(failureJson(e));
    else io.stderr.write(describeFailure(e));
    return 2;
  }
}

export const evalCommand: Command = {
  name: "eval",
  summary: "Evaluate a Rego query",
  usage: USAGE,
  run: runEval,
};
