// One model's contexts compute one at a time, in the order they asked, on one thread pool.
#pragma once
#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace llmsrv {

/**
 * A model's generating context and its embeddings context (a second context on the same
 * weights) each used 2 threads of their own: a generation step and an embedding decode at
 * once put 4 threads on a 2-core machine, and ggml's threads wait for each other at every
 * operation, so a preempted one stalls the rest (the demo model generated 20-30 tokens/s
 * while a client embedded, 500 alone). Where their threads together exceed the cores, the
 * contexts share these turns and one thread pool: one graph at a time, first come first
 * served (a generation step waits for at most the embedding decode in progress, and an
 * embedding call cannot hold the cores for all its groups while steps wait). Where they fit
 * (1 thread each on 2 cores), they compute side by side: turns would only make each wait.
 */
class ComputeTurns {
 public:
  /** Holds a turn for its lifetime. */
  class Turn {
   public:
    explicit Turn(ComputeTurns &turns);
    ~Turn();
    Turn(const Turn &) = delete;
    Turn &operator=(const Turn &) = delete;

   private:
    ComputeTurns &turns_;
  };

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  uint64_t next_ticket_ = 0;
  uint64_t serving_ = 0;
};

}  // namespace llmsrv
