// The JS class of a loaded model: its methods call the native operations, heavy ones off-thread.
#include "model-object.h"

#include "embedding.h"
#include "generation-step.h"
#include "load-options.h"
#include "loader.h"
#include "media-prompt.h"
#include "promise-worker.h"
#include "sampling.h"
#include "text-prompt.h"
#include "text.h"

namespace llmsrv {

namespace {

struct ClassData {
  Napi::FunctionReference constructor;
};

std::vector<llama_token> tokens_arg(const Napi::Value &v, int n_vocab) {
  if (!v.IsTypedArray() || v.As<Napi::TypedArray>().TypedArrayType() != napi_int32_array) {
    throw Napi::TypeError::New(v.Env(), "tokens must be an Int32Array");
  }
  auto arr = v.As<Napi::Int32Array>();
  std::vector<llama_token> out(arr.Data(), arr.Data() + arr.ElementLength());
  for (llama_token t : out) {
    if (t < 0 || t >= n_vocab) {
      Napi::Error e = Napi::RangeError::New(
          v.Env(), "token " + std::to_string(t) + " is outside the vocabulary (0-" +
                       std::to_string(n_vocab - 1) + ")");
      e.Set("code", Napi::String::New(v.Env(), "BAD_INPUT"));
      throw e;
    }
  }
  return out;
}

Napi::Int32Array to_js(Napi::Env env, const std::vector<llama_token> &tokens) {
  auto arr = Napi::Int32Array::New(env, tokens.size());
  std::copy(tokens.begin(), tokens.end(), arr.Data());
  return arr;
}

double number_of(const Napi::Object &o, const char *key, double fallback) {
  Napi::Value v = o.Get(key);
  return v.IsNumber() ? v.As<Napi::Number>().DoubleValue() : fallback;
}

}  // namespace

Napi::Function ModelObject::Define(Napi::Env env) {
  Napi::Function cls = DefineClass(
      env, "MtmdModel",
      {
          InstanceMethod<&ModelObject::Info>("info"),
          InstanceMethod<&ModelObject::Tokenize>("tokenize"),
          InstanceMethod<&ModelObject::Detokenize>("detokenize"),
          InstanceMethod<&ModelObject::IsEndOfGeneration>("isEndOfGeneration"),
          InstanceMethod<&ModelObject::Prepare>("prepare"),
          InstanceMethod<&ModelObject::Evaluate>("evaluate"),
          InstanceMethod<&ModelObject::ConfigureSampler>("configureSampler"),
          InstanceMethod<&ModelObject::KeepPrefix>("keepPrefix"),
          InstanceMethod<&ModelObject::Append>("append"),
          InstanceMethod<&ModelObject::Step>("step"),
          InstanceMethod<&ModelObject::Logits>("logits"),
          InstanceMethod<&ModelObject::Embed>("embed"),
          InstanceMethod<&ModelObject::EmbeddingContext>("embeddingContext"),
          InstanceMethod<&ModelObject::Abort>("abort"),
          InstanceMethod<&ModelObject::Clear>("clear"),
          InstanceMethod<&ModelObject::Dispose>("dispose"),
      });
  auto *data = new ClassData{Napi::Persistent(cls)};
  env.SetInstanceData<ClassData>(data);
  return cls;
}

Napi::Object ModelObject::Wrap(Napi::Env env, std::shared_ptr<ModelState> state) {
  auto *holder = new std::shared_ptr<ModelState>(std::move(state));
  auto ext = Napi::External<std::shared_ptr<ModelState>>::New(
      env, holder, [](Napi::Env, std::shared_ptr<ModelState> *p) { delete p; });
  return env.GetInstanceData<ClassData>()->constructor.New({ext});
}

ModelObject::ModelObject(const Napi::CallbackInfo &info) : Napi::ObjectWrap<ModelObject>(info) {
  if (info.Length() != 1 || !info[0].IsExternal()) {
    throw Napi::TypeError::New(info.Env(), "MtmdModel is created by loadModel()");
  }
  state_ = *info[0].As<Napi::External<std::shared_ptr<ModelState>>>().Data();
}

std::shared_ptr<ModelState> ModelObject::live(Napi::Env env) const {
  if (!state_) throw Napi::Error::New(env, "the model was disposed");
  return state_;
}

int ModelObject::sequenceArg(const Napi::CallbackInfo &info, size_t i) const {
  int seq = info[i].IsNumber() ? info[i].As<Napi::Number>().Int32Value() : -1;
  if (seq < 0 || seq >= static_cast<int>(state_->sequences.size())) {
    throw Napi::RangeError::New(info.Env(), "no sequence " + std::to_string(seq));
  }
  return seq;
}

Napi::Value ModelObject::Info(const Napi::CallbackInfo &info) {
  auto s = live(info.Env());
  Napi::Env env = info.Env();
  Napi::Object o = Napi::Object::New(env);
  o.Set("embeddingLength", llama_model_n_embd(s->model));
  o.Set("vocabularySize", s->n_vocab);
  o.Set("contextSize", static_cast<double>(llama_n_ctx_seq(s->ctx)));
  o.Set("bos", llama_vocab_get_add_bos(s->vocab) ? llama_vocab_bos(s->vocab) : -1);
  o.Set("modelBytes", static_cast<double>(llama_model_size(s->model)));
  o.Set("stateBytes", static_cast<double>(llama_state_get_size(s->ctx)));
  o.Set("vramBytes", static_cast<double>(vram_bytes(*s)));
  o.Set("vision", s->mctx != nullptr && mtmd_support_vision(s->mctx));
  o.Set("audio", s->mctx != nullptr && mtmd_support_audio(s->mctx));
  o.Set("marker", mtmd_default_marker());
  return o;
}

Napi::Value ModelObject::Tokenize(const Napi::CallbackInfo &info) {
  auto s = live(info.Env());
  if (!info[0].IsString()) throw Napi::TypeError::New(info.Env(), "text must be a string");
  return to_js(info.Env(), tokenize(s->vocab, info[0].As<Napi::String>().Utf8Value()));
}

Napi::Value ModelObject::Detokenize(const Napi::CallbackInfo &info) {
  auto s = live(info.Env());
  auto tokens = tokens_arg(info[0], s->n_vocab);
  std::vector<llama_token> context;
  if (info.Length() > 1 && !info[1].IsUndefined()) context = tokens_arg(info[1], s->n_vocab);
  std::string bytes = detokenize(s->vocab, tokens, context);
  return Napi::Buffer<char>::Copy(info.Env(), bytes.data(), bytes.size());
}

Napi::Value ModelObject::IsEndOfGeneration(const Napi::CallbackInfo &info) {
  auto s = live(info.Env());
  return Napi::Boolean::New(info.Env(),
                            llama_vocab_is_eog(s->vocab, info[0].As<Napi::Number>().Int32Value()));
}

Napi::Value ModelObject::Prepare(const Napi::CallbackInfo &info) {
  auto s = live(info.Env());
  int seq = sequenceArg(info, 0);
  if (!info[1].IsString()) throw Napi::TypeError::New(info.Env(), "text must be a string");
  std::string text = info[1].As<Napi::String>().Utf8Value();
  std::vector<MediaBytes> media;
  if (!info[2].IsArray()) throw Napi::TypeError::New(info.Env(), "media must be an array");
  auto list = info[2].As<Napi::Array>();
  for (uint32_t i = 0; i < list.Length(); i++) {
    Napi::Value v = list.Get(i);
    if (!v.IsTypedArray()) throw Napi::TypeError::New(info.Env(), "media items must be bytes");
    auto bytes = v.As<Napi::Uint8Array>();
    media.emplace_back(bytes.Data(), bytes.Data() + bytes.ByteLength());
  }
  auto result = std::make_shared<std::vector<ChunkSummary>>();
  return PromiseWorker::Run(
      info.Env(),
      [s, seq, text = std::move(text), media = std::move(media), result] {
        *result = prepare_prompt(*s, seq, text, media);
      },
      [result](Napi::Env env) -> Napi::Value {
        Napi::Array out = Napi::Array::New(env, result->size());
        for (size_t i = 0; i < result->size(); i++) {
          const ChunkSummary &c = (*result)[i];
          Napi::Object o = Napi::Object::New(env);
          o.Set("type", c.type);
          if (c.type == "text") o.Set("tokens", to_js(env, c.tokens));
          o.Set("tokenCount", static_cast<double>(c.n_tokens));
          o.Set("positions", static_cast<double>(c.n_pos));
          out.Set(static_cast<uint32_t>(i), o);
        }
        return out;
      });
}

Napi::Value ModelObject::Evaluate(const Napi::CallbackInfo &info) {
  auto s = live(info.Env());
  int seq = sequenceArg(info, 0);
  if (!info[1].IsArray()) throw Napi::TypeError::New(info.Env(), "items must be an array");
  auto list = info[1].As<Napi::Array>();
  std::vector<EvalItem> items;
  for (uint32_t i = 0; i < list.Length(); i++) {
    Napi::Value v = list.Get(i);
    EvalItem item;
    if (v.IsNumber()) {
      item.chunk = v.As<Napi::Number>().Int32Value();
    } else {
      item.tokens = tokens_arg(v, s->n_vocab);
    }
    items.push_back(std::move(item));
  }
  // A new evaluation starts un-aborted; the caller aborts it afterwards if it must.
  s->sequence(seq).abort.store(false);
  auto count = std::make_shared<size_t>(0);
  return PromiseWorker::Run(
      info.Env(), [s, seq, items = std::move(items), count] { *count = evaluate_prompt(*s, seq, items); },
      [count](Napi::Env env) -> Napi::Value { return Napi::Number::New(env, static_cast<double>(*count)); });
}

Napi::Value ModelObject::ConfigureSampler(const Napi::CallbackInfo &info) {
  auto s = live(info.Env());
  int seq = sequenceArg(info, 0);
  if (!info[1].IsObject()) throw Napi::TypeError::New(info.Env(), "settings must be an object");
  Napi::Object o = info[1].As<Napi::Object>();
  SamplerSettings st;
  st.temperature = static_cast<float>(number_of(o, "temperature", st.temperature));
  st.top_k = static_cast<int32_t>(number_of(o, "topK", st.top_k));
  st.top_p = static_cast<float>(number_of(o, "topP", st.top_p));
  st.min_p = static_cast<float>(number_of(o, "minP", st.min_p));
  st.repeat_penalty = static_cast<float>(number_of(o, "repeatPenalty", st.repeat_penalty));
  st.repeat_last_n = static_cast<int32_t>(number_of(o, "repeatLastN", st.repeat_last_n));
  st.presence_penalty = static_cast<float>(number_of(o, "presencePenalty", st.presence_penalty));
  st.frequency_penalty = static_cast<float>(number_of(o, "frequencyPenalty", st.frequency_penalty));
  st.seed = static_cast<uint32_t>(number_of(o, "seed", 0));
  if (o.Get("grammar").IsString()) st.grammar = o.Get("grammar").As<Napi::String>().Utf8Value();
  auto history = info.Length() > 2 && !info[2].IsUndefined() ? tokens_arg(info[2], s->n_vocab)
                                                              : std::vector<llama_token>{};
  try {
    configure_sampler(*s, seq, st, history);
  } catch (const BadInput &e) {
    Napi::Error err = Napi::Error::New(info.Env(), e.what());
    err.Set("code", Napi::String::New(info.Env(), "BAD_INPUT"));
    throw err;
  }
  return info.Env().Undefined();
}

Napi::Value ModelObject::KeepPrefix(const Napi::CallbackInfo &info) {
  auto s = live(info.Env());
  int seq = sequenceArg(info, 0);
  auto tokens = tokens_arg(info[1], s->n_vocab);
  // A new prompt starts un-aborted; the caller aborts it afterwards if it must.
  s->sequence(seq).abort.store(false);
  auto kept = std::make_shared<llama_pos>(0);
  return PromiseWorker::Run(
      info.Env(), [s, seq, tokens = std::move(tokens), kept] { *kept = keep_prefix(*s, seq, tokens); },
      [kept](Napi::Env env) -> Napi::Value { return Napi::Number::New(env, *kept); });
}

Napi::Value ModelObject::Append(const Napi::CallbackInfo &info) {
  auto s = live(info.Env());
  int seq = sequenceArg(info, 0);
  auto tokens = tokens_arg(info[1], s->n_vocab);
  const bool logits = info[2].IsBoolean() && info[2].As<Napi::Boolean>();
  return PromiseWorker::Run(
      info.Env(), [s, seq, tokens = std::move(tokens), logits] { append_tokens(*s, seq, tokens, logits); },
      [](Napi::Env env) -> Napi::Value { return env.Undefined(); });
}

Napi::Value ModelObject::Step(const Napi::CallbackInfo &info) {
  auto s = live(info.Env());
  auto seqs = tokens_arg(info[0], static_cast<int>(s->sequences.size()));
  if (!info[1].IsTypedArray() || info[1].As<Napi::TypedArray>().TypedArrayType() != napi_int32_array) {
    throw Napi::TypeError::New(info.Env(), "feeds must be an Int32Array");
  }
  auto feedArr = info[1].As<Napi::Int32Array>();
  std::vector<llama_token> feeds(feedArr.Data(), feedArr.Data() + feedArr.ElementLength());
  if (feeds.size() != seqs.size()) {
    throw Napi::RangeError::New(info.Env(), "step() takes one feed per sequence");
  }
  for (llama_token t : feeds) {
    if (t >= s->n_vocab) throw Napi::RangeError::New(info.Env(), "token outside the vocabulary");
  }
  struct Sampled {
    std::vector<llama_token> tokens;
    std::vector<std::string> errors;
  };
  auto out = std::make_shared<Sampled>();
  return PromiseWorker::Run(
      info.Env(),
      [s, seqs, feeds, out] {
        evaluate_step(*s, seqs, feeds);
        // A sequence whose sampler fails (its grammar allows no token) fails alone.
        for (int seq : seqs) {
          try {
            out->tokens.push_back(sample_token(*s, seq));
            out->errors.emplace_back();
          } catch (const std::exception &e) {
            out->tokens.push_back(-1);
            out->errors.emplace_back(e.what());
          }
        }
      },
      [out](Napi::Env env) -> Napi::Value {
        Napi::Object result = Napi::Object::New(env);
        result.Set("tokens", to_js(env, out->tokens));
        Napi::Array errors = Napi::Array::New(env, out->errors.size());
        for (size_t i = 0; i < out->errors.size(); i++) {
          errors.Set(static_cast<uint32_t>(i), out->errors[i].empty()
                                                   ? env.Null()
                                                   : Napi::String::New(env, out->errors[i]));
        }
        result.Set("errors", errors);
        return result;
      });
}

Napi::Value ModelObject::Logits(const Napi::CallbackInfo &info) {
  auto s = live(info.Env());
  const auto &logits = s->sequence(sequenceArg(info, 0)).logits;
  auto arr = Napi::Float32Array::New(info.Env(), logits.size());
  std::copy(logits.begin(), logits.end(), arr.Data());
  return arr;
}

Napi::Value ModelObject::Embed(const Napi::CallbackInfo &info) {
  auto s = live(info.Env());
  if (!s->options.embeddings) {
    throw Napi::Error::New(info.Env(), "the model was not loaded with embeddings: true");
  }
  if (!info[0].IsArray()) throw Napi::TypeError::New(info.Env(), "texts must be an array");
  auto list = info[0].As<Napi::Array>();
  std::vector<std::vector<llama_token>> texts;
  for (uint32_t i = 0; i < list.Length(); i++) texts.push_back(tokens_arg(list.Get(i), s->n_vocab));
  // A new call starts un-aborted; abort(0) stops it afterwards.
  s->sequence(0).abort.store(false);
  auto vectors = std::make_shared<std::vector<std::vector<float>>>();
  return PromiseWorker::Run(
      info.Env(), [s, texts = std::move(texts), vectors] { *vectors = embed_texts(*s, texts); },
      [vectors](Napi::Env env) -> Napi::Value {
        Napi::Array out = Napi::Array::New(env, vectors->size());
        for (size_t i = 0; i < vectors->size(); i++) {
          const auto &v = (*vectors)[i];
          auto arr = Napi::Float32Array::New(env, v.size());
          std::copy(v.begin(), v.end(), arr.Data());
          out.Set(static_cast<uint32_t>(i), arr);
        }
        return out;
      });
}

Napi::Value ModelObject::EmbeddingContext(const Napi::CallbackInfo &info) {
  auto s = live(info.Env());
  if (!info[0].IsObject()) throw Napi::TypeError::New(info.Env(), "options must be an object");
  LoadOptions opts = load_options_of(info.Env(), info[0].As<Napi::Object>(), false);
  opts.embeddings = true;
  auto loaded = std::make_shared<std::shared_ptr<ModelState>>();
  return PromiseWorker::Run(
      info.Env(), [s, opts, loaded] { *loaded = load_context(s, opts); },
      [loaded](Napi::Env env) -> Napi::Value { return ModelObject::Wrap(env, std::move(*loaded)); });
}

Napi::Value ModelObject::Abort(const Napi::CallbackInfo &info) {
  auto s = live(info.Env());
  s->sequence(sequenceArg(info, 0)).abort.store(true);
  return info.Env().Undefined();
}

Napi::Value ModelObject::Clear(const Napi::CallbackInfo &info) {
  auto s = live(info.Env());
  int seq = sequenceArg(info, 0);
  return PromiseWorker::Run(
      info.Env(), [s, seq] { clear_sequence(*s, seq); },
      [](Napi::Env env) -> Napi::Value { return env.Undefined(); });
}

Napi::Value ModelObject::Dispose(const Napi::CallbackInfo &info) {
  if (!state_) {
    auto done = Napi::Promise::Deferred::New(info.Env());
    done.Resolve(info.Env().Undefined());
    return done.Promise();
  }
  // Freed on a pool thread once no other call holds it (they keep their own reference).
  auto s = std::move(state_);
  for (auto &seq : s->sequences) seq->abort.store(true);
  return PromiseWorker::Run(
      info.Env(),
      [s]() mutable {
        { std::lock_guard<std::mutex> guard(s->lock); }
        s.reset();
      },
      [](Napi::Env env) -> Napi::Value { return env.Undefined(); });
}

}  // namespace llmsrv
