// Embeddings of many texts at once: each text its own sequence, several in one decode.
#pragma once
#include <vector>

#include "model-state.h"

namespace llmsrv {

/**
 * The embedding of each token list, in order. Texts are packed into decodes of at most the
 * context's batch size and sequence count; a text that fits nowhere alone throws
 * BadInput (a 400). The model must have been loaded with `embeddings` set. Pooled
 * models give their sequence's pooled vector; others (pooling none) the last token's.
 */
std::vector<std::vector<float>> embed_texts(ModelState &state,
                                            const std::vector<std::vector<llama_token>> &texts);

}  // namespace llmsrv
