// Loads a model, its projector and a context with one sequence per slot.
#include "loader.h"

#include <mutex>
#include <stdexcept>

#include "ggml-backend.h"
#include "llama-ext.h"
#include "log-sink.h"

namespace llmsrv {

void init_backends(const std::string &lib_dir) {
  static std::once_flag once;
  std::call_once(once, [&] {
    install_log_sink();
    // node-llama-cpp may have loaded them into this process already (the same libraries).
    if (ggml_backend_dev_by_type(GGML_BACKEND_DEVICE_TYPE_CPU) == nullptr) {
      ggml_backend_load_all_from_path(lib_dir.c_str());
    }
    llama_backend_init();
  });
}

namespace {

/** Throws with llama.cpp's logged errors when there are any, else with `what`. */
[[noreturn]] void fail(const std::string &what) {
  std::string logged = take_captured_errors();
  throw std::runtime_error(logged.empty() ? what : what + ": " + logged);
}

/**
 * Gives the context a thread pool of its own that lives as long as it does. Without one,
 * ggml's CPU backend creates its worker threads for every graph it computes and joins them
 * after: on a 2-core machine a one-token decode with 2 threads took 10-15 ms instead of
 * 0.15 ms (stories260K), slower than 1 thread. The functions come from the CPU backend,
 * which is loaded dynamically. A build without them keeps ggml's own behaviour.
 */
void attach_threadpool(ModelState &state, int threads) {
  ggml_backend_dev_t cpu = ggml_backend_dev_by_type(GGML_BACKEND_DEVICE_TYPE_CPU);
  ggml_backend_reg_t reg = cpu ? ggml_backend_dev_backend_reg(cpu) : nullptr;
  if (!reg) return;
  auto create = reinterpret_cast<decltype(&ggml_threadpool_new)>(
      ggml_backend_reg_get_proc_address(reg, "ggml_threadpool_new"));
  auto destroy = reinterpret_cast<decltype(&ggml_threadpool_free)>(
      ggml_backend_reg_get_proc_address(reg, "ggml_threadpool_free"));
  if (!create || !destroy) return;
  ggml_threadpool_params params = ggml_threadpool_params_default(threads);
  state.threadpool = create(&params);
  if (!state.threadpool) return;
  state.free_threadpool = destroy;
  llama_attach_threadpool(state.ctx, state.threadpool, state.threadpool);
}

/** Loads the LoRA adapters and sets them on the context at scale 1. */
void apply_adapters(ModelState &state) {
  const auto &paths = state.options.adapter_paths;
  if (paths.empty()) return;
  std::vector<llama_adapter_lora *> adapters;
  for (const std::string &path : paths) {
    llama_adapter_lora *a = llama_adapter_lora_init(state.model, path.c_str());
    if (!a) fail("cannot apply LoRA adapter " + path);
    adapters.push_back(a);
  }
  std::vector<float> scales(adapters.size(), 1.0f);
  if (llama_set_adapters_lora(state.ctx, adapters.data(), adapters.size(), scales.data()) != 0) {
    fail("cannot set the LoRA adapters on the context");
  }
}

/** Creates the state's llama.cpp context (its options say which kind), thread pool and slots. */
void create_context(ModelState &state) {
  llama_context_params cp = llama_context_default_params();
  cp.n_seq_max = state.options.sequences;
  cp.n_batch = state.options.batch_size;
  cp.n_ubatch = state.options.batch_size;
  if (state.options.embeddings) {
    // The texts of one decode share the window: one cache, each its own sequence. A text
    // may fill the window (n_batch); groups fill a ubatch (embedding.cpp).
    cp.embeddings = true;
    cp.n_ctx = state.options.context_size;
    cp.n_batch = state.options.context_size;
    cp.kv_unified = true;
    // Only an embeddings context watches its graph; the callback reads nothing until armed.
    cp.cb_eval = HiddenCapture::on_tensor;
    cp.cb_eval_user_data = &state.capture;
  } else {
    // Each sequence owns its part of the cache (a slot's window is exactly context_size).
    cp.n_ctx = state.options.context_size * state.options.sequences;
    cp.kv_unified = false;
  }
  cp.n_threads = state.options.threads;
  cp.n_threads_batch = state.options.threads;
  cp.flash_attn_type = state.options.flash_attention;
  cp.type_k = state.options.kv_type;
  cp.type_v = state.options.kv_type;
  // num_gpu 0 keeps everything on the CPU, as Ollama's: no KV cache on the GPU, and no
  // large-batch matrix products copied there either (llama.cpp's op offload).
  cp.offload_kqv = state.options.gpu_layers != 0;
  cp.op_offload = state.options.gpu_layers != 0;
  cp.no_perf = true;
  cp.abort_callback = [](void *data) -> bool {
    auto *s = static_cast<ModelState *>(data);
    int seq = s->decoding.load();
    return seq >= 0 && seq < static_cast<int>(s->sequences.size()) &&
           s->sequences[seq]->abort.load();
  };
  cp.abort_callback_data = &state;
  state.ctx = llama_init_from_model(state.model, cp);
  if (!state.ctx) fail("cannot create a context for " + state.options.model_path);
  const ModelState *parent = state.parent.get();
  if (state.options.compute_in_turns && parent && parent->threadpool &&
      parent->options.threads == state.options.threads) {
    // Computes in turns with the parent (compute-turns.h), so on the same threads.
    llama_attach_threadpool(state.ctx, parent->threadpool, parent->threadpool);
  } else {
    attach_threadpool(state, state.options.threads);
  }
  apply_adapters(state);
  if (state.options.embeddings && !state.options.hidden_state_tensor.empty() &&
      llama_pooling_type(state.ctx) == LLAMA_POOLING_TYPE_NONE) {
    // A text's embedding is its last token's hidden state: read it, skip the logits.
    state.capture.enabled = true;
    state.capture.tensor = state.options.hidden_state_tensor;
    state.capture.width = llama_model_n_embd_out(state.model);
    llama_set_embeddings(state.ctx, false);
  }

  for (uint32_t i = 0; i < state.options.sequences; i++) {
    state.sequences.push_back(std::make_unique<SequenceState>());
  }
}

}  // namespace

std::unique_ptr<ModelState> load_model(const LoadOptions &options) {
  begin_error_capture();
  auto state = std::make_unique<ModelState>();
  state->options = options;

  llama_model_params mp = llama_model_default_params();
  mp.n_gpu_layers = options.gpu_layers < 0 ? 999 : options.gpu_layers;
  // num_gpu 0: no GPU device at all, so no compute buffer lands in VRAM either (Ollama's
  // num_gpu 0 model shows size_vram 0).
  static ggml_backend_dev_t no_devices[] = {nullptr};
  if (options.gpu_layers == 0) mp.devices = no_devices;
  mp.load_mode = options.use_mmap ? LLAMA_LOAD_MODE_MMAP : LLAMA_LOAD_MODE_NONE;
  state->model = llama_model_load_from_file(options.model_path.c_str(), mp);
  if (!state->model) fail("cannot load model " + options.model_path);
  state->vocab = llama_model_get_vocab(state->model);
  state->n_vocab = llama_vocab_n_tokens(state->vocab);

  create_context(*state);

  if (!options.projector_path.empty()) {
    mtmd_context_params mp2 = mtmd_context_params_default();
    mp2.use_gpu = options.gpu_layers != 0;
    mp2.n_threads = options.threads;
    mp2.print_timings = false;
    mp2.warmup = false;
    mp2.flash_attn_type = options.flash_attention;
    state->mctx = mtmd_init_from_file(options.projector_path.c_str(), state->model, mp2);
    if (!state->mctx) fail("cannot load projector " + options.projector_path);
  }
  return state;
}

std::unique_ptr<ModelState> load_context(std::shared_ptr<ModelState> parent, LoadOptions options) {
  begin_error_capture();
  auto state = std::make_unique<ModelState>();
  options.model_path = parent->options.model_path;
  options.projector_path.clear();
  options.gpu_layers = parent->options.gpu_layers;
  options.adapter_paths.clear();
  state->options = options;
  state->model = parent->model;
  state->owns_model = false;
  state->vocab = parent->vocab;
  state->n_vocab = parent->n_vocab;
  if (options.compute_in_turns) state->turns = parent->turns;
  state->parent = std::move(parent);
  create_context(*state);
  return state;
}

size_t vram_bytes(const ModelState &state) {
  size_t total = 0;
  for (const auto &[buft, mb] : llama_get_memory_breakdown(state.ctx)) {
    // Only a GPU's memory: the CPU's repacked-weight buffers are not host buffers either.
    ggml_backend_dev_t dev = buft == nullptr ? nullptr : ggml_backend_buft_get_device(buft);
    if (dev == nullptr) continue;
    enum ggml_backend_dev_type type = ggml_backend_dev_type(dev);
    if (type == GGML_BACKEND_DEVICE_TYPE_GPU || type == GGML_BACKEND_DEVICE_TYPE_IGPU) {
      total += mb.total();
    }
  }
  return total;
}

}  // namespace llmsrv
