/**
 * Builds the real application for HTTP tests (through `loadConfig`, like `notes serve`), with a
 * fixed secret, a low bcrypt cost to keep tests quick, and helpers for forms and cookies.
 */
import { after, before } from "node:test";
import type { SqlClient } from "@quintet/kit";
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from "fastify";
import { loadConfig } from "../../src/config.js";
import { buildAppFromConfig } from "../../src/server.js";
import type { OpenedStorage, StorageTarget } from "./storage-targets.js";

/** The session secret of test apps. */
export const TEST_SECRET = "test-secret-0123456789abcdef";

/** Builds an app on `db`; `env` overrides configuration variables. */
export async function createTestApp(
  db: SqlClient,
  env: Record<string, string> = {},
): Promise<FastifyInstance> {
  // Throttled answers are not held back in tests, unless a test asks (NOTES_THROTTLE_DELAY_MS).
  const config = loadConfig({
    SESSION_SECRET: TEST_SECRET,
    NOTES_BCRYPT_COST: "4",
    NOTES_THROTTLE_DELAY_MS: "0",
    ...env,
  });
  const app = await buildAppFromConfig(config, db);
  await app.ready();
  return app;
}

/** The database and app of one suite, filled in by its `before` hook. */
export interface SuiteApp {
  storage: OpenedStorage;
  app: FastifyInstance;
}

/**
 * Registers `before`/`after` hooks on the current suite that open a fresh database on `target`
 * and build an app on it, then close both. Read the fields inside tests and later hooks.
 */
export function useTestApp(target: StorageTarget, env: Record<string, string> = {}): SuiteApp {
  const suite = {} as SuiteApp;
  before(async () => {
    suite.storage = await target.open();
    suite.app = await createTestApp(suite.storage.db, env);
  });
  after(async () => {
    await suite.app?.close();
    await suite.storage?.dispose();
  });
  return suite;
}

/** Encodes form fields as application/x-www-form-urlencoded. */
export function formBody(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}

/** Options of `postForm`. */
export interface PostFormOptions {
  readonly cookie?: string;
  readonly headers?: Record<string, string>;
  readonly remoteAddress?: string;
}

/** POSTs a urlencoded form the way a browser's plain form post does. */
export function postForm(
  app: FastifyInstance,
  url: string,
  fields: Record<string, string>,
  options: PostFormOptions = {},
): Promise<LightMyRequestResponse> {
  const request: InjectOptions = {
    method: "POST",
    url,
    payload: formBody(fields),
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      ...(options.cookie ? { cookie: options.cookie } : {}),
      ...options.headers,
    },
    remoteAddress: options.remoteAddress,
  };
  return app.inject(request);
}

/** The `name=value` pair of the session cookie set by a response, or undefined. */
export function sessionCookieOf(response: LightMyRequestResponse): string | undefined {
  const header = response.headers["set-cookie"];
  const all = Array.isArray(header) ? header : header ? [header] : [];
  const cookie = all.find((c) => c.startsWith("notes_session="));
  return cookie?.split(";")[0];
}

/** Signs up `email` with `password`; throws unless the welcome page came back. */
export async function signUp(app: FastifyInstance, email: string, password: string): Promise<void> {
  const response = await postForm(app, "/signup", {
    email,
    password1: password,
    password2: password,
  });
  if (response.statusCode !== 200) {
    throw new Error(`sign-up of ${email} failed: ${response.statusCode} ${response.body}`);
  }
}

/** Logs in and returns the session cookie pair; throws unless the 307 came back. */
export async function logIn(
  app: FastifyInstance,
  email: string,
  password: string,
): Promise<string> {
  const response = await postForm(app, "/login", { email, password });
  const cookie = sessionCookieOf(response);
  if (response.statusCode !== 307 || !cookie) {
    throw new Error(`login of ${email} failed: ${response.statusCode} ${response.body}`);
  }
  return cookie;
}

/** The text of the error page's message element, or undefined. */
export function errorMessageOf(body: string): string | undefined {
  return /<div class="alert alert-danger" role="alert" id="error-message">([^<]*)<\/div>/.exec(
    body,
  )?.[1];
}

/** The href of the error page's Back link, or undefined. */
export function backHrefOf(body: string): string | undefined {
  return /<a class="btn btn-secondary" href="([^"]*)" id="back-link">Back<\/a>/.exec(body)?.[1];
}
