/** `rego version`: version lines in `opa version`'s layout. */
import { packageVersion } from "../../version.js";
import type { Command, PolicyIo } from "../cli-io.js";

async function runVersion(_argv: string[], io: PolicyIo): Promise<number> {
  io.stdout.write(
    [
      `Version: ${packageVersion()}`,
      "Build Commit: unknown",
      "Build Timestamp: unknown",
      "Build Hostname: unknown",
      `Node Version: ${process.version}`,
      `Platform: ${process.platform}/${process.arch}`,
      "Rego Version: v1",
      "WebAssembly: unavailable",
      "",
    ].join("\n"),
  );
  return 0;
}

export const versionCommand: Command = {
  name: "version",
  summary: "Print the version",
  usage: "Usage: rego version\n",
  run: runVersion,
};
