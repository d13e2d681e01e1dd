// A prompt with images and audio: decoded, split into chunks by mtmd, and evaluated on one sequence.
#include "media-prompt.h"

#include <algorithm>
#include <cstring>

#include "decode.h"
#include "log-sink.h"
#include "mtmd-helper.h"
#include "text-prompt.h"

namespace llmsrv {

namespace {

/**
 * Encodes a media chunk and decodes its embeddings with the last one's logits kept: mtmd's
 * helper keeps none, and a prompt may end with an image. Only for plain causal positions
 * (no M-RoPE, no non-causal attention); the caller uses the helper otherwise.
 */
void decode_media_with_logits(ModelState &state, int seq, SequenceState &s,
                              const mtmd_input_chunk *chunk) {
  int32_t encoded;
  {
    ComputeTurns::Turn turn(*state.turns);
    encoded = mtmd_encode_chunk(state.mctx, chunk);
  }
  if (encoded != 0) {
    std::string logged = take_captured_errors();
    throw std::runtime_error("encoding media failed" + (logged.empty() ? "" : ": " + logged));
  }
  const float *embd = mtmd_get_output_embd(state.mctx);
  const size_t n_tokens = mtmd_input_chunk_get_n_tokens(chunk);
  const int n_embd = llama_model_n_embd_inp(state.model);
  const size_t n_batch = state.options.batch_size;
  llama_batch batch = llama_batch_init(static_cast<int32_t>(n_batch), n_embd, 1);
  try {
    for (size_t start = 0; start < n_tokens; start += n_batch) {
      const size_t end = std::min(n_tokens, start + n_batch);
      batch.n_tokens = static_cast<int32_t>(end - start);
      std::memcpy(batch.embd, embd + start * n_embd, (end - start) * n_embd * sizeof(float));
      for (size_t i = start; i < end; i++) {
        const size_t j = i - start;
        batch.pos[j] = s.n_past + static_cast<llama_pos>(j);
        batch.n_seq_id[j] = 1;
        batch.seq_id[j][0] = seq;
        batch.logits[j] = i + 1 == n_tokens;
      }
      const int32_t rc = decode_in_turn(state, batch);
      if (rc == 2) throw Aborted();
      if (rc != 0) throw std::runtime_error("llama_decode failed (" + std::to_string(rc) + ")");
      s.n_past += static_cast<llama_pos>(end - start);
    }
  } catch (...) {
    llama_batch_free(batch);
    throw;
  }
  llama_batch_free(batch);
}

}  // namespace

std::vector<ChunkSummary> prepare_prompt(ModelState &state, int seq, const std::string &text,
                                         const std::vector<MediaBytes> &media) {
  if (!state.mctx) throw BadInput("the model has no projector");
  SequenceState &s = state.sequence(seq);
  begin_error_capture();
  mtmd::bitmaps bitmaps;
  for (size_t i = 0; i < media.size(); i++) {
    const MediaBytes &bytes = media[i];
    mtmd_helper_bitmap_wrapper w = mtmd_helper_bitmap_init_from_buf(
        state.mctx, bytes.data(), bytes.size(), false, mtmd_helper_init_opt_default());
    if (!w.bitmap) {
      take_captured_errors();
      throw BadInput("image " + std::to_string(i) + " (" + std::to_string(bytes.size()) +
                     " bytes) is not an image or audio clip this model can decode " +
                     "(PNG, JPEG, BMP, GIF images; WAV, MP3, FLAC audio)");
    }
    const bool audio = mtmd_bitmap_is_audio(w.bitmap);
    if (audio && !mtmd_support_audio(state.mctx)) {
      mtmd_bitmap_free(w.bitmap);
      throw BadInput("media " + std::to_string(i) + " is audio, and this model's projector takes no audio");
    }
    if (!audio && !mtmd_support_vision(state.mctx)) {
      mtmd_bitmap_free(w.bitmap);
      throw BadInput("media " + std::to_string(i) + " is an image, and this model's projector takes no images");
    }
    // mtmd's audio preprocessing asserts (aborting the process) on fewer than 2 samples.
    const size_t samples = audio ? mtmd_bitmap_get_n_bytes(w.bitmap) / sizeof(float) : 0;
    if (audio && samples < 2) {
      mtmd_bitmap_free(w.bitmap);
      throw BadInput("media " + std::to_string(i) + " is audio of " + std::to_string(samples) +
                     " sample(s) after decoding; at least 2 are needed");
    }
    bitmaps.entries.emplace_back(w.bitmap);
  }
  mtmd_input_text input{text.c_str(), text.size(), false, true};
  mtmd::input_chunks chunks(mtmd_input_chunks_init());
  auto ptrs = bitmaps.c_ptr();
  const int32_t rc = mtmd_tokenize(state.mctx, chunks.ptr.get(), &input, ptrs.data(), ptrs.size());
  if (rc == 1) throw BadInput("the prompt's media markers do not match the media given");
  if (rc != 0) {
    std::string logged = take_captured_errors();
    throw BadInput("the media could not be preprocessed" + (logged.empty() ? "" : ": " + logged));
  }
  std::vector<ChunkSummary> out;
  for (size_t i = 0; i < chunks.size(); i++) {
    const mtmd_input_chunk *c = chunks[i];
    ChunkSummary sum;
    switch (mtmd_input_chunk_get_type(c)) {
      case MTMD_INPUT_CHUNK_TYPE_TEXT: {
        size_t n = 0;
        const llama_token *t = mtmd_input_chunk_get_tokens_text(c, &n);
        sum.type = "text";
        sum.tokens.assign(t, t + n);
        break;
      }
      case MTMD_INPUT_CHUNK_TYPE_IMAGE:
        sum.type = "image";
        break;
      default:
        sum.type = "audio";
        break;
    }
    sum.n_tokens = mtmd_input_chunk_get_n_tokens(c);
    sum.n_pos = mtmd_input_chunk_get_n_pos(c);
    out.push_back(std::move(sum));
  }
  std::lock_guard<std::mutex> guard(state.lock);
  s.chunks.ptr = std::move(chunks.ptr);
  return out;
}

namespace {

/** The items' tokens in order when they are all text, else nothing (`text_only` false). */
std::vector<llama_token> text_of(const std::vector<EvalItem> &items, bool &text_only) {
  std::vector<llama_token> flat;
  text_only = true;
  for (const EvalItem &item : items) {
    if (item.chunk >= 0) {
      text_only = false;
      return {};
    }
    flat.insert(flat.end(), item.tokens.begin(), item.tokens.end());
  }
  return flat;
}

}  // namespace

size_t evaluate_prompt(ModelState &state, int seq, const std::vector<EvalItem> &items) {
  SequenceState &s = state.sequence(seq);
  bool text_only = false;
  std::vector<llama_token> text = text_of(items, text_only);
  if (text_only && !text.empty()) {
    const llama_pos kept = keep_prefix(state, seq, text);
    append_tokens(state, seq, std::vector<llama_token>(text.begin() + kept, text.end()), true);
    return text.size();
  }
  std::lock_guard<std::mutex> guard(state.lock);
  begin_error_capture();
  DecodingScope scope(state, seq);
  s.logits.clear();
  s.cached.clear();
  llama_memory_seq_rm(llama_get_memory(state.ctx), seq, -1, -1);
  s.n_past = 0;
  size_t evaluated = 0;
  // The last item that evaluates anything: its last token's logits are kept.
  size_t last_item = 0;
  for (size_t i = 0; i < items.size(); i++) {
    if (items[i].chunk >= 0 || !items[i].tokens.empty()) last_item = i;
  }
  for (size_t i = 0; i < items.size(); i++) {
    const EvalItem &item = items[i];
    const bool last = i == last_item;
    if (item.chunk < 0) {
      if (item.tokens.empty()) continue;
      decode_tokens(state, seq, s, item.tokens, last);
      evaluated += item.tokens.size();
      continue;
    }
    if (static_cast<size_t>(item.chunk) >= s.chunks.size()) {
      throw std::out_of_range("no prepared chunk " + std::to_string(item.chunk));
    }
    const mtmd_input_chunk *c = s.chunks[item.chunk];
    if (s.abort.load()) throw Aborted();
    if (last && !mtmd_decode_use_mrope(state.mctx) && !mtmd_decode_use_non_causal(state.mctx, c)) {
      decode_media_with_logits(state, seq, s, c);
      evaluated += mtmd_input_chunk_get_n_tokens(c);
      continue;
    }
    if (last) throw BadInput("the prompt must not end with an image or audio clip for this model");
    llama_pos next = s.n_past;
    ComputeTurns::Turn turn(*state.turns);
    const int32_t rc = mtmd_helper_eval_chunk_single(
        state.mctx, state.ctx, c, s.n_past, seq, static_cast<int32_t>(state.options.batch_size),
        last, &next);
    if (s.abort.load()) throw Aborted();
    if (rc != 0) {
      std::string logged = take_captured_errors();
      throw std::runtime_error("evaluating media failed (" + std::to_string(rc) + ")" +
                               (logged.empty() ? "" : ": " + logged));
    }
    s.n_past = next;
    evaluated += mtmd_input_chunk_get_n_tokens(c);
  }
  if (evaluated > 0) keep_logits(state, s);
  return evaluated;
}

void clear_sequence(ModelState &state, int seq) {
  SequenceState &s = state.sequence(seq);
  std::lock_guard<std::mutex> guard(state.lock);
  llama_memory_seq_rm(llama_get_memory(state.ctx), seq, -1, -1);
  s.n_past = 0;
  s.logits.clear();
  s.cached.clear();
}

}  // namespace llmsrv
