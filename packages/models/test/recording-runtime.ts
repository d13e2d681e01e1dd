// A runtime that records what the server asks of it (load specs, completion requests) and answers "ok".
import type {
  CompletionRequest,
  CompletionResult,
  LoadedModel,
  LoadSpec,
  ModelRuntime,
} from "../src/runtime/model-runner.js";

/**
 * Stands in for the runner at the runtime contract (model-runner.ts), so tests can see
 * the LoadSpec and CompletionRequest the HTTP layer builds for models whose projector a
 * real runtime would need to encode. Each prompt character counts as one token.
 */
export class RecordingRuntime implements ModelRuntime {
  readonly loads: LoadSpec[] = [];
  readonly requests: CompletionRequest[] = [];

  async load(spec: LoadSpec): Promise<LoadedModel> {
    this.loads.push(spec);
    const requests = this.requests;
    return {
      spec,
      sizeBytes: spec.memoryBytes ?? 0,
      async complete(_slot, req, onText): Promise<CompletionResult> {
        requests.push(req);
        onText("ok");
        return {
          text: "ok",
          doneReason: "stop",
          promptTokens: [],
          outputTokens: [1],
          promptEvalCount: req.prompt.length + (req.media?.length ?? 0),
          evalCount: 1,
          promptEvalNs: 1,
          evalNs: 1,
          aborted: false,
        };
      },
      async embed() {
        throw new Error("the recording runtime does not embed");
      },
      async tokenize(text) {
        return Array.from(text, () => 1);
      },
      async detokenize() {
        return "";
      },
      async unload() {},
    };
  }

  /** The last completion request. */
  get last(): CompletionRequest {
    const r = this.requests[this.requests.length - 1];
    if (!r) throw new Error("no completion request recorded");
    return r;
  }

  async close(): Promise<void> {}
}
