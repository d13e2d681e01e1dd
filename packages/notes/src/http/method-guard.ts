/**
 * 405 Method Not Allowed for the spec's paths: every method Fastify knows that a path does not
 * accept answers 405 with an `Allow` header listing the ones it does.
 */
import type { FastifyInstance } from "fastify";
import { pathOf } from "../auth/gate.js";
import { MethodNotAllowedError } from "../errors.js";

/** The methods a path accepts; GET implies HEAD. */
export function allowedMethods(methods: readonly string[]): string[] {
  const allowed = new Set(methods);
  if (allowed.has("GET")) allowed.add("HEAD");
  return [...allowed].sort();
}

/**
 * Registers a 405 handler on `path` for every supported method outside `methods` and
 * `routedElsewhere` (methods with their own handler that may still refuse, e.g. GET /secure).
 */
export function rejectOtherMethods(
  app: FastifyInstance,
  path: string,
  methods: readonly string[],
  routedElsewhere: readonly string[] = [],
): void {
  const allow = allowedMethods(methods);
  const others = app.supportedMethods.filter(
    (m) => !allow.includes(m) && !routedElsewhere.includes(m),
  );
  app.route({
    method: others,
    url: path,
    handler: async (request) => {
      throw new MethodNotAllowedError(request.method, pathOf(request.url), allow);
    },
  });
}
