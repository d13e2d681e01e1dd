import type { Route } from "./router.js";
import { embeddingsHandler, embedHandler } from "./routes/embed.js";
import { generateHandler } from "./routes/generate.js";
import {
  copyHandler,
  deleteHandler,
  psHandler,
  rootHandler,
  showHandler,
  tagsHandler,
  versionHandler,
} from "./routes/models.js";
import { openaiEmbeddingsHandler } from "./routes/openai-embeddings.js";

/** Every route of the server, in one table. */
export const ROUTES: readonly Route[] = [
  { method: "GET", path: "/", handler: rootHandler, public: true },
  { method: "GET", path: "/api/version", handler: versionHandler, public: true },
  { method: "GET", path: "/api/tags", handler: tagsHandler },
  { method: "GET", path: "/api/ps", handler: psHandler },
  { method: "POST", path: "/api/show", handler: showHandler },
  { method: "POST", path: "/api/copy", handler: copyHandler },
  { method: "DELETE", path: "/api/delete", handler: deleteHandler },
  { method: "POST", path: "/api/generate", handler: generateHandler },
  { method: "POST", path: "/api/embed", handler: embedHandler },
  { method: "POST", path: "/api/embeddings", handler: embeddingsHandler },
  { method: "POST", path: "/v1/embeddings", handler: openaiEmbeddingsHandler, openai: true },
];
