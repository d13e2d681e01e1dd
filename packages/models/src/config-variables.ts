// The LLMSRV_* variables with meaning and default: the table `serve --help` and the README print.
import { OLLAMA_COUNTERPARTS } from "./config-env.js";

/** One row of the configuration table printed by `--help` and the README. */
export interface ConfigVariable {
  readonly name: string;
  readonly meaning: string;
  readonly default: string;
  /** Ollama's variable read when this one is unset (`src/config-env.ts`). */
  readonly ollama?: string;
}

const VARIABLES: readonly ConfigVariable[] = [
  {
    name: "LLMSRV_HOST",
    meaning:
      "address the server listens on and the CLI talks to ([http://]host[:port]; port 0 = ephemeral)",
    default: "127.0.0.1:11434",
  },
  {
    name: "LLMSRV_MODELS",
    meaning: "model store directory (manifests/ and blobs/)",
    default: "~/.llmsrv/models",
  },
  {
    name: "LLMSRV_KEEP_ALIVE",
    meaning:
      "time a model stays loaded after last use (5m, 1h, seconds; -1 forever; 0 unload at once)",
    default: "5m",
  },
  {
    name: "LLMSRV_MAX_LOADED_MODELS",
    meaning: "max models loaded at once (least recently used idle one is evicted)",
    default: "1 on the CPU, 3 when runners use a GPU (known at the first request)",
  },
  {
    name: "LLMSRV_GPU",
    meaning:
      "which node-llama-cpp build runners load: auto (CUDA, else Vulkan, else CPU; CPU when CUDA_VISIBLE_DEVICES is empty or -1), cuda, vulkan, off (CPU only); layers per request with the num_gpu option",
    default: "auto",
  },
  {
    name: "LLMSRV_NUM_PARALLEL",
    meaning: "max parallel requests per model (context sequences)",
    default: "1",
  },
  {
    name: "LLMSRV_MAX_QUEUE",
    meaning: "max requests waiting for a slot before 503",
    default: "512",
  },
  {
    name: "LLMSRV_CONTEXT_LENGTH",
    meaning: "default context window (num_ctx) in tokens",
    default: "2048",
  },
  { name: "LLMSRV_FLASH_ATTENTION", meaning: "1 enables flash attention", default: "off" },
  {
    name: "LLMSRV_KV_CACHE_TYPE",
    meaning: "KV cache quantization: f16, q8_0, q4_0",
    default: "f16",
  },
  {
    name: "LLMSRV_NUM_THREAD",
    meaning: "default CPU threads (num_thread); never more than the physical core count",
    default: "physical core count",
  },
  {
    name: "LLMSRV_API_KEY",
    meaning: "when set, requests must carry Authorization: Bearer <key>",
    default: "unset (no check)",
  },
  {
    name: "LLMSRV_LOG_LEVEL",
    meaning: "pino log level (fatal, error, warn, info, debug, trace, silent)",
    default: "info",
  },
  {
    name: "LLMSRV_MAX_EMBED_INPUTS",
    meaning: "max inputs of one embedding request (more is a 400)",
    default: "2048",
  },
  {
    name: "LLMSRV_MAX_BODY_BYTES",
    meaning:
      "largest JSON request body in bytes; larger bodies get 413 (blob uploads are streamed and not limited)",
    default: "33554432 (32 MiB)",
  },
  {
    name: "LLMSRV_TEMPLATES",
    meaning:
      "folder of Ollama's templates (index.json, <name>.gotmpl, <name>.json): create picks a GGUF's template from it as Ollama does",
    default: "unset (no detection: the GGUF's Jinja chat template is used)",
  },
  {
    name: "LLMSRV_ORIGINS",
    meaning:
      "extra origins browsers may call the API from, comma-separated (one * wildcard each, or * for all); localhost, 127.0.0.1, 0.0.0.0 on any port and app://, file://, tauri://, vscode-webview://, vscode-file:// are always allowed",
    default: "unset (only the built-in origins)",
  },
  {
    name: "LLMSRV_REGISTRY",
    meaning:
      "base URL (http:// or https://) that pull and push use for models named on the default registry registry.ollama.ai (a mirror); names with their own host go to that host",
    default: "https://registry.ollama.ai",
  },
  {
    name: "LLMSRV_REGISTRY_TOKEN",
    meaning: "token sent as Authorization: Bearer to registries on pull and push",
    default: "unset (anonymous)",
  },
  {
    name: "LLMSRV_NOPRUNE",
    meaning:
      "1 keeps blobs no model uses: no prune at start-up, and a model's replaced layers are not deleted (as OLLAMA_NOPRUNE)",
    default: "off (prune)",
  },
  {
    name: "LLMSRV_MAX_NUM_CTX",
    meaning:
      "largest num_ctx (context window in tokens) a request or model may ask for; more is a 400",
    default: "131072",
  },
  {
    name: "LLMSRV_MAX_NUM_BATCH",
    meaning: "largest num_batch a request or model may ask for; more is a 400",
    default: "2048",
  },
  {
    name: "LLMSRV_MAX_NUM_PREDICT",
    meaning:
      "largest num_predict a request or model may ask for (more is a 400); an unbounded request (-1) stops after this many tokens",
    default: "32768",
  },
  {
    name: "LLMSRV_MAX_MODEL_MEMORY",
    meaning:
      "most memory one loaded model may need, weights + KV cache + compute buffers (bytes, or with a unit: 8GiB, 512MiB, 4GB); a load estimated above it, or above the memory available, is refused before llama.cpp allocates",
    default: "unset (the memory available: MemAvailable + free swap)",
  },
  {
    name: "LLMSRV_ACCESS_LOG",
    meaning:
      "1 logs one info line per HTTP request: method, path, status, duration in ms, bytes sent",
    default: "off",
  },
];

/** Every variable the server reads, with its meaning, default and Ollama counterpart. */
export const CONFIG_VARIABLES: readonly ConfigVariable[] = Object.freeze(
  VARIABLES.map((v) => {
    const ollama = OLLAMA_COUNTERPARTS[v.name];
    return Object.freeze(ollama === undefined ? v : { ...v, ollama });
  }),
);
