// A text prompt evaluated in parts on one sequence: what its cache holds kept, the rest appended.
#pragma once
#include <vector>

#include "model-state.h"

namespace llmsrv {

/**
 * Keeps the start of `tokens` that the sequence's cache holds, all of them but the last at
 * most (decoded again for its logits), drops the rest of the cache, and returns how many were
 * kept: the position to append the rest at. Nothing is kept when the cache's tokens are not
 * known (media, a failed decode) or cannot lose a tail (recurrent models).
 */
llama_pos keep_prefix(ModelState &state, int seq, const std::vector<llama_token> &tokens);

/**
 * Decodes `tokens` at the sequence's next position, keeping the last one's logits when
 * `logits`. Throws Aborted when the sequence's abort flag stopped it; the batches decoded
 * before stay, and a next prompt can keep them.
 */
void append_tokens(ModelState &state, int seq, const std::vector<llama_token> &tokens, bool logits);

}  // namespace llmsrv
