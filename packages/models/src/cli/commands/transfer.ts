// `llmsrv pull` and `llmsrv push`: stream a registry transfer as progress bars.
import { parseArgs } from "node:util";
import type { TransferProgress } from "../../api/types.js";
import { clientFor } from "../api-client.js";
import { EXIT, type ModelsCommand, type ModelsIo, reportFailure, tryParse } from "../io.js";
import { ProgressBars } from "../progress-bars.js";

/** Progress goes to stderr, as Ollama's CLI draws it, redrawn in place on a terminal. */
function isTty(io: ModelsIo): boolean {
  return io.stderr.isTTY === true;
}

/** Streams `/api/pull` or `/api/push`, drawing the progress; throws the stream's error. */
export async function runTransfer(
  io: ModelsIo,
  kind: "pull" | "push",
  model: string,
  insecure: boolean,
): Promise<void> {
  const bars = new ProgressBars(io.stderr, isTty(io));
  const body = { model, insecure, stream: true };
  for await (const line of clientFor(io.env).stream<TransferProgress>(`/api/${kind}`, body)) {
    bars.update(line);
  }
}

/** Shared body of `pull` and `push`: stream the route's progress as bars. */
function transferCommand(name: "pull" | "push", summary: string): ModelsCommand {
  const usage = `Usage: llmsrv ${name} MODEL [--insecure]`;
  return {
    name,
    summary,
    async run(argv, io) {
      const parsed = tryParse(io, usage, () =>
        parseArgs({
          args: [...argv],
          allowPositionals: true,
          options: { insecure: { type: "boolean" } },
        }),
      );
      const model = parsed?.positionals[0];
      if (!parsed || !model || parsed.positionals.length > 1) {
        if (parsed) io.stderr.write(`${usage}\n`);
        return EXIT.usage;
      }
      return reportFailure(io, async () => {
        await runTransfer(io, name, model, parsed.values.insecure ?? false);
        return EXIT.ok;
      });
    },
  };
}

/** `llmsrv pull MODEL [--insecure]`. */
export const pullCommand = transferCommand("pull", "Pull a model from a registry");

/** `llmsrv push MODEL [--insecure]`. */
export const pushCommand = transferCommand("push", "Push a model to a registry");
