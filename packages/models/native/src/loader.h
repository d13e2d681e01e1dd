// Loads a model, its projector and a context with one sequence per slot.
#pragma once
#include <memory>
#include <string>

#include "model-state.h"

namespace llmsrv {

/** Loads ggml's backends from the variant's library folder (once per process). */
void init_backends(const std::string &lib_dir);

/** Loads everything; throws std::runtime_error naming what failed (llama.cpp's own words). */
std::unique_ptr<ModelState> load_model(const LoadOptions &options);

/**
 * A second context on `parent`'s model (its weights loaded once), with `options`' context
 * settings (an embeddings context, say); no projector, no adapters. It keeps the parent alive.
 */
std::unique_ptr<ModelState> load_context(std::shared_ptr<ModelState> parent, LoadOptions options);

/** Bytes of the model's weights, KV cache and compute buffers held in GPU (non-host) memory. */
size_t vram_bytes(const ModelState &state);

}  // namespace llmsrv
