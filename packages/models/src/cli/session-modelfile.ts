// The Modelfile of an interactive `run` session: the model's, with `/set system` and `/set parameter`.

/** What a session overrides: its system message and its parameters. */
export interface SessionOverrides {
  system?: string;
  options: Readonly<Record<string, unknown>>;
}

/** One instruction of a Modelfile text: its keyword (lower case, "" for comments) and lines. */
interface Block {
  keyword: string;
  /** PARAMETER's name, lower case. */
  parameter?: string;
  lines: string[];
}

/**
 * Splits Modelfile text into instructions; a `"""` value that does not close on its own
 * line runs to the line that closes it (so a template's lines are never read as commands).
 */
function blocks(text: string): Block[] {
  const lines = text.replace(/\n$/, "").split("\n");
  const out: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const m = /^\s*([A-Za-z]+)(?:\s+(\S+))?/.exec(line);
    const keyword = m && !line.trimStart().startsWith("#") ? (m[1] as string).toLowerCase() : "";
    const block: Block = { keyword, lines: [line] };
    if (keyword === "parameter" && m?.[2]) block.parameter = m[2].toLowerCase();
    if (keyword && line.split('"""').length === 2) {
      while (i + 1 < lines.length) {
        const next = lines[++i] as string;
        block.lines.push(next);
        if (next.includes('"""')) break;
      }
    }
    out.push(block);
  }
  return out;
}

/** A PARAMETER value as the server renders it: strings quoted, numbers and booleans bare. */
function quote(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(value) : String(value);
}

function parameterLines(options: Readonly<Record<string, unknown>>): string[] {
  return Object.entries(options).flatMap(([key, value]) =>
    (Array.isArray(value) ? value : [value]).map((v) => `PARAMETER ${key} ${quote(v)}`),
  );
}

/**
 * The model's Modelfile (as `/api/show` renders it) with the session's values in place,
 * as Ollama renders it for `/show modelfile`: SYSTEM replaced by the session's system
 * message, each PARAMETER the session sets replacing the model's lines of that name.
 * A new SYSTEM goes after FROM/TEMPLATE, new PARAMETERs after the model's last one.
 */
export function sessionModelfile(modelfile: string, s: SessionOverrides): string {
  const kept = blocks(modelfile).filter(
    (b) =>
      !(b.keyword === "system" && s.system !== undefined) &&
      !(b.parameter !== undefined && b.parameter in s.options),
  );
  const lastIndex = (keywords: string[]) =>
    kept.reduce((at, b, i) => (keywords.includes(b.keyword) ? i : at), -1);
  const params = parameterLines(s.options);
  if (params.length > 0) {
    const after = lastIndex(["from", "template", "system", "parameter"]);
    kept.splice(after + 1, 0, { keyword: "parameter", lines: params });
  }
  if (s.system !== undefined) {
    const after = lastIndex(["from", "template"]);
    kept.splice(after + 1, 0, { keyword: "system", lines: [`SYSTEM """${s.system}"""`] });
  }
  return `${kept.flatMap((b) => b.lines).join("\n")}\n`;
}
