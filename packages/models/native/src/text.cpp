// Text to tokens and back with the model's vocabulary.
#include "text.h"

#include <stdexcept>

namespace llmsrv {

std::vector<llama_token> tokenize(const llama_vocab *vocab, const std::string &text) {
  std::vector<llama_token> out(text.size() + 2);
  int32_t n = llama_tokenize(vocab, text.data(), static_cast<int32_t>(text.size()), out.data(),
                             static_cast<int32_t>(out.size()), false, true);
  if (n < 0) {
    out.resize(static_cast<size_t>(-n));
    n = llama_tokenize(vocab, text.data(), static_cast<int32_t>(text.size()), out.data(),
                       static_cast<int32_t>(out.size()), false, true);
  }
  if (n < 0) throw std::runtime_error("tokenizing failed");
  out.resize(static_cast<size_t>(n));
  return out;
}

namespace {

std::string bytes_of(const llama_vocab *vocab, const std::vector<llama_token> &tokens) {
  if (tokens.empty()) return "";
  std::string out(tokens.size() * 8 + 16, '\0');
  auto run = [&] {
    return llama_detokenize(vocab, tokens.data(), static_cast<int32_t>(tokens.size()), out.data(),
                            static_cast<int32_t>(out.size()), false, true);
  };
  int32_t n = run();
  if (n < 0) {
    out.resize(static_cast<size_t>(-n));
    n = run();
  }
  if (n < 0) throw std::runtime_error("detokenizing failed");
  out.resize(static_cast<size_t>(n));
  return out;
}

}  // namespace

std::string detokenize(const llama_vocab *vocab, const std::vector<llama_token> &tokens,
                       const std::vector<llama_token> &context) {
  if (context.empty()) return bytes_of(vocab, tokens);
  std::vector<llama_token> all(context);
  all.insert(all.end(), tokens.begin(), tokens.end());
  const std::string whole = bytes_of(vocab, all);
  const std::string before = bytes_of(vocab, context);
  // The context's bytes are a prefix of the whole unless a merge crossed the boundary.
  if (whole.compare(0, before.size(), before) == 0) return whole.substr(before.size());
  return bytes_of(vocab, tokens);
}

}  // namespace llmsrv
