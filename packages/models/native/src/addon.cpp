// The addon's entry point: init(libDir), loadModel(options) and the MtmdModel class.
#include <napi.h>

#include "loader.h"
#include "model-object.h"
#include "promise-worker.h"

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

/** init(libDir): loads ggml's backends from the variant's library folder. */
Napi::Value Init(const Napi::CallbackInfo &info) {
  if (!info[0].IsString()) throw Napi::TypeError::New(info.Env(), "libDir must be a string");
  init_backends(info[0].As<Napi::String>().Utf8Value());
  return info.Env().Undefined();
}

/** loadModel(options): Promise<MtmdModel>. */
Napi::Value LoadModel(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  if (!info[0].IsObject()) throw Napi::TypeError::New(env, "options must be an object");
  Napi::Object o = info[0].As<Napi::Object>();
  LoadOptions opts;
  opts.model_path = string_of(o, "modelPath");
  opts.projector_path = string_of(o, "projectorPath");
  if (opts.model_path.empty()) throw Napi::TypeError::New(env, "modelPath is required");
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
  auto loaded = std::make_shared<std::shared_ptr<ModelState>>();
  return PromiseWorker::Run(
      env, [opts, loaded] { *loaded = load_model(opts); },
      [loaded](Napi::Env env) -> Napi::Value { return ModelObject::Wrap(env, std::move(*loaded)); });
}

}  // namespace

}  // namespace llmsrv

static Napi::Object ModuleInit(Napi::Env env, Napi::Object exports) {
  using namespace llmsrv;
  exports.Set("init", Napi::Function::New<Init>(env, "init"));
  exports.Set("loadModel", Napi::Function::New<LoadModel>(env, "loadModel"));
  exports.Set("MtmdModel", ModelObject::Define(env));
  return exports;
}

NODE_API_MODULE(llmsrv_mtmd, ModuleInit)
