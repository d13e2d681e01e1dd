/**
 * Sending rendered pages. Pages are never cached: they may show a signed-in user's notes.
 */
import type { FastifyReply } from "fastify";
import type { SafeHtml } from "../views/html.js";

/** Sends `page` as HTML with `status`. */
export function sendPage(reply: FastifyReply, status: number, page: SafeHtml): FastifyReply {
  return reply
    .code(status)
    .header("content-type", "text/html; charset=utf-8")
    .header("cache-control", "no-store")
    .send(page.value);
}
