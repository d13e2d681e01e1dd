import { checkChatTemplate, checkGoTemplate } from "../prompt/template-check.js";
import { normalizeDigest } from "../store/blob-store.js";
import type { Handler, RequestContext } from "./router.js";

/** The chat template of the GGUF blob a create request names in `files`, if it has one. */
async function uploadedChatTemplate(
  ctx: RequestContext,
  files: unknown,
): Promise<string | undefined> {
  if (typeof files !== "object" || files === null) return undefined;
  const digests = Object.values(files);
  if (digests.length !== 1 || typeof digests[0] !== "string") return undefined;
  try {
    const digest = normalizeDigest(digests[0]);
    if (!(await ctx.deps.store.blobs.has(digest))) return undefined;
    return ctx.deps.store.factsFor(digest).chatTemplate;
  } catch {
    return undefined; // the create handler reports what is wrong with the files
  }
}

/**
 * Wraps `POST /api/create`: the request's TEMPLATE and the uploaded GGUF's chat template
 * must render a sample conversation within the template limits (400 otherwise), so that a
 * looping template is refused before it is stored rather than failing on every use.
 */
export function checkingTemplates(create: Handler): Handler {
  return async (ctx) => {
    const body = await ctx.body();
    if (typeof body.template === "string") checkGoTemplate(body.template);
    const chatTemplate = await uploadedChatTemplate(ctx, body.files);
    if (chatTemplate !== undefined) checkChatTemplate(chatTemplate);
    await create({ ...ctx, body: async () => body });
  };
}
