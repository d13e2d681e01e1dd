// A prompt with images and audio: decoded, split into chunks by mtmd, and evaluated on one sequence.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "model-state.h"
#include "native-errors.h"

namespace llmsrv {

/** One chunk of a prepared prompt: text tokens, or an image or audio clip's embeddings. */
struct ChunkSummary {
  /** "text", "image" or "audio". */
  std::string type;
  /** Text chunks: their tokens. */
  std::vector<llama_token> tokens;
  /** Media chunks: how many tokens (embeddings) and positions they take. */
  size_t n_tokens = 0;
  llama_pos n_pos = 0;
};

/** Raw bytes of one image or audio clip. */
using MediaBytes = std::vector<unsigned char>;

/**
 * Decodes `media` (PNG/JPEG/... images, WAV/MP3/FLAC audio) and splits `text`, whose
 * mtmd_default_marker() occurrences place them in order, into chunks kept on sequence `seq`
 * (text tokenized with special tokens parsed, nothing added). Throws BadInput naming the
 * media index that cannot be decoded.
 */
std::vector<ChunkSummary> prepare_prompt(ModelState &state, int seq, const std::string &text,
                                         const std::vector<MediaBytes> &media);

/** One item to evaluate: tokens, or the index of a prepared media chunk. */
struct EvalItem {
  std::vector<llama_token> tokens;
  int chunk = -1;
};

/**
 * Evaluates `items` on sequence `seq` from position 0, keeping the logits after the last one;
 * returns the number of tokens (text and media) the sequence then holds. Items that are all
 * text keep what the sequence's cache holds of them (text-prompt.h). Throws Aborted when the
 * sequence's abort flag was raised.
 */
size_t evaluate_prompt(ModelState &state, int seq, const std::vector<EvalItem> &items);

/** Removes the sequence's tokens from the KV cache. */
void clear_sequence(ModelState &state, int seq);

}  // namespace llmsrv
