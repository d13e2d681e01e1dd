// One generation step of several sequences: their next tokens decoded in one llama_decode.
#include "generation-step.h"

#include <mutex>
#include <string>

#include "decode.h"
#include "log-sink.h"

namespace llmsrv {

void evaluate_step(ModelState &state, const std::vector<int> &seqs,
                   const std::vector<llama_token> &feeds) {
  struct Output {
    int seq;
    SequenceState *s;
    int32_t index;
    llama_token token;
  };
  std::lock_guard<std::mutex> guard(state.lock);
  begin_error_capture();
  std::vector<Output> outputs;
  llama_batch batch = llama_batch_init(static_cast<int32_t>(seqs.size()), 0, 1);
  for (size_t i = 0; i < seqs.size(); i++) {
    if (feeds[i] < 0) continue;
    SequenceState &s = state.sequence(seqs[i]);
    const int j = batch.n_tokens++;
    batch.token[j] = feeds[i];
    batch.pos[j] = s.n_past;
    batch.n_seq_id[j] = 1;
    batch.seq_id[j][0] = seqs[i];
    batch.logits[j] = true;
    outputs.push_back({seqs[i], &s, j, feeds[i]});
  }
  const int32_t rc = outputs.empty() ? 0 : decode_in_turn(state, batch);
  llama_batch_free(batch);
  if (rc != 0) {
    // What the caches hold after a failed decode is not known: they start again empty.
    for (const Output &o : outputs) {
      llama_memory_seq_rm(llama_get_memory(state.ctx), o.seq, -1, -1);
      o.s->n_past = 0;
      o.s->cached.clear();
      o.s->logits.clear();
    }
    std::string logged = take_captured_errors();
    throw std::runtime_error("llama_decode failed (" + std::to_string(rc) + ")" +
                             (logged.empty() ? "" : ": " + logged));
  }
  for (const Output &o : outputs) {
    const float *logits = llama_get_logits_ith(state.ctx, o.index);
    if (!logits) throw std::runtime_error("llama.cpp returned no logits");
    o.s->logits.assign(logits, logits + state.n_vocab);
    const bool known = o.s->cache_known();
    o.s->n_past++;
    if (known) o.s->cached.push_back(o.token);
  }
}

}  // namespace llmsrv
