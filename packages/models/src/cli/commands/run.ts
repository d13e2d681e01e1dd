import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { type ApiClient, clientFor } from "../api-client.js";
import { type CliIo, type Command, EXIT, reportFailure, tryParse } from "../io.js";

const USAGE = "Usage: llmsrv run MODEL [PROMPT] [--format json] [--keepalive 5m] [--verbose]";

interface ChatChunk {
  message?: { content?: string };
  done?: boolean;
  eval_count?: number;
  eval_duration?: number;
  prompt_eval_count?: number;
  total_duration?: number;
}

interface Turn {
  client: ApiClient;
  model: string;
  format?: string;
  keepAlive?: string;
  verbose: boolean;
}

/** Sends the conversation, streams the answer to stdout, returns the answer's text. */
async function chatTurn(
  t: Turn,
  messages: Array<{ role: string; content: string }>,
  io: CliIo,
): Promise<string> {
  let answer = "";
  const body = { model: t.model, messages, format: t.format, keep_alive: t.keepAlive };
  for await (const chunk of t.client.stream<ChatChunk>("/api/chat", body)) {
    const text = chunk.message?.content ?? "";
    answer += text;
    io.stdout.write(text);
    if (chunk.done && t.verbose) {
      const rate = chunk.eval_duration ? ((chunk.eval_count ?? 0) / chunk.eval_duration) * 1e9 : 0;
      io.stderr.write(
        `\ntotal duration: ${((chunk.total_duration ?? 0) / 1e6).toFixed(1)}ms\neval count: ${chunk.eval_count}\neval rate: ${rate.toFixed(2)} tokens/s\n`,
      );
    }
  }
  io.stdout.write("\n");
  return answer;
}

async function interactive(t: Turn, io: CliIo): Promise<void> {
  const rl = createInterface({ input: io.stdin, terminal: false });
  const history: Array<{ role: string; content: string }> = [];
  io.stderr.write(">>> ");
  for await (const line of rl) {
    const text = line.trim();
    if (text === "/bye") break;
    if (text === "/clear") history.length = 0;
    else if (text !== "") {
      history.push({ role: "user", content: text });
      history.push({ role: "assistant", content: await chatTurn(t, history, io) });
    }
    io.stderr.write(">>> ");
  }
  rl.close();
}

/** `llmsrv run MODEL [PROMPT]`: one answer, or a conversation read from stdin. */
export const runCommand: Command = {
  name: "run",
  summary: "Run a model (interactive when no prompt is given)",
  async run(argv, io) {
    const options = {
      format: { type: "string" },
      keepalive: { type: "string" },
      verbose: { type: "boolean" },
    } as const;
    const parsed = tryParse(io, USAGE, () =>
      parseArgs({ args: argv, allowPositionals: true, options }),
    );
    const [model, ...words] = parsed?.positionals ?? [];
    if (!parsed || !model) {
      if (parsed) io.stderr.write(`${USAGE}\n`);
      return EXIT.usage;
    }
    const turn: Turn = {
      client: clientFor(io.env),
      model,
      format: parsed.values.format,
      keepAlive: parsed.values.keepalive,
      verbose: parsed.values.verbose ?? false,
    };
    return reportFailure(io, async () => {
      if (words.length > 0) await chatTurn(turn, [{ role: "user", content: words.join(" ") }], io);
      else await interactive(turn, io);
      return EXIT.ok;
    });
  },
};
