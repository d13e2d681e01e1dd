// The interactive loop of `llmsrv run`: reads turns, handles /commands, keeps the history.
import { createInterface } from "node:readline";
import { parseModelfile } from "../modelfile/modelfile.js";
import type { ApiClient } from "./api-client.js";
import { fetchShow, renderShow, type ShowPart } from "./commands/show.js";
import type { ModelsIo } from "./io.js";
import type { ThinkFlag } from "./run-flags.js";
import { sessionModelfile } from "./session-modelfile.js";

/** What one conversation of `llmsrv run` carries from turn to turn. */
export interface Session {
  client: ApiClient;
  model: string;
  format?: string;
  keepAlive?: string;
  /** Sent as the request's `think` when set (`--think`, `/set think`, `/set nothink`). */
  think?: ThinkFlag | string;
  hideThinking: boolean;
  verbose: boolean;
  /** The terminal's wrapping width (none when stdout is not a terminal). */
  wrapWidth?: number;
  /** Off with `--nowordwrap` or `/set nowordwrap`. */
  wordWrap: boolean;
  system?: string;
  options: Record<string, unknown>;
  history: Array<{ role: string; content: string }>;
}

/** Sends the conversation and streams the answer; returns the answer's text. */
export type ChatTurn = (s: Session, io: ModelsIo) => Promise<string>;

const HELP = `Available Commands:
  /set            Set session variables
  /show           Show model information
  /clear          Clear session context
  /bye            Exit
  /?, /help       Help for a command

Use """ to begin a multi-line message.
`;

const SET_HELP = `Available Commands:
  /set parameter ...     Set a parameter
  /set system <string>   Set system message
  /set wordwrap          Enable wordwrap
  /set nowordwrap        Disable wordwrap
  /set format json       Enable JSON mode
  /set noformat          Disable formatting
  /set verbose           Show LLM stats
  /set quiet             Disable LLM stats
  /set think             Enable thinking
  /set nothink           Disable thinking
`;

const SHOW_HELP = `Available Commands:
  /show info         Show details for this model
  /show license      Show model license
  /show modelfile    Show Modelfile for this model
  /show parameters   Show parameters for this model
  /show system       Show system message
  /show template     Show prompt template
`;

/** `/set parameter NAME VALUE`: typed as a Modelfile PARAMETER; `stop` accumulates. */
function setParameter(s: Session, rest: string, io: ModelsIo): void {
  const m = /^(\S+)\s+([\s\S]+)$/.exec(rest.trim());
  if (!m) {
    io.stdout.write("Usage: /set parameter <name> <value>\n");
    return;
  }
  const [name, value] = [(m[1] as string).toLowerCase(), (m[2] as string).trim()];
  try {
    const typed = parseModelfile(`FROM x\nPARAMETER ${name} ${value}`).parameters[name];
    s.options[name] =
      name === "stop"
        ? [...((s.options.stop as string[] | undefined) ?? []), ...(typed as string[])]
        : typed;
    io.stdout.write(`Set parameter '${name}' to '${value}'\n`);
  } catch (e) {
    io.stdout.write(
      `Couldn't set parameter: ${(e as Error).message.replace(/^Modelfile line \d+: /, "")}\n`,
    );
  }
}

/** The `/set` words that switch a mode: each sets the session, returns Ollama's message. */
const MODES: Readonly<Record<string, (s: Session, arg: string) => string>> = {
  wordwrap(s) {
    s.wordWrap = true;
    return "Set 'wordwrap' mode.";
  },
  nowordwrap(s) {
    s.wordWrap = false;
    return "Set 'nowordwrap' mode.";
  },
  verbose(s) {
    s.verbose = true;
    return "Set 'verbose' mode.";
  },
  quiet(s) {
    s.verbose = false;
    return "Set 'quiet' mode.";
  },
  think(s, level) {
    s.think = level || true;
    return level ? `Set 'think' mode to '${level}'.` : "Set 'think' mode.";
  },
  nothink(s) {
    s.think = false;
    return "Set 'nothink' mode.";
  },
  format(s, arg) {
    if (arg !== "json") return "Invalid or missing format. For 'json' mode use '/set format json'";
    s.format = "json";
    return "Set format to 'json' mode.";
  },
  noformat(s) {
    delete s.format;
    return "Disabled format.";
  },
};

function setCommand(s: Session, args: string, io: ModelsIo): void {
  const [what = "", ...rest] = args.split(/\s+/);
  const text = args.slice(what.length).trim();
  const mode = Object.hasOwn(MODES, what) ? MODES[what] : undefined;
  if (what === "parameter") setParameter(s, rest.join(" "), io);
  else if (what === "system") {
    s.system = text
      .replace(/^"""([\s\S]*)"""$/, "$1")
      .replace(/^"([\s\S]*)"$/, "$1")
      .trim();
    io.stdout.write("Set system message.\n");
  } else if (mode) io.stdout.write(`${mode(s, rest[0] ?? "")}\n`);
  else io.stdout.write(SET_HELP);
}

