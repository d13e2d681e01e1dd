// Sampling a sequence's next token with llama.cpp's sampler chain.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "model-state.h"

namespace llmsrv {

/** One request's sampling settings (already validated and defaulted by the server). */
struct SamplerSettings {
  float temperature = 0.8f;
  int32_t top_k = 40;
  float top_p = 0.9f;
  float min_p = 0.0f;
  float repeat_penalty = 1.0f;
  int32_t repeat_last_n = 64;
  float presence_penalty = 0.0f;
  float frequency_penalty = 0.0f;
  uint32_t seed = 0;
  /** A GBNF grammar (root rule `root`) constraining the output; empty: none. */
  std::string grammar;
};

/**
 * Builds the sequence's sampler chain (grammar, penalties, top-k, top-p, min-p, temperature,
 * seeded draw; greedy at temperature 0) and feeds it `history` (the prompt's tokens, for the
 * penalties). Throws BadInput when the grammar does not parse.
 */
void configure_sampler(ModelState &state, int seq, const SamplerSettings &settings,
                       const std::vector<llama_token> &history);

/** Samples from the sequence's kept logits and accepts the token into the chain. */
llama_token sample_token(ModelState &state, int seq);

}  // namespace llmsrv
