// Embeddings of many texts at once: each text its own sequence, several in one decode.
#include "embedding.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "decode.h"
#include "log-sink.h"
#include "media-prompt.h"

namespace llmsrv {

namespace {

/**
 * Tokens one decode of several texts holds on the CPU. 256 embedded as fast as 512 on the demo
 * model (the weights are read per decode, but 8 texts of 30 tokens already fill the cores)
 * and faster where attention dominates (stories260K: 262 against 239 rows/s), and a
 * generation step waiting for its turn (compute-turns.h) waits half as long.
 */
constexpr size_t kCpuGroupTokens = 256;

/**
 * Empties the cache after a group: the next one starts every sequence at position 0 again.
 * Only the cells are reset. Zeroing the buffers too (clear's `data`) wrote the whole window's
 * keys and values, 16 MB for the demo model, on every call: what the cells held stays, and
 * attention never reads a cell outside its sequence (the mask), so no vector changes.
 */
void forget_group(ModelState &state) {
  llama_memory_clear(llama_get_memory(state.ctx), false);
}

/** Clears the cache and throws for a failed llama_decode (2: aborted). */
void decode_failed(ModelState &state, int32_t rc) {
  llama_memory_clear(llama_get_memory(state.ctx), true);
  if (rc == 2) throw Aborted();
  std::string logged = take_captured_errors();
  throw std::runtime_error("llama_decode failed (" + std::to_string(rc) + ")" +
                           (logged.empty() ? "" : ": " + logged));
}

/**
 * Decodes texts[first, last) as sequences 0.. of one batch. `last_only`: only each text's
 * last token is an output (the hidden-state capture); else every token is (pooling reads
 * them all, and an embeddings context outputs every token anyway). Returns the batch index
 * of each text's last token.
 */
std::vector<int32_t> decode_group(ModelState &state, const std::vector<std::vector<llama_token>> &texts,
                                  size_t first, size_t last, bool last_only) {
  size_t n_tokens = 0;
  for (size_t i = first; i < last; i++) n_tokens += texts[i].size();
  llama_batch batch = llama_batch_init(static_cast<int32_t>(n_tokens), 0, 1);
  std::vector<int32_t> last_index;
  for (size_t i = first; i < last; i++) {
    const auto &tokens = texts[i];
    for (size_t p = 0; p < tokens.size(); p++) {
      const int j = batch.n_tokens++;
      batch.token[j] = tokens[p];
      batch.pos[j] = static_cast<llama_pos>(p);
      batch.n_seq_id[j] = 1;
      batch.seq_id[j][0] = static_cast<llama_seq_id>(i - first);
      batch.logits[j] = !last_only || p + 1 == tokens.size();
    }
    last_index.push_back(batch.n_tokens - 1);
  }
  const int32_t rc = decode_in_turn(state, batch);
  llama_batch_free(batch);
  if (rc != 0) decode_failed(state, rc);
  return last_index;
}

/**
 * The group's vectors through the capture: true when they were read, false when this
 * model's graph does not expose them as expected (the context then embeds as llama.cpp
 * does from here on, once logged).
 */
bool embed_group_captured(ModelState &state, const std::vector<std::vector<llama_token>> &texts,
                          size_t first, size_t last, std::vector<std::vector<float>> &out) {
  HiddenCapture &capture = state.capture;
  capture.rows.clear();
  capture.armed = true;
  try {
    decode_group(state, texts, first, last, true);
  } catch (...) {
    capture.armed = false;
    throw;
  }
  capture.armed = false;
  forget_group(state);
  if (capture.unreadable || capture.row_count() != last - first) {
    log_warning("embeddings: this model's final hidden states cannot be read during the decode; "
                "computing them with every token's logits instead");
    capture.enabled = false;
    llama_set_embeddings(state.ctx, true);
    return false;
  }
  const auto width = static_cast<size_t>(capture.width);
  for (size_t r = 0; r < last - first; r++) {
    const float *row = capture.rows.data() + r * width;
    out.emplace_back(row, row + width);
  }
  return true;
}

/** Decodes texts[first, last) together and appends their vectors. */
void embed_group(ModelState &state, const std::vector<std::vector<llama_token>> &texts,
                 size_t first, size_t last, std::vector<std::vector<float>> &out) {
  if (state.capture.enabled && embed_group_captured(state, texts, first, last, out)) return;
  const std::vector<int32_t> last_index = decode_group(state, texts, first, last, false);
  llama_memory_t memory = llama_get_memory(state.ctx);
  const bool pooled = llama_pooling_type(state.ctx) != LLAMA_POOLING_TYPE_NONE;
  const int n_embd = llama_model_n_embd_out(state.model);
  for (size_t i = first; i < last; i++) {
    const float *v = pooled ? llama_get_embeddings_seq(state.ctx, static_cast<llama_seq_id>(i - first))
                            : llama_get_embeddings_ith(state.ctx, last_index[i - first]);
    if (v == nullptr) {
      llama_memory_clear(memory, true);
      throw std::runtime_error("llama.cpp returned no embedding for input " + std::to_string(i));
    }
    out.emplace_back(v, v + n_embd);
  }
  forget_group(state);
}

}  // namespace

std::vector<std::vector<float>> embed_texts(ModelState &state,
                                            const std::vector<std::vector<llama_token>> &texts) {
  if (!state.options.embeddings) throw std::logic_error("the model was not loaded for embeddings");
  // Texts share a decode up to one ubatch of tokens: attention over a shared window grows
  // with the square of the group, so larger groups cost a CPU more than they save. A longer
  // text (up to the batch size, the window) is decoded alone.
  const size_t budget = llama_n_batch(state.ctx);
  const size_t group_tokens = state.options.gpu_layers == 0
                                  ? std::min<size_t>(llama_n_ubatch(state.ctx), kCpuGroupTokens)
                                  : llama_n_ubatch(state.ctx);
  const size_t max_seqs = llama_n_seq_max(state.ctx);
  for (size_t i = 0; i < texts.size(); i++) {
    if (texts[i].empty() || texts[i].size() > budget) {
      throw BadInput("input " + std::to_string(i) + " has " +
                                  std::to_string(texts[i].size()) + " tokens; 1 to " +
                                  std::to_string(budget) + " fit");
    }
  }
  std::vector<std::vector<float>> out;
  out.reserve(texts.size());
  std::lock_guard<std::mutex> guard(state.lock);
  begin_error_capture();
  // Sequence 0's abort flag stops the decode in progress (the caller's abort(0)).
  state.decoding.store(0);
  size_t first = 0;
  while (first < texts.size()) {
    size_t last = first;
    size_t n_tokens = 0;
    while (last < texts.size() && last - first < max_seqs &&
           (last == first || n_tokens + texts[last].size() <= group_tokens)) {
      n_tokens += texts[last].size();
      last++;
    }
    try {
      embed_group(state, texts, first, last, out);
    } catch (...) {
      state.decoding.store(-1);
      throw;
    }
    first = last;
  }
  state.decoding.store(-1);
  return out;
}

}  // namespace llmsrv
