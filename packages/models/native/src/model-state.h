// What one loaded model holds natively: llama.cpp's model and context, mtmd's, and per-sequence state.
#pragma once
#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "compute-turns.h"
#include "ggml-cpu.h"
#include "hidden-capture.h"
#include "llama.h"
#include "mtmd.h"

namespace llmsrv {

/** Settings of a load, read from the JS options object. */
struct LoadOptions {
  std::string model_path;
  std::string projector_path;
  /** Layers offloaded to the GPU; negative: all of them. */
  int gpu_layers = 0;
  bool use_mmap = true;
  /** Context window of one sequence, in tokens. */
  uint32_t context_size = 2048;
  uint32_t sequences = 1;
  int threads = 1;
  uint32_t batch_size = 512;
  llama_flash_attn_type flash_attention = LLAMA_FLASH_ATTN_TYPE_DISABLED;
  ggml_type kv_type = GGML_TYPE_F16;
  /**
   * A context for embeddings (embedding.h): `sequences` texts share one window of
   * context_size tokens, decoded together, instead of a window per slot.
   */
  bool embeddings = false;
  /**
   * For a second context (load_context): compute in turns with the parent, on its thread pool
   * (compute-turns.h), instead of on threads of its own at the same time.
   */
  bool compute_in_turns = false;
  /** The tensor an embeddings context reads its vectors from (hidden-capture.h); empty: none. */
  std::string hidden_state_tensor = "result_norm";
  /** LoRA adapter GGUFs applied to the context at scale 1 (Ollama's ADAPTER), in order. */
  std::vector<std::string> adapter_paths;
};

/** One sequence (a scheduler slot): its prompt's media chunks, position, logits and sampler. */
struct SequenceState {
  /** Chunks of the last prepared prompt (text and media), referenced by index in evaluate(). */
  mtmd::input_chunks chunks{mtmd_input_chunks_init()};
  /** Next position in the sequence (tokens evaluated so far). */
  llama_pos n_past = 0;
  /** Logits after the last evaluated token, copied out of the context (others decode between). */
  std::vector<float> logits;
  llama_sampler *sampler = nullptr;
  std::atomic<bool> abort{false};
  /**
   * The tokens the sequence's cache holds, in order, when they are known (text only, every
   * decode completed): a next prompt that starts with them evaluates only what follows, as
   * node-llama-cpp's and Ollama's runners reuse a slot's cache. Known exactly when there is
   * one per position.
   */
  std::vector<llama_token> cached;

  bool cache_known() const { return cached.size() == static_cast<size_t>(n_past); }

  ~SequenceState() {
    if (sampler) llama_sampler_free(sampler);
  }
};

/** A model with its projector and one context whose sequences are the slots. */
struct ModelState {
  llama_model *model = nullptr;
  llama_context *ctx = nullptr;
  mtmd_context *mctx = nullptr;
  const llama_vocab *vocab = nullptr;
  LoadOptions options;
  int n_vocab = 0;
  /** llama.cpp's context is not thread-safe: every decode and KV change holds this. */
  std::mutex lock;
  /** The sequence being decoded, whose abort flag the context's abort callback reads. */
  std::atomic<int> decoding{-1};
  std::vector<std::unique_ptr<SequenceState>> sequences;
  /**
   * The CPU threads every decode of the context runs on (loader.cpp): without one, ggml
   * starts and joins its threads on every llama_decode.
   */
  ggml_threadpool *threadpool = nullptr;
  void (*free_threadpool)(ggml_threadpool *) = nullptr;
  /** Shared with the contexts on this model's weights: one computes at a time. */
  std::shared_ptr<ComputeTurns> turns = std::make_shared<ComputeTurns>();
  /**
   * A second context on another state's model (load_context): that state, kept alive (its
   * model, and its thread pool when this context computes on it).
   */
  std::shared_ptr<ModelState> parent;
  /** False for a second context: the model is the parent's to free. */
  bool owns_model = true;
  /** An embeddings context's reading of hidden states (hidden-capture.h). */
  HiddenCapture capture;

  ~ModelState() {
    sequences.clear();
    if (mctx) mtmd_free(mctx);
    if (ctx) llama_free(ctx);
    if (threadpool && free_threadpool) free_threadpool(threadpool);
    if (model && owns_model) llama_model_free(model);
  }

  SequenceState &sequence(int seq) {
    if (seq < 0 || seq >= static_cast<int>(sequences.size())) {
      throw std::out_of_range("no sequence " + std::to_string(seq));
    }
    return *sequences[seq];
  }
};

}  // namespace llmsrv
