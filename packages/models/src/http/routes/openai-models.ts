// `GET /v1/models` and `/v1/models/:model`: the store in OpenAI's shape.
import { LlmsrvError } from "../../errors.js";
import type { StoredModel } from "../../store/stored-model.js";
import type { RequestContext } from "../router.js";

function entry(m: StoredModel) {
  return {
    id: m.display,
    object: "model",
    created: Math.floor(m.modifiedAt.getTime() / 1000),
    owned_by: m.name.namespace,
  };
}

/** `GET /v1/models`. */
export async function openaiModelsHandler(ctx: RequestContext): Promise<void> {
  const models = await ctx.deps.store.list();
  ctx.json(200, { object: "list", data: models.map(entry) });
}

/** `GET /v1/models/:model`; unknown → 404 in OpenAI's shape. */
export async function openaiModelHandler(ctx: RequestContext): Promise<void> {
  const name = ctx.params.model ?? "";
  let model: StoredModel;
  try {
    model = await ctx.deps.store.get(name);
  } catch {
    throw new LlmsrvError("model_not_found", `The model '${name}' does not exist`);
  }
  ctx.json(200, entry(model));
}
