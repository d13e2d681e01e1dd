// Every route of the server, in one table.
import type { Route } from "./router.js";
import { headBlobHandler, postBlobHandler } from "./routes/blobs.js";
import { chatHandler } from "./routes/chat.js";
import { createHandler } from "./routes/create.js";
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
import { openaiChatHandler } from "./routes/openai-chat.js";
import { openaiCompletionsHandler } from "./routes/openai-completions.js";
import { openaiEmbeddingsHandler } from "./routes/openai-embeddings.js";
import { openaiModelHandler, openaiModelsHandler } from "./routes/openai-models.js";
import { pullHandler, pushHandler } from "./routes/registry.js";

/** Every route of the server, in one table. */
export const ROUTES: readonly Route[] = [
  { method: "GET", path: "/", handler: rootHandler, public: true },
  { method: "GET", path: "/api/version", handler: versionHandler, public: true },
  { method: "GET", path: "/api/tags", handler: tagsHandler },
  { method: "GET", path: "/api/ps", handler: psHandler },
  { method: "POST", path: "/api/show", handler: showHandler },
  { method: "POST", path: "/api/copy", handler: copyHandler },
  { method: "DELETE", path: "/api/delete", handler: deleteHandler },
  { method: "POST", path: "/api/create", handler: createHandler },
  { method: "HEAD", path: "/api/blobs/:digest", handler: headBlobHandler },
  { method: "POST", path: "/api/blobs/:digest", handler: postBlobHandler },
  { method: "POST", path: "/api/pull", handler: pullHandler },
  { method: "POST", path: "/api/push", handler: pushHandler },
  { method: "POST", path: "/api/generate", handler: generateHandler },
  { method: "POST", path: "/api/chat", handler: chatHandler },
  { method: "POST", path: "/api/embed", handler: embedHandler },
  { method: "POST", path: "/api/embeddings", handler: embeddingsHandler },
  { method: "POST", path: "/v1/embeddings", handler: openaiEmbeddingsHandler, openai: true },
  { method: "POST", path: "/v1/chat/completions", handler: openaiChatHandler, openai: true },
  { method: "POST", path: "/v1/completions", handler: openaiCompletionsHandler, openai: true },
  { method: "GET", path: "/v1/models", handler: openaiModelsHandler, openai: true },
  { method: "GET", path: "/v1/models/:model", handler: openaiModelHandler, openai: true },
];