/** `/show parameters`: the model's, then the session's (Ollama's layout). */
function parametersText(modelParameters: string, options: Record<string, unknown>): string {
  const model = modelParameters
    ? modelParameters
        .split("\n")
        .map((l) => `  ${l}\n`)
        .join("")
    : "  No additional parameters were specified for this model.\n";
  let out = `Model defined parameters:\n${model}\n`;
  const rows = Object.entries(options).map(([k, v]) => `  ${k.padEnd(30)} ${goValue(v)}\n`);
  if (rows.length > 0) out += `User defined parameters:\n${rows.join("")}\n`;
  return out;
}

/** A value as Go's `%v` prints it: lists as `[a b]`. */
function goValue(v: unknown): string {
  return Array.isArray(v) ? `[${v.map(String).join(" ")}]` : String(v);
}

/**
 * `/show PART`: what `/api/show` says of the model, with the session's system message and
 * parameters where they apply (Ollama sends them with its show request; this server
 * renders the stored model, so the session's values are put in here).
 */
async function showCommand(s: Session, args: string, io: ModelsIo): Promise<void> {
  const what = args.trim();
  const parts: readonly string[] = ["license", "modelfile", "parameters", "system", "template"];
  if (what !== "info" && !parts.includes(what)) {
    io.stdout.write(what ? `Unknown command '/show ${what}'. Type /? for help\n` : SHOW_HELP);
    return;
  }
  const info = await fetchShow(s.client, s.model);
  const system = s.system ?? info.system;
  if (what === "modelfile") {
    const overrides = { options: s.options, ...(s.system === undefined ? {} : { system }) };
    io.stdout.write(`${sessionModelfile(info.modelfile, overrides)}\n`);
  } else if (what === "parameters") io.stdout.write(parametersText(info.parameters, s.options));
  else if (what === "system")
    io.stdout.write(system ? `${system}\n\n` : "No system message was specified for this model.\n");
  else if (what === "license" && !info.license)
    io.stdout.write("No license was specified for this model.\n");
  else if (what === "template" && !info.template)
    io.stdout.write("No prompt template was specified for this model.\n");
  else io.stdout.write(renderShow(info, what === "info" ? undefined : (what as ShowPart)));
}

/** Handles a `/command` line; returns false for `/bye`. */
async function slashCommand(s: Session, line: string, io: ModelsIo): Promise<boolean> {
  const cmd = line.split(/\s+/)[0] ?? "";
  const args = line.slice(cmd.length).trim(); // newlines kept for a """ value
  if (cmd === "/bye" || cmd === "/exit") return false;
  if (cmd === "/clear") {
    s.history.length = 0;
    io.stdout.write("Cleared session context\n");
  } else if (cmd === "/set") setCommand(s, args, io);
  else if (cmd === "/show") await showCommand(s, args, io);
  else if (cmd === "/?" || cmd === "/help") io.stdout.write(HELP);
  else io.stdout.write(`Unknown command '${cmd}'. Type /? for help\n`);
  return true;
}

/** True when a line opens a `"""` block it does not close. */
function opensBlock(line: string): boolean {
  return line.split('"""').length === 2;
}

/**
 * The interactive conversation: lines from stdin, `/` commands handled here, `"""`
 * opening a message (or a `/set system """...` value) that runs until a line ending with
 * `"""`; everything else is a turn.
 */
export async function interactive(s: Session, io: ModelsIo, turn: ChatTurn): Promise<void> {
  const rl = createInterface({ input: io.stdin, terminal: false });
  let pending: string[] | undefined;
  io.stderr.write(">>> ");
  for await (const raw of rl) {
    let line: string;
    if (pending) {
      pending.push(raw);
      if (!raw.trimEnd().endsWith('"""')) continue;
      line = pending.join("\n").trim();
      pending = undefined;
    } else {
      line = raw.trim();
      if (opensBlock(line)) {
        pending = [line];
        continue;
      }
    }
    let text: string | undefined;
    if (line.startsWith("/")) {
      if (!(await slashCommand(s, line, io))) break;
    } else text = line.replace(/^"""([\s\S]*)"""$/, "$1").trim();
    if (text) {
      s.history.push({ role: "user", content: text });
      s.history.push({ role: "assistant", content: await turn(s, io) });
    }
    io.stderr.write(">>> ");
  }
  rl.close();
}
