/**
 * A signal that aborts when the client goes away before its response is written (closed the
 * tab, or a flood that gives up on its requests), so costly work queued for the request, a
 * password hash waiting for a thread, is dropped instead of done for nobody.
 */
import type { FastifyReply } from "fastify";

/** Aborts when the connection closes before `reply` has been sent. */
export function abandonSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once("close", () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
}
