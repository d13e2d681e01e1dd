// The options object of loadModel() and embeddingContext(), read into LoadOptions.
#pragma once
#include <napi.h>

#include "model-state.h"

namespace llmsrv {

/**
 * Reads and checks the JS options (throws a JS TypeError or RangeError naming the field);
 * `needs_model`: modelPath is required (a second context takes its parent's).
 */
LoadOptions load_options_of(Napi::Env env, const Napi::Object &o, bool needs_model = true);

}  // namespace llmsrv
