// llama.cpp, ggml and mtmd log messages: warnings and errors to stderr, errors kept per thread.
#include "log-sink.h"

#include <cstdio>
#include <mutex>

#include "ggml.h"
#include "llama.h"
#include "mtmd-helper.h"

namespace llmsrv {

namespace {

thread_local std::string captured;
thread_local std::string partial;
thread_local ggml_log_level partial_level = GGML_LOG_LEVEL_NONE;
std::mutex stderr_lock;

const char *level_name(ggml_log_level level) {
  return level == GGML_LOG_LEVEL_ERROR ? "error" : "warn";
}

/** One finished line: written as the runner's log lines are (llama-log.ts reads them back). */
void emit(ggml_log_level level, const std::string &line) {
  if (line.empty()) return;
  if (level == GGML_LOG_LEVEL_ERROR) {
    if (!captured.empty()) captured += "; ";
    captured += line;
  }
  std::lock_guard<std::mutex> guard(stderr_lock);
  std::fprintf(stderr, "[node-llama-cpp:%s] %s\n", level_name(level), line.c_str());
}

/** Messages arrive in pieces (GGML_LOG_LEVEL_CONT continues the previous one). */
void on_log(ggml_log_level level, const char *text, void *) {
  if (level == GGML_LOG_LEVEL_CONT) {
    level = partial_level;
  } else {
    if (!partial.empty()) emit(partial_level, partial);
    partial.clear();
    partial_level = level;
  }
  if (level != GGML_LOG_LEVEL_WARN && level != GGML_LOG_LEVEL_ERROR) return;
  partial += text;
  for (size_t nl = partial.find('\n'); nl != std::string::npos; nl = partial.find('\n')) {
    emit(level, partial.substr(0, nl));
    partial.erase(0, nl + 1);
  }
}

}  // namespace

void install_log_sink() {
  static std::once_flag once;
  std::call_once(once, [] {
    llama_log_set(on_log, nullptr);
    mtmd_helper_log_set(on_log, nullptr);
  });
}

void log_warning(const std::string &line) {
  emit(GGML_LOG_LEVEL_WARN, line);
}

void begin_error_capture() {
  captured.clear();
}

std::string take_captured_errors() {
  if (!partial.empty() && partial_level == GGML_LOG_LEVEL_ERROR) {
    emit(partial_level, partial);
    partial.clear();
  }
  std::string out;
  out.swap(captured);
  return out;
}

}  // namespace llmsrv
