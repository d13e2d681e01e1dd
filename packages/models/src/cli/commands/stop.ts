// `llmsrv stop MODEL`: unloads a loaded model.
import { parseArgs } from "node:util";
import type { PsResponse, ShowResponse } from "../../api/types.js";
import { LlmsrvError } from "../../errors.js";
import { clientFor } from "../api-client.js";
import { EXIT, type ModelsCommand, reportFailure, tryParse } from "../io.js";

/** `llmsrv stop MODEL`: unloads a loaded model (an empty request with keep_alive 0). */
export const stopCommand: ModelsCommand = {
  name: "stop",
  summary: "Unload a running model",
  async run(argv, io) {
    const parsed = tryParse(io, "Usage: llmsrv stop MODEL", () =>
      parseArgs({ args: [...argv], allowPositionals: true }),
    );
    const model = parsed?.positionals[0];
    if (!model) {
      io.stderr.write("Usage: llmsrv stop MODEL\n");
      return EXIT.usage;
    }
    return reportFailure(io, async () => {
      const client = clientFor(io.env);
      const show = await client
        .json<ShowResponse>("POST", "/api/show", { model })
        .catch(() => undefined);
      const ps = await client.json<PsResponse>("GET", "/api/ps");
      const full = model.includes(":") ? model : `${model}:latest`;
      if (!show || !ps.models.some((m) => m.name === full)) {
        throw new LlmsrvError("model_not_found", `couldn't find model "${model}" to stop`);
      }
      await client.json("POST", "/api/generate", { model, keep_alive: 0 });
      return EXIT.ok;
    });
  },
};
