// `HEAD/POST /api/blobs/:digest`: blob existence checks and uploads.
import { LlmsrvError } from "../../errors.js";
import { normalizeDigest } from "../../store/blob-store.js";
import type { RequestContext } from "../router.js";

/** `HEAD /api/blobs/:digest`: 200 when the blob exists, else 404. */
export async function headBlobHandler(ctx: RequestContext): Promise<void> {
  const digest = normalizeDigest(ctx.params.digest ?? "");
  const found = await ctx.deps.store.blobs.has(digest);
  ctx.res.writeHead(found ? 200 : 404).end();
}

/** `POST /api/blobs/:digest`: stores the raw body after checking its SHA-256. 201 new, 200 present. */
export async function postBlobHandler(ctx: RequestContext): Promise<void> {
  const digest = normalizeDigest(ctx.params.digest ?? "");
  let created: boolean;
  try {
    created = await ctx.deps.store.blobs.putStream(digest, ctx.req);
  } catch (e) {
    if (e instanceof LlmsrvError) throw e;
    throw new LlmsrvError("bad_request", `blob upload failed: ${(e as Error).message}`);
  }
  ctx.res.writeHead(created ? 201 : 200).end();
}
