// The JS class of a loaded model: its methods call the native operations, heavy ones off-thread.
#pragma once
#include <memory>

#include <napi.h>

#include "model-state.h"

namespace llmsrv {

class ModelObject : public Napi::ObjectWrap<ModelObject> {
 public:
  /** Defines the class; its constructor is kept to wrap loaded models. */
  static Napi::Function Define(Napi::Env env);
  /** Wraps a loaded model in a new JS object. */
  static Napi::Object Wrap(Napi::Env env, std::shared_ptr<ModelState> state);

  explicit ModelObject(const Napi::CallbackInfo &info);

 private:
  std::shared_ptr<ModelState> state_;

  /** The model, or a JS exception when it was disposed. */
  std::shared_ptr<ModelState> live(Napi::Env env) const;
  int sequenceArg(const Napi::CallbackInfo &info, size_t i) const;

  Napi::Value Info(const Napi::CallbackInfo &info);
  Napi::Value Tokenize(const Napi::CallbackInfo &info);
  Napi::Value Detokenize(const Napi::CallbackInfo &info);
  Napi::Value IsEndOfGeneration(const Napi::CallbackInfo &info);
  Napi::Value Prepare(const Napi::CallbackInfo &info);
  Napi::Value Evaluate(const Napi::CallbackInfo &info);
  Napi::Value ConfigureSampler(const Napi::CallbackInfo &info);
  Napi::Value KeepPrefix(const Napi::CallbackInfo &info);
  Napi::Value Append(const Napi::CallbackInfo &info);
  Napi::Value Step(const Napi::CallbackInfo &info);
  Napi::Value Logits(const Napi::CallbackInfo &info);
  Napi::Value Embed(const Napi::CallbackInfo &info);
  Napi::Value EmbeddingContext(const Napi::CallbackInfo &info);
  Napi::Value Abort(const Napi::CallbackInfo &info);
  Napi::Value Clear(const Napi::CallbackInfo &info);
  Napi::Value Dispose(const Napi::CallbackInfo &info);
};

}  // namespace llmsrv
