// `llmsrv show MODEL`: the model's summary, or one part (license, Modelfile, template...).
import { parseArgs } from "node:util";
import type { ShowResponse } from "../../api/types.js";
import { type ApiClient, clientFor } from "../api-client.js";
import { formatCount } from "../format.js";
import { EXIT, type ModelsCommand, reportFailure, tryParse } from "../io.js";

const USAGE =
  "Usage: llmsrv show MODEL [--license|--modelfile|--parameters|--system|--template] [-v]";

/** The parts `show` (and the interactive `/show`) can print alone. */
export type ShowPart = "license" | "modelfile" | "parameters" | "system" | "template";

/** Fetches `/api/show` (with the full metadata when `verbose`). */
export function fetchShow(
  client: ApiClient,
  model: string,
  verbose = false,
): Promise<ShowResponse> {
  return client.json<ShowResponse>("POST", "/api/show", { model, verbose });
}

/** The whole summary, or one part followed by a newline. */
export function renderShow(s: ShowResponse, part?: ShowPart, verbose = false): string {
  if (part) return `${s[part]}\n`;
  return summary(s) + (verbose ? metadata(s.model_info ?? {}) : "");
}

/** `-v`: every GGUF metadata key, as Ollama's `show -v` lists them. */
function metadata(info: Record<string, unknown>): string {
  const rows = Object.entries(info)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]): [string, string] => [k, typeof v === "string" ? v : JSON.stringify(v)]);
  const body = rows.map(([k, v]) => `    ${k.padEnd(40)}${v}`).join("\n");
  return `  Metadata\n${body}\n\n`;
}

function section(title: string, rows: Array<[string, string]>): string {
  const body = rows.map(([k, v]) => `    ${k.padEnd(20)}${v}`).join("\n");
  return `  ${title}\n${body}\n\n`;
}

/**
 * The Projector section, with the rows `ollama show` prints: architecture, parameters,
 * and the encoder's embedding length and projection dimensions (the vision encoder's, or
 * the audio one's for an audio-only projector); a row the metadata lacks is left out.
 */
function projectorSection(info: Record<string, unknown>): string {
  const arch = String(info["general.architecture"] ?? "");
  const encoder = info[`${arch}.has_vision_encoder`] === true ? "vision" : "audio";
  const rows: Array<[string, string]> = [["architecture", arch]];
  const count = info["general.parameter_count"];
  if (typeof count === "number") rows.push(["parameters", formatCount(count)]);
  for (const [label, key] of [
    ["embedding length", "embedding_length"],
    ["dimensions", "projection_dim"],
  ] as const) {
    const v = info[`${arch}.${encoder}.${key}`];
    if (typeof v === "number") rows.push([label, String(v)]);
  }
  return section("Projector", rows);
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
  if (s.projector_info) out += projectorSection(s.projector_info);
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
export const showCommand: ModelsCommand = {
  name: "show",
  summary: "Show information for a model",
  async run(argv, io) {
    const flags = {
      license: { type: "boolean" },
      modelfile: { type: "boolean" },
      parameters: { type: "boolean" },
      system: { type: "boolean" },
      template: { type: "boolean" },
      verbose: { type: "boolean", short: "v" },
    } as const;
    const parsed = tryParse(io, USAGE, () =>
      parseArgs({ args: [...argv], allowPositionals: true, options: flags }),
    );
    const model = parsed?.positionals[0];
    if (!parsed || !model) {
      if (parsed) io.stderr.write(`${USAGE}\n`);
      return EXIT.usage;
    }
    return reportFailure(io, async () => {
      const v = parsed.values;
      const s = await fetchShow(clientFor(io.env), model, v.verbose ?? false);
      const part = (["license", "modelfile", "parameters", "system", "template"] as const).find(
        (p) => v[p],
      );
      io.stdout.write(renderShow(s, part, v.verbose ?? false));
      return EXIT.ok;
    });
  },
};
