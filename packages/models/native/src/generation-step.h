// One generation step of several sequences: their next tokens decoded in one llama_decode.
#pragma once
#include <vector>

#include "model-state.h"

namespace llmsrv {

/**
 * Decodes each `feeds[i]` (a token, or negative for none) at sequence `seqs[i]`'s next
 * position, all of them in one llama_decode (llama.cpp computes the model once for the
 * batch), and keeps each sequence's logits. Throws runtime_error when the decode fails (the
 * context is full); those sequences are then cleared.
 */
void evaluate_step(ModelState &state, const std::vector<int> &seqs,
                   const std::vector<llama_token> &feeds);

}  // namespace llmsrv
