// Sampling a sequence's next token with llama.cpp's sampler chain.
#include "sampling.h"

#include "log-sink.h"
#include "media-prompt.h"

namespace llmsrv {

void configure_sampler(ModelState &state, int seq, const SamplerSettings &st,
                       const std::vector<llama_token> &history) {
  SequenceState &s = state.sequence(seq);
  begin_error_capture();
  llama_sampler *chain = llama_sampler_chain_init(llama_sampler_chain_default_params());
  if (!st.grammar.empty()) {
    llama_sampler *grammar = llama_sampler_init_grammar(state.vocab, st.grammar.c_str(), "root");
    if (!grammar) {
      llama_sampler_free(chain);
      std::string logged = take_captured_errors();
      throw BadInput("the output format's grammar does not parse" +
                     (logged.empty() ? "" : ": " + logged));
    }
    llama_sampler_chain_add(chain, grammar);
  }
  const bool penalize = st.repeat_last_n != 0 && (st.repeat_penalty != 1.0f ||
                                                  st.presence_penalty != 0.0f ||
                                                  st.frequency_penalty != 0.0f);
  // -1: the whole window, as in Ollama.
  const int32_t last_n = st.repeat_last_n < 0 ? static_cast<int32_t>(state.options.context_size)
                                              : st.repeat_last_n;
  if (penalize) {
    llama_sampler_chain_add(chain,
                            llama_sampler_init_penalties(state.n_vocab, last_n, st.repeat_penalty,
                                                         st.frequency_penalty, st.presence_penalty));
  }
  if (st.temperature <= 0.0f) {
    llama_sampler_chain_add(chain, llama_sampler_init_greedy());
  } else {
    if (st.top_k > 0) llama_sampler_chain_add(chain, llama_sampler_init_top_k(st.top_k));
    if (st.top_p < 1.0f) llama_sampler_chain_add(chain, llama_sampler_init_top_p(st.top_p, 1));
    if (st.min_p > 0.0f) llama_sampler_chain_add(chain, llama_sampler_init_min_p(st.min_p, 1));
    llama_sampler_chain_add(chain, llama_sampler_init_temp(st.temperature));
    llama_sampler_chain_add(chain, llama_sampler_init_dist(st.seed));
  }
  // Only the penalties learn from the prompt: a grammar constrains the answer alone.
  if (penalize) {
    llama_sampler *penalties = llama_sampler_chain_get(chain, st.grammar.empty() ? 0 : 1);
    for (llama_token t : history) llama_sampler_accept(penalties, t);
  }
  if (s.sampler) llama_sampler_free(s.sampler);
  s.sampler = chain;
}

llama_token sample_token(ModelState &state, int seq) {
  SequenceState &s = state.sequence(seq);
  if (!s.sampler) throw std::logic_error("no sampler configured for this sequence");
  if (s.logits.empty()) throw std::logic_error("nothing evaluated on this sequence");
  std::vector<llama_token_data> candidates(s.logits.size());
  for (size_t i = 0; i < s.logits.size(); i++) {
    candidates[i] = llama_token_data{static_cast<llama_token>(i), s.logits[i], 0.0f};
  }
  llama_token_data_array cur{candidates.data(), candidates.size(), -1, false};
  llama_sampler_apply(s.sampler, &cur);
  if (cur.selected < 0 || static_cast<size_t>(cur.selected) >= cur.size) {
    throw std::runtime_error("the sampler selected no token (the grammar allows none here)");
  }
  const llama_token token = cur.data[cur.selected].id;
  llama_sampler_accept(s.sampler, token);
  return token;
}

}  // namespace llmsrv
