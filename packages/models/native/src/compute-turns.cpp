// First come, first served turns at computing (compute-turns.h).
#include "compute-turns.h"

namespace llmsrv {

ComputeTurns::Turn::Turn(ComputeTurns &turns) : turns_(turns) {
  std::unique_lock<std::mutex> lock(turns_.mutex_);
  const uint64_t ticket = turns_.next_ticket_++;
  turns_.changed_.wait(lock, [&] { return turns_.serving_ == ticket; });
}

ComputeTurns::Turn::~Turn() {
  {
    std::lock_guard<std::mutex> lock(turns_.mutex_);
    turns_.serving_++;
  }
  turns_.changed_.notify_all();
}

}  // namespace llmsrv
