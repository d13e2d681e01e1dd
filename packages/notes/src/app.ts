/**
 * Builds the Fastify application: security headers, session, cross-site check and gate run as
 * onRequest hooks in that order, then the routes of the spec's endpoint table; every error is
 * rendered by `http/error-response.ts`.
 */
import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from "fastify";
import type { Accounts } from "./auth/accounts.js";
import { gateHook } from "./auth/gate.js";
import type { SessionCodec } from "./auth/session.js";
import { NotesError } from "./errors.js";
import {
  type ConnectionLimits,
  enforceConnectionLimits,
  serverTimeoutOptions,
} from "./http/connection-limits.js";
import { contentEncodingHook } from "./http/content-encoding.js";
import { crossSiteHook } from "./http/cross-site.js";
import { createErrorHandler } from "./http/error-response.js";
import { registerFormParser } from "./http/form-parser.js";
import { registerMetrics } from "./http/metrics.js";
import { type SessionVersions, sessionHook } from "./http/request-session.js";
import { securityHeadersHook } from "./http/security-headers.js";
import { registerStaticAssets } from "./http/static-assets.js";
import type { DraftStore } from "./notes/draft-store.js";
import type { NoteRepo } from "./notes/note-repo.js";
import { registerLoginRoutes } from "./routes/login-routes.js";
import { registerSecureRoutes } from "./routes/secure-routes.js";
import { registerSignupRoutes } from "./routes/signup-routes.js";
import { registerWelcomeRoutes } from "./routes/welcome-routes.js";

/**
 * Largest request body accepted. The largest form is a note of 10 000 UTF-16 code units: at
 * worst 10 000 characters of U+0800-U+FFFF (CJK), 3 UTF-8 bytes each, 9 bytes percent-encoded,
 * so 90 000 bytes plus `body=` (a surrogate pair is 2 units for 12 bytes; a line break 1 unit
 * for `%0D%0A`, 6 bytes). 96 KiB fits that with room to spare.
 */
export const BODY_LIMIT_BYTES = 96 * 1024;

/**
 * Trusts only the peer we talk to (hop 0, the proxy), so the client address is the
 * X-Forwarded-For entry the proxy appended. Fastify's `true` would trust every hop and take the
 * left-most entry, which the client writes; its hop count (a number) trusts no peer at all.
 */
function trustOneHop(_address: string, hop: number): boolean {
  return hop === 0;
}

/** What the application is built from. */
export interface AppOptions {
  readonly accounts: Accounts;
  readonly notes: NoteRepo;
  readonly sessions: SessionCodec;
  /** Notes sent after the session ended, kept for their writer's next login. */
  readonly drafts: DraftStore;
  /** Per-user session versions (logout ends a user's sessions server-side). */
  readonly sessionVersions: SessionVersions;
  /** One trusted reverse proxy in front: read X-Forwarded-For/-Proto/-Host as it set them. */
  readonly trustProxy?: boolean;
  /** How long a throttled (429) answer is held back, in ms; 0 answers at once. */
  readonly throttleDelayMs?: number;
  /** Time-outs and the per-address connection cap; without them Fastify's defaults (tests). */
  readonly connectionLimits?: ConnectionLimits;
  /** A pino logger; without one the app logs nothing (tests). */
  readonly loggerInstance?: FastifyServerOptions["loggerInstance"];
}

/** Creates the application, ready to `listen` or `inject`. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: options.loggerInstance,
    // Per-request lines would dominate the logs and the cost of a request; we log events.
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: options.trustProxy ? trustOneHop : false,
    bodyLimit: BODY_LIMIT_BYTES,
    ...(options.connectionLimits && serverTimeoutOptions(options.connectionLimits)),
  });
  if (options.connectionLimits) {
    enforceConnectionLimits(
      app.server,
      options.connectionLimits,
      app.log,
      options.throttleDelayMs ?? 0,
    );
  }
  app.decorateRequest("session", undefined);
  app.decorateRequest("endedSessionUser", undefined);
  app.addHook("onRequest", securityHeadersHook);
  registerMetrics(app);
  app.addHook("onRequest", sessionHook(options.sessions, options.sessionVersions));
  app.addHook("onRequest", crossSiteHook);
  app.addHook("onRequest", gateHook);
  app.addHook("onRequest", contentEncodingHook);
  app.setErrorHandler(createErrorHandler(options.throttleDelayMs ?? 0));
  app.setNotFoundHandler(async () => {
    throw new NotesError("not_found", "Page not found !!!");
  });

  registerFormParser(app);
  await registerStaticAssets(app);
  const deps = {
    accounts: options.accounts,
    notes: options.notes,
    sessions: options.sessions,
    drafts: options.drafts,
    sessionVersions: options.sessionVersions,
  };
  registerWelcomeRoutes(app, deps);
  registerSignupRoutes(app, deps);
  registerLoginRoutes(app, deps);
  registerSecureRoutes(app, deps);
  return app;
}
