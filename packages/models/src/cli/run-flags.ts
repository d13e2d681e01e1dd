// The flags of `llmsrv run`, parsed and checked as `ollama run` reads them.
import { parseArgs } from "node:util";
import { parseGoDuration } from "../duration.js";

/** What `--think` sends as the chat request's `think`: a switch or a level. */
export type ThinkFlag = boolean | "high" | "medium" | "low" | "max";

/** The checked flags and positionals of one `llmsrv run`. */
export interface RunFlags {
  model: string;
  /** The prompt words (joined with spaces, as Ollama joins them). */
  words: string[];
  format?: string;
  keepAlive?: string;
  verbose: boolean;
  insecure: boolean;
  noWordWrap: boolean;
  hideThinking: boolean;
  /** Absent unless `--think` was given: the server then decides from the model. */
  think?: ThinkFlag;
}

export const RUN_USAGE =
  "Usage: llmsrv run MODEL [PROMPT] [--format json] [--keepalive 5m] [--verbose] [--insecure]\n" +
  "                  [--nowordwrap] [--think[=true|false|high|medium|low|max]] [--hidethinking]";

const THINK_VALUES: Readonly<Record<string, ThinkFlag>> = {
  "": true,
  true: true,
  false: false,
  high: "high",
  medium: "medium",
  low: "low",
  max: "max",
};

/**
 * `--think` takes an optional value (pflag's NoOptDefVal "true"): `--think` alone, or
 * `--think=VALUE`. A bare `--think` must not swallow the next word as its value, so the
 * forms are rewritten to a string flag before parseArgs sees them.
 */
function splitThink(argv: readonly string[]): { args: string[]; think?: string } {
  let think: string | undefined;
  const args: string[] = [];
  for (const [i, a] of argv.entries()) {
    if (a === "--") {
      args.push(...argv.slice(i));
      break;
    }
    if (a === "--think") think = "";
    else if (a.startsWith("--think=")) think = a.slice("--think=".length);
    else args.push(a);
  }
  return { args, ...(think === undefined ? {} : { think }) };
}

/**
 * Parses `run`'s argv; throws on an unknown flag or a bad value (parseArgs' or ours), the
 * message naming the flag; the command prints it with the usage and exits 2.
 */
export function parseRunFlags(argv: readonly string[]): RunFlags {
  const { args, think } = splitThink(argv);
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      format: { type: "string" },
      keepalive: { type: "string" },
      verbose: { type: "boolean" },
      insecure: { type: "boolean" },
      nowordwrap: { type: "boolean" },
      hidethinking: { type: "boolean" },
    },
  });
  const [model, ...words] = positionals;
  if (!model) throw new Error("llmsrv run needs a MODEL");
  const thinkValue =
    think !== undefined && Object.hasOwn(THINK_VALUES, think) ? THINK_VALUES[think] : undefined;
  if (think !== undefined && thinkValue === undefined) {
    throw new Error(
      `invalid value for --think: "${think}" (must be true, false, high, medium, low, or max)`,
    );
  }
  if (values.keepalive !== undefined && parseGoDuration(values.keepalive) === undefined) {
    throw new Error(
      `invalid value for --keepalive: "${values.keepalive}" (a duration such as 5m, 1h30m or 0)`,
    );
  }
  if (values.format !== undefined && !isFormat(values.format)) {
    throw new Error(
      `invalid value for --format: "${values.format}" (must be json or a JSON schema object)`,
    );
  }
  return {
    model,
    words,
    ...(values.format === undefined ? {} : { format: values.format }),
    ...(values.keepalive === undefined ? {} : { keepAlive: values.keepalive }),
    verbose: values.verbose ?? false,
    insecure: values.insecure ?? false,
    noWordWrap: values.nowordwrap ?? false,
    hideThinking: values.hidethinking ?? false,
    ...(thinkValue === undefined ? {} : { think: thinkValue }),
  };
}

/** `json`, or a JSON schema object (what the server's `format` accepts). */
function isFormat(text: string): boolean {
  if (text === "json") return true;
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed);
  } catch {
    return false;
  }
}

/** The request's `format`: the string "json", or the schema object. */
export function formatField(format: string | undefined): unknown {
  return format === undefined || format === "json" ? format : JSON.parse(format);
}
