// `llmsrv --version` / `-v` / `version`: the version lines `ollama -v` prints.
import type { VersionResponse } from "../../api/types.js";
import { API_VERSION } from "../../service/deps.js";
import { clientFor } from "../api-client.js";
import { EXIT, type ModelsCommand } from "../io.js";

const USAGE = "Usage: llmsrv version (or llmsrv --version, llmsrv -v)";

/**
 * Ollama's lines with "llmsrv" for "ollama": the server's version when one answers on
 * LLMSRV_HOST, a warning when none does, and the client's version when the two differ.
 * Always exit 0, as `ollama -v` does: a server that is down is a warning, not a failure.
 */
export async function versionText(env: NodeJS.ProcessEnv): Promise<string> {
  let server = "";
  let out = "";
  try {
    server = (await clientFor(env).json<VersionResponse>("GET", "/api/version")).version ?? "";
  } catch {
    out += "Warning: could not connect to a running llmsrv instance\n";
  }
  if (server) out += `llmsrv version is ${server}\n`;
  if (server !== API_VERSION) out += `Warning: client version is ${API_VERSION}\n`;
  return out;
}

/** `llmsrv version`: the client's and the server's version, on stdout. */
export const versionCommand: ModelsCommand = {
  name: "version",
  summary: "Show version information (also --version, -v)",
  usage: USAGE,
  async run(argv, io) {
    if (argv.length > 0) {
      io.stderr.write(`llmsrv version takes no arguments\n${USAGE}\n`);
      return EXIT.usage;
    }
    io.stdout.write(await versionText(io.env));
    return EXIT.ok;
  },
};
