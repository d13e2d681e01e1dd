// Runs a native call on libuv's thread pool and settles a JS promise with its result.
#include "promise-worker.h"

#include "media-prompt.h"

namespace llmsrv {

PromiseWorker::PromiseWorker(Napi::Env env, Work work, Done done)
    : Napi::AsyncWorker(env), deferred_(Napi::Promise::Deferred::New(env)),
      work_(std::move(work)), done_(std::move(done)) {}

Napi::Promise PromiseWorker::Run(Napi::Env env, Work work, Done done) {
  auto *w = new PromiseWorker(env, std::move(work), std::move(done));
  Napi::Promise promise = w->deferred_.Promise();
  w->Queue();
  return promise;
}

void PromiseWorker::Execute() {
  try {
    work_();
  } catch (const BadInput &e) {
    code_ = "BAD_INPUT";
    SetError(e.what());
  } catch (const Aborted &e) {
    code_ = "ABORTED";
    SetError(e.what());
  } catch (const std::exception &e) {
    SetError(e.what());
  } catch (...) {
    SetError("unknown native error");
  }
}

void PromiseWorker::OnOK() {
  Napi::Env env = Env();
  try {
    deferred_.Resolve(done_(env));
  } catch (const Napi::Error &e) {
    deferred_.Reject(e.Value());
  }
}

void PromiseWorker::OnError(const Napi::Error &error) {
  Napi::Object value = error.Value();
  value.Set("code", Napi::String::New(Env(), code_));
  deferred_.Reject(value);
}

}  // namespace llmsrv
