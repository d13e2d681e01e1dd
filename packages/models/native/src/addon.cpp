// The addon's entry point: init(libDir), loadModel(options) and the MtmdModel class.
#include <napi.h>

#include "load-options.h"
#include "loader.h"
#include "model-object.h"
#include "promise-worker.h"

namespace llmsrv {

namespace {

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
  LoadOptions opts = load_options_of(env, o);
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
