// Decoding text tokens into one sequence of a context: positions, logits kept, aborts honoured.
#pragma once
#include <vector>

#include "model-state.h"
#include "native-errors.h"

namespace llmsrv {

/** Marks `seq` as the one being decoded (its abort flag counts) for the scope's duration. */
struct DecodingScope {
  ModelState &state;
  DecodingScope(ModelState &s, int seq) : state(s) { state.decoding.store(seq); }
  ~DecodingScope() { state.decoding.store(-1); }
};

/**
 * llama_decode in the model's compute turn (compute-turns.h): every graph of the model's
 * contexts goes through here, or takes a turn itself.
 */
int32_t decode_in_turn(ModelState &state, const llama_batch &batch);

/** Copies the logits of the context's last output into the sequence (others decode next). */
void keep_logits(ModelState &state, SequenceState &s);

/**
 * Decodes text tokens from the sequence's position in batches; logits only for the last one
 * when `logits_last`. Throws Aborted when the sequence's abort flag stopped it.
 */
void decode_tokens(ModelState &state, int seq, SequenceState &s,
                   const std::vector<llama_token> &tokens, bool logits_last);

}  // namespace llmsrv
