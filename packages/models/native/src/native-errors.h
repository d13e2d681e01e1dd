// The native errors the promise worker turns into JS error codes (BAD_INPUT, ABORTED).
#pragma once
#include <stdexcept>

namespace llmsrv {

/** Thrown for input the caller sent (undecodable media, a marker count mismatch): a 400. */
struct BadInput : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/** Thrown when the sequence's abort flag stopped a decode. */
struct Aborted : std::runtime_error {
  Aborted() : std::runtime_error("aborted") {}
};

}  // namespace llmsrv
