// Text to tokens and back with the model's vocabulary.
#pragma once
#include <string>
#include <vector>

#include "llama.h"

namespace llmsrv {

/** Tokens of `text`, special tokens parsed, nothing added (the caller places BOS). */
std::vector<llama_token> tokenize(const llama_vocab *vocab, const std::string &text);

/**
 * The bytes `tokens` stand for when they follow `context` (special tokens rendered): the
 * detokenization of context + tokens less that of the context, so a first token keeps its
 * leading space as it would inside the text. Bytes, not text: a UTF-8 character may be split.
 */
std::string detokenize(const llama_vocab *vocab, const std::vector<llama_token> &tokens,
                       const std::vector<llama_token> &context);

}  // namespace llmsrv
