// `llmsrv create NAME -f Modelfile`: uploads local GGUF blobs, then streams the create.
import { createReadStream, existsSync, readFileSync } from "node:fs";
import { basename, dirname, isAbsolute, resolve } from "node:path";
import { Readable } from "node:stream";
import { parseArgs } from "node:util";
import type { TransferProgress } from "../../api/types.js";
import { parseModelfile } from "../../modelfile/modelfile.js";
import { digestOfFile } from "../../store/blob-store.js";
import { type ApiClient, clientFor } from "../api-client.js";
import { EXIT, type ModelsCommand, reportFailure, tryParse } from "../io.js";

const USAGE = "Usage: llmsrv create MODEL [-f Modelfile]";

/** Uploads a local GGUF as a blob unless the server has it; returns its digest. */
async function uploadBlob(client: ApiClient, path: string): Promise<string> {
  const digest = await digestOfFile(path);
  const head = await client.request("HEAD", `/api/blobs/${digest}`);
  if (head.status === 404) {
    const body = Readable.toWeb(createReadStream(path)) as ReadableStream;
    await client.request("POST", `/api/blobs/${digest}`, undefined, body);
  }
  return digest;
}

/**
 * `llmsrv create MODEL -f Modelfile`: parses the Modelfile here, uploads the FROM GGUFs
 * (model and projector) and the ADAPTER files, creates.
 */
export const createCommand: ModelsCommand = {
  name: "create",
  summary: "Create a model from a Modelfile",
  async run(argv, io) {
    const parsed = tryParse(io, USAGE, () =>
      parseArgs({
        args: [...argv],
        allowPositionals: true,
        options: { file: { type: "string", short: "f" } },
      }),
    );
    const model = parsed?.positionals[0];
    if (!parsed || !model) {
      if (parsed) io.stderr.write(`${USAGE}\n`);
      return EXIT.usage;
    }
    return reportFailure(io, async () => {
      const file = resolve(parsed.values.file ?? "Modelfile");
      const mf = parseModelfile(readFileSync(file, "utf8"));
      const client = clientFor(io.env);
      const request: Record<string, unknown> = {
        model,
        parameters: Object.keys(mf.parameters).length > 0 ? mf.parameters : undefined,
        template: mf.template,
        system: mf.system,
        license: mf.license.length > 0 ? mf.license : undefined,
        messages: mf.messages.length > 0 ? mf.messages : undefined,
      };
      // Ollama's client resolves ADAPTER paths as it does FROM: relative to the Modelfile.
      const adapters: Record<string, string> = {};
      for (const adapter of mf.adapters) {
        const path = isAbsolute(adapter) ? adapter : resolve(dirname(file), adapter);
        if (!existsSync(path)) throw new Error(`adapter file ${path} does not exist`);
        io.stderr.write(`uploading ${basename(path)}\n`);
        adapters[adapter] = await uploadBlob(client, path);
      }
      if (mf.adapters.length > 0) request.adapters = adapters;
      // Each FROM is a local GGUF (uploaded; a second one is the model's projector) or a
      // model name, as Ollama's client sends them.
      const files: Record<string, string> = {};
      for (const from of mf.froms) {
        const path = isAbsolute(from) ? from : resolve(dirname(file), from);
        if (!existsSync(path)) {
          if (request.from !== undefined)
            throw new Error(`the Modelfile names more than one model: ${request.from}, ${from}`);
          request.from = from;
          continue;
        }
        io.stderr.write(`uploading ${basename(path)}\n`);
        const key = basename(path) in files ? from : basename(path);
        files[key] = await uploadBlob(client, path);
      }
      if (Object.keys(files).length > 0) request.files = files;
      for await (const p of client.stream<TransferProgress>("/api/create", request))
        io.stderr.write(`${p.status}\n`);
      return EXIT.ok;
    });
  },
};
