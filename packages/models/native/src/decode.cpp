// Decoding text tokens into one sequence of a context: positions, logits kept, aborts honoured.
#include "decode.h"

#include <algorithm>
#include <string>

#include "log-sink.h"

namespace llmsrv {

int32_t decode_in_turn(ModelState &state, const llama_batch &batch) {
  ComputeTurns::Turn turn(*state.turns);
  return llama_decode(state.ctx, batch);
}

void keep_logits(ModelState &state, SequenceState &s) {
  const float *logits = llama_get_logits_ith(state.ctx, -1);
  if (!logits) throw std::runtime_error("llama.cpp returned no logits");
  s.logits.assign(logits, logits + state.n_vocab);
}

void decode_tokens(ModelState &state, int seq, SequenceState &s,
                   const std::vector<llama_token> &tokens, bool logits_last) {
  const size_t n_batch = state.options.batch_size;
  llama_batch batch = llama_batch_init(static_cast<int32_t>(n_batch), 0, 1);
  try {
    for (size_t start = 0; start < tokens.size(); start += n_batch) {
      const size_t end = std::min(tokens.size(), start + n_batch);
      batch.n_tokens = 0;
      for (size_t i = start; i < end; i++) {
        const int j = batch.n_tokens++;
        batch.token[j] = tokens[i];
        batch.pos[j] = s.n_past + static_cast<llama_pos>(i - start);
        batch.n_seq_id[j] = 1;
        batch.seq_id[j][0] = seq;
        batch.logits[j] = logits_last && i + 1 == tokens.size();
      }
      const int32_t rc = decode_in_turn(state, batch);
      if (rc == 2) throw Aborted();
      if (rc != 0) {
        std::string logged = take_captured_errors();
        throw std::runtime_error("llama_decode failed (" + std::to_string(rc) + ")" +
                                 (logged.empty() ? "" : ": " + logged));
      }
      s.n_past += static_cast<llama_pos>(end - start);
    }
  } catch (...) {
    llama_batch_free(batch);
    throw;
  }
  llama_batch_free(batch);
}

}  // namespace llmsrv
