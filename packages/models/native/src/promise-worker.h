// Runs a native call on libuv's thread pool and settles a JS promise with its result.
#pragma once
#include <functional>
#include <string>

#include <napi.h>

namespace llmsrv {

/**
 * A call run off the JS thread: `work` runs on a pool thread (it must not touch JS values),
 * `done` turns its result into a JS value on the JS thread. An exception thrown by `work`
 * rejects the promise with an Error whose `code` is BAD_INPUT, ABORTED or NATIVE_ERROR.
 */
class PromiseWorker : public Napi::AsyncWorker {
 public:
  using Work = std::function<void()>;
  using Done = std::function<Napi::Value(Napi::Env)>;

  static Napi::Promise Run(Napi::Env env, Work work, Done done);

 protected:
  void Execute() override;
  void OnOK() override;
  void OnError(const Napi::Error &error) override;

 private:
  PromiseWorker(Napi::Env env, Work work, Done done);
  Napi::Promise::Deferred deferred_;
  Work work_;
  Done done_;
  std::string code_ = "NATIVE_ERROR";
};

}  // namespace llmsrv
