// `POST /api/pull` and `/api/push`: registry transfers streamed as progress lines.
import type { TransferProgress } from "../../api/types.js";
import { pullModel } from "../../registry/model-pull.js";
import { pushModel } from "../../registry/model-push.js";
import type { RegistrySettings } from "../../registry/registry-client.js";
import { requireModelName } from "../../store/model-name.js";
import { NdjsonWriter } from "../ndjson.js";
import { optionalBool } from "../request-body.js";
import type { RequestContext } from "../router.js";

type Transfer = (report: (p: TransferProgress) => void) => Promise<void>;

/**
 * Runs a pull or push: streamed as NDJSON progress lines (an error becomes the last line),
 * or with `stream: false` one `{"status":"success"}` or an error status.
 */
async function respond(ctx: RequestContext, stream: boolean, transfer: Transfer): Promise<void> {
  if (!stream) {
    await transfer(() => {});
    return ctx.json(200, { status: "success" });
  }
  const out = new NdjsonWriter(ctx.res);
  try {
    await transfer((p) => out.write(p));
  } catch (e) {
    out.writeError(e);
  }
  out.end();
}

function settingsFor(ctx: RequestContext, insecure: boolean): RegistrySettings {
  const { registryUrl, registryToken } = ctx.deps.config;
  const { pullRetryDelayMs } = ctx.deps;
  return {
    mirror: registryUrl,
    token: registryToken,
    insecure,
    ...(pullRetryDelayMs !== undefined && { retryDelayMs: pullRetryDelayMs }),
    onRetry: (message) => ctx.deps.log.info(message),
  };
}

/** `POST /api/pull`: `{model, insecure, stream}`; progress as Ollama streams it. */
export async function pullHandler(ctx: RequestContext): Promise<void> {
  const body = await ctx.body();
  const name = requireModelName(body.model ?? body.name);
  const settings = settingsFor(ctx, optionalBool(body, "insecure") ?? false);
  const stream = optionalBool(body, "stream") ?? true;
  await respond(ctx, stream, (report) =>
    pullModel(ctx.deps.store, name, settings, report, ctx.signal),
  );
  ctx.deps.log.info({ model: String(body.model ?? body.name) }, "model pulled");
}

/** `POST /api/push`: `{model, insecure, stream}`; uploads what the registry lacks. */
export async function pushHandler(ctx: RequestContext): Promise<void> {
  const body = await ctx.body();
  const text = body.model ?? body.name;
  requireModelName(text); // A missing or malformed name is Ollama's 400 before any lookup.
  const settings = settingsFor(ctx, optionalBool(body, "insecure") ?? false);
  const stream = optionalBool(body, "stream") ?? true;
  const model = await ctx.deps.store.get(String(text));
  await respond(ctx, stream, (report) =>
    pushModel(ctx.deps.store, model, model.name, settings, report),
  );
}
