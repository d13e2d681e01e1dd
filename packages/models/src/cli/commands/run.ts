// `llmsrv run MODEL [PROMPT]`: one answer, or an interactive conversation.
import type { Readable } from "node:stream";
import type { ChatResponse } from "../../api/types.js";
import { AnswerDisplay } from "../answer-display.js";
import { clientFor } from "../api-client.js";
import { EXIT, type ModelsCommand, type ModelsIo, reportFailure, tryParse } from "../io.js";
import { formatField, parseRunFlags, RUN_USAGE } from "../run-flags.js";
import { interactive, type Session } from "../run-session.js";
import { statsText } from "../run-stats.js";
import { wrapLimit } from "../word-wrap.js";
import { runTransfer } from "./transfer.js";

/** The chat request of one turn: the system message first, then the conversation. */
function chatBody(s: Session): Record<string, unknown> {
  const messages = s.system ? [{ role: "system", content: s.system }, ...s.history] : s.history;
  return {
    model: s.model,
    messages,
    format: formatField(s.format),
    keep_alive: s.keepAlive,
    ...(s.think === undefined ? {} : { think: s.think }),
    ...(Object.keys(s.options).length > 0 ? { options: s.options } : {}),
  };
}

/** Sends the conversation, streams the answer (reasoning set apart), returns its text. */
async function chatTurn(s: Session, io: ModelsIo): Promise<string> {
  let answer = "";
  const display = new AnswerDisplay(io.stdout, {
    ...(s.wordWrap && s.wrapWidth !== undefined ? { wrapAt: s.wrapWidth } : {}),
    hideThinking: s.hideThinking,
    plain: io.stdout.isTTY !== true,
  });
  let last: ChatResponse | undefined;
  for await (const chunk of s.client.stream<ChatResponse>("/api/chat", chatBody(s))) {
    display.thinking(chunk.message?.thinking ?? "");
    const text = chunk.message?.content ?? "";
    answer += text;
    display.content(text);
    if (chunk.done) last = chunk;
  }
  display.end();
  io.stdout.write("\n");
  if (s.verbose && last) io.stderr.write(`\n${statsText(last)}\n`);
  return answer;
}

/** As `ollama run` does, a model the server does not have is pulled first. */
async function ensureModel(s: Session, io: ModelsIo, insecure: boolean): Promise<void> {
  try {
    await s.client.request("POST", "/api/show", { model: s.model });
  } catch (e) {
    if (!/^model '.*' not found$/.test((e as Error).message)) throw e;
    await runTransfer(io, "pull", s.model, insecure);
  }
}

/** True when standard input is a terminal (the real process's, or a test's marked one). */
function stdinIsTty(stdin: Readable): boolean {
  return (stdin as Readable & { isTTY?: boolean }).isTTY === true;
}

/** All of standard input, as text. */
async function readAll(stdin: Readable): Promise<string> {
  const parts: Buffer[] = [];
  for await (const chunk of stdin) parts.push(Buffer.from(chunk as Buffer | string));
  return Buffer.concat(parts).toString("utf8");
}

/**
 * `llmsrv run MODEL [PROMPT]`. As `ollama run`: piped (non-terminal) stdin is read whole
 * and put before the prompt words, joined by a space, and the run answers once with no
 * prompts; only a terminal on stdin with no prompt words starts a conversation.
 */
export const runCommand: ModelsCommand = {
  name: "run",
  summary: "Run a model (interactive when no prompt is given)",
  usage: RUN_USAGE,
  async run(argv, io) {
    const flags = tryParse(io, RUN_USAGE, () => parseRunFlags(argv));
    if (!flags) return EXIT.usage;
    const session: Session = {
      client: clientFor(io.env),
      model: flags.model,
      ...(flags.format === undefined ? {} : { format: flags.format }),
      ...(flags.keepAlive === undefined ? {} : { keepAlive: flags.keepAlive }),
      ...(flags.think === undefined ? {} : { think: flags.think }),
      verbose: flags.verbose,
      hideThinking: flags.hideThinking,
      ...spreadWrap(wrapLimit(io.stdout)),
      wordWrap: !flags.noWordWrap,
      options: {},
      history: [],
    };
    return reportFailure(io, async () => {
      const prompts = [...flags.words];
      const piped = !stdinIsTty(io.stdin);
      if (piped) {
        const input = await readAll(io.stdin);
        if (input.length > 0) prompts.unshift(input);
      }
      await ensureModel(session, io, flags.insecure);
      if (prompts.length > 0) {
        session.history.push({ role: "user", content: prompts.join(" ") });
        await chatTurn(session, io);
      } else if (piped) {
        // Nothing to ask: as `ollama run` with empty input, only load the model.
        await session.client.json("POST", "/api/chat", { ...chatBody(session), stream: false });
      } else await interactive(session, io, chatTurn);
      return EXIT.ok;
    });
  },
};

function spreadWrap(wrapWidth: number | undefined): { wrapWidth?: number } {
  return wrapWidth === undefined ? {} : { wrapWidth };
}
