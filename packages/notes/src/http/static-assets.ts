/**
 * Static files under `/static/`: Bootstrap's stylesheet straight from the `bootstrap` npm
 * package (no CDN), and the app's own stylesheet and images from `packages/notes/static/`.
 */
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import { rejectOtherMethods } from "./method-guard.js";

/** Folder of the app's own static files (this file lives in dist/src/http/). */
export const OWN_STATIC_DIR = fileURLToPath(new URL("../../../static/", import.meta.url));

/** Folder holding `bootstrap.min.css` inside the installed `bootstrap` package. */
export function bootstrapCssDir(): string {
  const require = createRequire(import.meta.url);
  return dirname(require.resolve("bootstrap/dist/css/bootstrap.min.css"));
}

/** Registers `/static/bootstrap.min.css` and `/static/*`. */
export async function registerStaticAssets(app: FastifyInstance): Promise<void> {
  const bootstrapDir = bootstrapCssDir();
  await app.register(fastifyStatic, {
    root: OWN_STATIC_DIR,
    prefix: "/static/",
    index: false,
    list: false,
    dotfiles: "deny",
  });
  app.get("/static/bootstrap.min.css", (_request, reply) =>
    reply.sendFile("bootstrap.min.css", bootstrapDir),
  );
  rejectOtherMethods(app, "/static/bootstrap.min.css", ["GET"]);
  rejectOtherMethods(app, "/static/*", ["GET"]);
}
