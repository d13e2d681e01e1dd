// A text prompt evaluated in parts on one sequence: what its cache holds kept, the rest appended.
#include "text-prompt.h"

#include <mutex>

#include "decode.h"
#include "log-sink.h"

namespace llmsrv {

llama_pos keep_prefix(ModelState &state, int seq, const std::vector<llama_token> &tokens) {
  SequenceState &s = state.sequence(seq);
  std::lock_guard<std::mutex> guard(state.lock);
  s.logits.clear();
  size_t keep = 0;
  if (s.cache_known()) {
    while (keep < s.cached.size() && keep < tokens.size() && s.cached[keep] == tokens[keep]) {
      keep++;
    }
  }
  if (keep >= tokens.size()) keep = tokens.empty() ? 0 : tokens.size() - 1;
  llama_memory_t mem = llama_get_memory(state.ctx);
  if (keep == 0 || !llama_memory_seq_rm(mem, seq, static_cast<llama_pos>(keep), -1)) {
    llama_memory_seq_rm(mem, seq, -1, -1);
    keep = 0;
  }
  s.n_past = static_cast<llama_pos>(keep);
  s.cached.resize(keep);
  return s.n_past;
}

void append_tokens(ModelState &state, int seq, const std::vector<llama_token> &tokens, bool logits) {
  SequenceState &s = state.sequence(seq);
  std::lock_guard<std::mutex> guard(state.lock);
  begin_error_capture();
  DecodingScope scope(state, seq);
  // Known again once the decode is over: what got in (all of it, or the batches before an abort).
  const bool known = s.cache_known();
  std::vector<llama_token> held = std::move(s.cached);
  s.cached.clear();
  s.logits.clear();
  const llama_pos start = s.n_past;
  try {
    decode_tokens(state, seq, s, tokens, logits);
  } catch (...) {
    // The batches decoded before an abort stay (llama.cpp drops the one it stopped in).
    if (known) {
      held.insert(held.end(), tokens.begin(), tokens.begin() + (s.n_past - start));
      s.cached = std::move(held);
    }
    throw;
  }
  if (logits) keep_logits(state, s);
  if (known) {
    held.insert(held.end(), tokens.begin(), tokens.end());
    s.cached = std::move(held);
  }
}

}  // namespace llmsrv
