// The Modelfile parser: FROM, PARAMETER, TEMPLATE, SYSTEM, MESSAGE, LICENSE, ADAPTER.
import { OPTION_KINDS, type OptionKind } from "../api/options.js";
import { LlmsrvError } from "../errors.js";

/** A parsed Modelfile. */
export interface Modelfile {
  /** The first FROM: the base model (a name or a GGUF path). */
  from: string;
  /**
   * Every FROM in order. A second one names a multimodal projector GGUF to go with the
   * model, as in Ollama (the server tells the files apart by their GGUF architecture).
   */
  froms: string[];
  parameters: Record<string, unknown>;
  template?: string;
  system?: string;
  license: string[];
  messages: Array<{ role: string; content: string }>;
  /** ADAPTER paths (LoRA GGUFs) as written, relative ones to the Modelfile's folder. */
  adapters: string[];
}

const COMMANDS = [
  "from",
  "license",
  "template",
  "system",
  "adapter",
  "parameter",
  "message",
  "requires",
];

/**
 * Option types for PARAMETER values (everything else is rejected): the request options'
 * table less num_gpu, which only a request may set.
 */
const { num_gpu: _requestOnly, ...PARAMETER_TYPES }: Readonly<Record<string, OptionKind>> =
  OPTION_KINDS;

function fail(line: number, message: string): never {
  throw new LlmsrvError("modelfile_invalid", `Modelfile line ${line}: ${message}`);
}

/** Reads a value that may be `"""multi-line"""`, `"quoted"` or bare; returns it and the next line index. */
function readValue(lines: string[], index: number, rest: string): { value: string; next: number } {
  const trimmed = rest.trim();
  if (trimmed.startsWith('"""')) {
    const body = trimmed.slice(3);
    const close = body.indexOf('"""');
    if (close >= 0) return { value: body.slice(0, close), next: index + 1 };
    const parts = [body];
    for (let i = index + 1; i < lines.length; i++) {
      const l = lines[i] as string;
      const end = l.indexOf('"""');
      if (end >= 0) return { value: [...parts, l.slice(0, end)].join("\n"), next: i + 1 };
      parts.push(l);
    }
    fail(index + 1, 'unterminated """ string');
  }
  if (trimmed.startsWith('"') && trimmed.endsWith('"') && trimmed.length >= 2) {
    return { value: JSON.parse(trimmed) as string, next: index + 1 };
  }
  return { value: trimmed, next: index + 1 };
}

function addParameter(params: Record<string, unknown>, line: number, text: string): void {
  const m = /^(\S+)\s+([\s\S]+)$/.exec(text.trim());
  if (!m) fail(line, "PARAMETER needs a name and a value");
  const key = (m[1] as string).toLowerCase();
  const raw = (m[2] as string).trim().replace(/^"([\s\S]*)"$/, "$1");
  const type = PARAMETER_TYPES[key];
  if (!type) fail(line, `unknown parameter "${key}"`);
  if (type === "strings") {
    params[key] = [...((params[key] as string[] | undefined) ?? []), raw];
    return;
  }
  const n = Number(raw);
  if (!Number.isFinite(n) || (type === "int" && !Number.isInteger(n))) {
    fail(
      line,
      `parameter "${key}" must be ${type === "int" ? "an integer" : "a number"}, got "${raw}"`,
    );
  }
  params[key] = n;
}

/**
 * Parses Modelfile text: one `INSTRUCTION args` per line, instructions case-insensitive,
 * `#` comments, values bare, "quoted" or """multi-line""". FROM is required.
 */
export function parseModelfile(text: string): Modelfile {
  const lines = text.split(/\r?\n/);
  const out: Omit<Modelfile, "from"> & { from?: string } = {
    froms: [],
    parameters: {},
    license: [],
    messages: [],
    adapters: [],
  };
  let i = 0;
  while (i < lines.length) {
    const line = (lines[i] as string).trim();
    if (line === "" || line.startsWith("#")) {
      i++;
      continue;
    }
    const m = /^(\S+)\s*([\s\S]*)$/.exec(line);
    const command = (m?.[1] ?? "").toLowerCase();
    if (!COMMANDS.includes(command)) {
      fail(i + 1, `command must be one of ${COMMANDS.map((c) => `"${c}"`).join(", ")}`);
    }
    const { value, next } = readValue(lines, i, m?.[2] ?? "");
    if (command === "from") {
      if (value === "") fail(i + 1, "FROM needs a model name or the path of a GGUF file");
      out.from ??= value;
      out.froms.push(value);
    } else if (command === "parameter") addParameter(out.parameters, i + 1, value);
    else if (command === "template") out.template = value;
    else if (command === "system") out.system = value;
    else if (command === "license") out.license.push(value);
    else if (command === "message") {
      const mm = /^(system|user|assistant)\s+([\s\S]*)$/.exec(value);
      if (!mm) fail(i + 1, "MESSAGE needs a role (system, user, assistant) and text");
      out.messages.push({
        role: mm[1] as string,
        content: (mm[2] as string).replace(/^"([\s\S]*)"$/, "$1"),
      });
    } else if (command === "adapter") {
      if (value === "") fail(i + 1, "ADAPTER needs the path of a LoRA adapter GGUF");
      out.adapters.push(value);
    }
    i = next;
  }
  if (!out.from) throw new LlmsrvError("modelfile_invalid", "no FROM line");
  return out as Modelfile;
}
