/**
 * The Data API's writes, as OPA answers them: `PUT /v1/data[/<path>]` (creates missing
 * parents; `If-None-Match: *` answers 304 when a document is there), `PATCH` (a JSON Patch
 * array of add/remove/replace, relative to the URL path) and `DELETE`. Success is 204 with
 * no body, or `200 {"metrics": …}` with `?metrics`. Every request's edits are applied to
 * a copy and swapped in at once (see store/policy-store.ts): all of a PATCH or nothing.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { parseJsonValue } from "../loader/data-document.js";
import {
  applyPatch,
  makeDir,
  type PatchOp,
  readPath,
  storagePathText,
} from "../store/document-patch.js";
import { jsonTextDepthExceeds } from "../value/depth.js";
import type { Value } from "../value/value.js";
import { badRequest, inputTooDeep, resourceNotFound } from "./api-error.js";
import { boolParam } from "./query-params.js";
import { readBody } from "./request-body.js";
import { sendJson } from "./respond.js";
import {
  inputDepthLimit,
  type RequestTarget,
  type ServerContext,
  storeOf,
} from "./server-context.js";

/** Percent-decodes each segment of a slash-separated path (inner empty segments kept). */
function decodeSegments(path: string): string[] | undefined {
  const trimmed = path.replace(/^\/+|\/+$/g, "");
  if (trimmed === "") return [];
  try {
    return trimmed.split("/").map((s) => decodeURIComponent(s));
  } catch {
    return undefined;
  }
}

/** The storage path of a write's URL (OPA: 400 `bad path: …` when it cannot be read). */
function writePath(pathname: string): string[] {
  const path = decodeSegments(pathname);
  if (!path) throw badRequest(`bad path: ${pathname.replace(/^\/+/, "")}`);
  return path;
}

/** The JSON document of a write's body; malformed JSON is 400 `invalid_parameter`. */
function parseBodyJson(ctx: ServerContext, text: string): Value {
  const maxDepth = inputDepthLimit(ctx);
  if (jsonTextDepthExceeds(text, maxDepth)) throw inputTooDeep(maxDepth);
  if (/^\s*$/.test(text)) throw badRequest("EOF");
  try {
    return parseJsonValue(text);
  } catch (e) {
    throw badRequest((e as Error).message);
  }
}

/** 204, or the metrics when asked for. */
function done(res: ServerResponse, target: RequestTarget, start: bigint, parseNs: number): void {
  if (boolParam(target.params, "metrics")) {
    const metrics = {
      timer_rego_input_parse_ns: parseNs,
      timer_server_handler_ns: Number(process.hrtime.bigint() - start),
    };
    sendJson(res, 200, { metrics });
    return;
  }
  res.writeHead(204);
  res.end();
}

async function handlePut(
  ctx: ServerContext,
  req: IncomingMessage,
  res: ServerResponse,
  target: RequestTarget,
): Promise<void> {
  const start = process.hrtime.bigint();
  const text = (await readBody(req, ctx.maxBodyBytes)).toString("utf8");
  const value = parseBodyJson(ctx, text);
  const parseNs = Number(process.hrtime.bigint() - start);
  const path = writePath(target.pathname);
  const store = storeOf(ctx);
  store.checkScope(path);
  if (
    req.headers["if-none-match"] === "*" &&
    readPath(store.engine.baseData(), path) !== undefined
  ) {
    res.writeHead(304);
    res.end();
    return;
  }
  store.writeData((data) => {
    const exists = readPath(data, path) !== undefined;
    const ready = exists || path.length === 0 ? data : makeDir(data, path.slice(0, -1));
    return applyPatch(ready, "add", path, value);
  }, path);
  done(res, target, start, parseNs);
}

/** One parsed operation of a PATCH body. */
interface PatchStep {
  op: PatchOp;
  path: string[];
  value: Value;
}

function isPatchOp(op: unknown): op is PatchOp {
  return op === "add" || op === "remove" || op === "replace";
}

/** The operations of a PATCH body, paths joined to the URL path (OPA's errors on bad ones). */
function patchSteps(root: string, body: Value): PatchStep[] {
  if (!Array.isArray(body)) {
    throw badRequest("json: cannot unmarshal non-array into Go value of type []types.PatchV1");
  }
  return body.map((item) => {
    const get = (k: string) => readPath(item, [k]);
    const op = get("op");
    if (!isPatchOp(op))
      throw badRequest(`bad patch operation: ${typeof op === "string" ? op : ""}`);
    const raw = get("path");
    const opPath = typeof raw === "string" ? raw : "";
    const trimmedRoot = root.replace(/^\/+|\/+$/g, "");
    const trimmedOp = opPath.replace(/^\/+|\/+$/g, "");
    const joined = [trimmedRoot, trimmedOp].filter((s) => s !== "").join("/");
    const segments = decodeSegments(joined);
    if (!segments) throw badRequest(`bad patch path: ${opPath}`);
    const path = segments.map((s) => s.replaceAll("~1", "/").replaceAll("~0", "~"));
    return { op, path, value: get("value") ?? null };
  });
}

async function handlePatch(
  ctx: ServerContext,
  req: IncomingMessage,
  res: ServerResponse,
  target: RequestTarget,
): Promise<void> {
  const start = process.hrtime.bigint();
  const text = (await readBody(req, ctx.maxBodyBytes)).toString("utf8");
  const steps = patchSteps(target.pathname, parseBodyJson(ctx, text));
  const parseNs = Number(process.hrtime.bigint() - start);
  const touched = commonPrefix(steps.map((s) => s.path));
  for (const s of steps) storeOf(ctx).checkScope(s.path);
  storeOf(ctx).writeData((data) => {
    let out = data;
    for (const s of steps) out = applyPatch(out, s.op, s.path, s.value);
    return out;
  }, touched);
  done(res, target, start, parseNs);
}

/** The longest path every one of `paths` starts with. */
function commonPrefix(paths: readonly string[][]): string[] {
  if (paths.length === 0) return [];
  const first = paths[0] as string[];
  let n = first.length;
  for (const p of paths) {
    let i = 0;
    while (i < n && i < p.length && p[i] === first[i]) i++;
    n = i;
  }
  return first.slice(0, n);
}

async function handleDelete(
  ctx: ServerContext,
  req: IncomingMessage,
  res: ServerResponse,
  target: RequestTarget,
): Promise<void> {
  const start = process.hrtime.bigint();
  req.resume();
  const path = writePath(target.pathname);
  storeOf(ctx).checkScope(path);
  storeOf(ctx).writeData((data) => {
    if (readPath(data, path) === undefined) {
      throw resourceNotFound(
        `storage_not_found_error: ${storagePathText(path)}: document does not exist`,
      );
    }
    return applyPatch(data, "remove", path);
  }, path);
  done(res, target, start, 0);
}

/** Serves PUT, PATCH and DELETE on /v1/data and below. */
export function handleDataWrite(
  ctx: ServerContext,
  req: IncomingMessage,
  res: ServerResponse,
  target: RequestTarget,
): Promise<void> {
  if (req.method === "PUT") return handlePut(ctx, req, res, target);
  if (req.method === "PATCH") return handlePatch(ctx, req, res, target);
  return handleDelete(ctx, req, res, target);
}
