import { parseArgs } from "node:util";
import { clientFor } from "../api-client.js";
import { type Command, EXIT, reportFailure, tryParse } from "../io.js";

/** The parts of `/api/show` the CLI prints. */
interface ShowResponse {
  license: string;
  modelfile: string;
  parameters: string;
  template: string;
  system: string;
  capabilities: string[];
  information: {
    architecture: string;
    parameters: string;
    context_length: number | null;
    embedding_length: number | null;
    quantization: string;
    requires: string;
    default_parameters: Record<string, unknown>;
  };
}

const USAGE = "Usage: llmsrv show MODEL [--license|--modelfile|--parameters|--system|--template]";

function section(title: string, rows: Array<[string, string]>): string {
  const body = rows.map(([k, v]) => `    ${k.padEnd(20)}${v}`).join("\n");
  return `  ${title}\n${body}\n\n`;
}

function summary(s: ShowResponse): string {
  const i = s.information;
  let out = section("Model", [
    ["architecture", i.architecture],
    ["parameters", i.parameters],
    ["context length", String(i.context_length ?? "")],
    ["embedding length", String(i.embedding_length ?? "")],
    ["quantization", i.quantization],
    ["requires", i.requires],
  ]);
  out += `  Capabilities\n${s.capabilities.map((c) => `    ${c}`).join("\n")}\n\n`;
  out += section(
    "Default parameters",
    Object.entries(i.default_parameters).map(([k, v]) => [k, String(v)]),
  );
  if (s.parameters)
    out += `  Parameters\n${s.parameters
      .split("\n")
      .map((l) => `    ${l}`)
      .join("\n")}\n\n`;
  if (s.system) out += `  System\n    ${s.system}\n\n`;
  if (s.license) out += `  License\n    ${s.license.split("\n")[0]}\n\n`;
  return out;
}

/** `llmsrv show MODEL`: model facts, or one part with a flag. */
export const showCommand: Command = {
  name: "show",
  summary: "Show information for a model",
  async run(argv, io) {
    const flags = {
      license: { type: "boolean" },
      modelfile: { type: "boolean" },
      parameters: { type: "boolean" },
      system: { type: "boolean" },
      template: { type: "boolean" },
    } as const;
    const parsed = tryParse(io, USAGE, () =>
      parseArgs({ args: argv, allowPositionals: true, options: flags }),
    );
    const model = parsed?.positionals[0];
    if (!parsed || !model) {
      if (parsed) io.stderr.write(`${USAGE}\n`);
      return EXIT.usage;
    }
    return reportFailure(io, async () => {
      const s = await clientFor(io.env).json<ShowResponse>("POST", "/api/show", { model });
      const v = parsed.values;
      const part = v.license
        ? s.license
        : v.modelfile
          ? s.modelfile
          : v.parameters
            ? s.parameters
            : v.system
              ? s.system
              : v.template
                ? s.template
                : undefined;
      io.stdout.write(part === undefined ? summary(s) : `${part}\n`);
      return EXIT.ok;
    });
  },
};
