/**
 * The gate of the spec: a request whose session lacks `logged_user_id` is redirected to
 * `/login` unless its path is on the open list. The list is exact: nothing else under
 * `/static/` is open, and paths are compared without their query string but otherwise as sent.
 * One exception: `POST /notes` from a browser whose session has just ended goes on to its
 * route, which keeps the typed note before sending the browser to /login.
 */
import type { FastifyReply, FastifyRequest } from "fastify";

/** Paths anonymous visitors may request. */
export const OPEN_PATHS: ReadonlySet<string> = new Set([
  "/",
  "/static/bootstrap.min.css",
  "/signup",
  "/login",
]);

/** The path of a request URL, without query string or fragment. */
export function pathOf(url: string): string {
  const end = url.search(/[?#]/);
  return end < 0 ? url : url.slice(0, end);
}

/** True when `path` may be requested without a session. */
export function isOpenPath(path: string): boolean {
  return OPEN_PATHS.has(path);
}

/**
 * onRequest hook: redirects anonymous requests for closed paths to /login. 302 makes the
 * browser follow with GET, which renders the login form.
 */
export async function gateHook(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (request.session || isOpenPath(pathOf(request.url))) return;
  if (request.endedSessionUser && request.method === "POST" && pathOf(request.url) === "/notes") {
    return;
  }
  await reply.header("cache-control", "no-store").redirect("/login", 302);
}
