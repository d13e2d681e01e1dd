// A decode's final hidden states, read as llama.cpp computes them (embeddings without logits).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "ggml.h"

namespace llmsrv {

/**
 * An embeddings context makes llama.cpp output every token of a decode, and a generative
 * model then projects each one onto its whole vocabulary: for the demo model half the work
 * of an embedding went into logits nobody reads. A model that does not pool (its embedding
 * is the last token's hidden state) needs one row per text. So such a context decodes with
 * embeddings off, only each text's last token as an output, and this reads the rows of the
 * graph's "result_norm" tensor (what llama.cpp returns as a token's embedding) through the
 * context's eval callback, before the vocabulary projection reuses its memory.
 */
struct HiddenCapture {
  /** The context embeds through this capture (pooling none); set once after creation. */
  bool enabled = false;
  /** The graph tensor read ("result_norm" unless a test names another). */
  std::string tensor;
  /** Rows are read only while an embedding decode runs. */
  bool armed = false;
  /** Width of a row: the model's embedding length. */
  int64_t width = 0;
  /** The rows read so far, `width` floats each, in the order of the decode's outputs. */
  std::vector<float> rows;
  /** A result_norm tensor that is not contiguous F32 rows of `width`: use the slow path. */
  bool unreadable = false;

  size_t row_count() const { return width > 0 ? rows.size() / static_cast<size_t>(width) : 0; }

  /** ggml's eval callback (llama_context_params.cb_eval) with this capture as its data. */
  static bool on_tensor(ggml_tensor *t, bool ask, void *data);
};

}  // namespace llmsrv
