// `llmsrv run MODEL [PROMPT]`: one answer, or an interactive conversation.
import { parseArgs } from "node:util";
import type { ChatResponse } from "../../api/types.js";
import { clientFor } from "../api-client.js";
import { EXIT, type ModelsCommand, type ModelsIo, reportFailure, tryParse } from "../io.js";
import { interactive, type Session } from "../run-session.js";
import { statsText } from "../run-stats.js";
import { runTransfer } from "./transfer.js";

const USAGE = "Usage: llmsrv run MODEL [PROMPT] [--format json] [--keepalive 5m] [--verbose]";

/** Sends the conversation (system message first), streams the answer, returns its text. */
async function chatTurn(s: Session, io: ModelsIo): Promise<string> {
  let answer = "";
  const messages = s.system ? [{ role: "system", content: s.system }, ...s.history] : s.history;
  const body = {
    model: s.model,
    messages,
    format: s.format,
    keep_alive: s.keepAlive,
    ...(Object.keys(s.options).length > 0 ? { options: s.options } : {}),
  };
  let last: ChatResponse | undefined;
  for await (const chunk of s.client.stream<ChatResponse>("/api/chat", body)) {
    const text = chunk.message?.content ?? "";
    answer += text;
    io.stdout.write(text);
    if (chunk.done) last = chunk;
  }
  io.stdout.write("\n");
  if (s.verbose && last) io.stderr.write(`\n${statsText(last)}\n`);
  return answer;
}

/** As `ollama run` does, a model the server does not have is pulled first. */
async function ensureModel(s: Session, io: ModelsIo): Promise<void> {
  try {
    await s.client.request("POST", "/api/show", { model: s.model });
  } catch (e) {
    if (!/^model '.*' not found$/.test((e as Error).message)) throw e;
    await runTransfer(io, "pull", s.model, false);
  }
}

/** `llmsrv run MODEL [PROMPT]`: one answer, or a conversation read from stdin. */
export const runCommand: ModelsCommand = {
  name: "run",
  summary: "Run a model (interactive when no prompt is given)",
  async run(argv, io) {
    const options = {
      format: { type: "string" },
      keepalive: { type: "string" },
      verbose: { type: "boolean" },
    } as const;
    const parsed = tryParse(io, USAGE, () =>
      parseArgs({ args: [...argv], allowPositionals: true, options }),
    );
    const [model, ...words] = parsed?.positionals ?? [];
    if (!parsed || !model) {
      if (parsed) io.stderr.write(`${USAGE}\n`);
      return EXIT.usage;
    }
    const session: Session = {
      client: clientFor(io.env),
      model,
      format: parsed.values.format,
      keepAlive: parsed.values.keepalive,
      verbose: parsed.values.verbose ?? false,
      options: {},
      history: [],
    };
    return reportFailure(io, async () => {
      await ensureModel(session, io);
      if (words.length > 0) {
        session.history.push({ role: "user", content: words.join(" ") });
        await chatTurn(session, io);
      } else await interactive(session, io, chatTurn);
      return EXIT.ok;
    });
  },
};
