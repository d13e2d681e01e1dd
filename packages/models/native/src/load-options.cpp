// The options object of loadModel() and embeddingContext(), read into LoadOptions.
#include "load-options.h"

#include <string>

namespace llmsrv {

namespace {

std::string string_of(const Napi::Object &o, const char *key) {
  Napi::Value v = o.Get(key);
  return v.IsString() ? v.As<Napi::String>().Utf8Value() : "";
}

double number_of(const Napi::Object &o, const char *key, double fallback) {
  Napi::Value v = o.Get(key);
  return v.IsNumber() ? v.As<Napi::Number>().DoubleValue() : fallback;
}

ggml_type kv_type_of(Napi::Env env, const std::string &name) {
  if (name.empty() || name == "f16") return GGML_TYPE_F16;
  if (name == "q8_0") return GGML_TYPE_Q8_0;
  if (name == "q4_0") return GGML_TYPE_Q4_0;
  throw Napi::TypeError::New(env, "unknown KV cache type " + name);
}

}  // namespace

LoadOptions load_options_of(Napi::Env env, const Napi::Object &o, bool needs_model) {
  LoadOptions opts;
  opts.model_path = string_of(o, "modelPath");
  opts.projector_path = string_of(o, "projectorPath");
  if (needs_model && opts.model_path.empty()) throw Napi::TypeError::New(env, "modelPath is required");
  opts.gpu_layers = static_cast<int>(number_of(o, "gpuLayers", -1));
  opts.use_mmap = !o.Get("useMmap").IsBoolean() || o.Get("useMmap").As<Napi::Boolean>();
  opts.context_size = static_cast<uint32_t>(number_of(o, "contextSize", 2048));
  opts.sequences = static_cast<uint32_t>(number_of(o, "sequences", 1));
  opts.threads = static_cast<int>(number_of(o, "threads", 1));
  opts.batch_size = static_cast<uint32_t>(number_of(o, "batchSize", 512));
  Napi::Value flash = o.Get("flashAttention");
  if (flash.IsString() && flash.As<Napi::String>().Utf8Value() == "auto") {
    opts.flash_attention = LLAMA_FLASH_ATTN_TYPE_AUTO;
  } else if (flash.IsBoolean() && flash.As<Napi::Boolean>()) {
    opts.flash_attention = LLAMA_FLASH_ATTN_TYPE_ENABLED;
  }
  opts.kv_type = kv_type_of(env, string_of(o, "kvCacheType"));
  opts.embeddings = o.Get("embeddings").IsBoolean() && o.Get("embeddings").As<Napi::Boolean>();
  opts.compute_in_turns = o.Get("computeInTurns").IsBoolean() && o.Get("computeInTurns").As<Napi::Boolean>();
  Napi::Value hidden = o.Get("hiddenStateTensor");
  if (hidden.IsNull()) opts.hidden_state_tensor.clear();
  else if (hidden.IsString()) opts.hidden_state_tensor = hidden.As<Napi::String>().Utf8Value();
  Napi::Value adapters = o.Get("adapterPaths");
  if (adapters.IsArray()) {
    auto list = adapters.As<Napi::Array>();
    for (uint32_t i = 0; i < list.Length(); i++) {
      if (!list.Get(i).IsString()) throw Napi::TypeError::New(env, "adapterPaths must be strings");
      opts.adapter_paths.push_back(list.Get(i).As<Napi::String>().Utf8Value());
    }
  }
  if (opts.sequences < 1 || opts.context_size < 1 || opts.batch_size < 1 || opts.threads < 1) {
    throw Napi::RangeError::New(env, "sequences, contextSize, batchSize and threads must be positive");
  }
  return opts;
}

}  // namespace llmsrv
