#!/usr/bin/env bash
# The models package's GPU check, run on a machine with an NVIDIA GPU: what node-llama-cpp
# detects, the GPU test file, and the benchmark on the GPU and then on the CPU of that machine.
#
# Usage: packages/models/scripts/gpu-check.sh LOG_DIR
# Needs `node` on PATH and the repository's node_modules (with @node-llama-cpp/linux-x64-cuda);
# builds dist/ with the repository's own TypeScript when it is missing. Paths are the
# repository's own; nothing is downloaded. Writes at most 7 files into LOG_DIR:
#   gpu-check.log      everything below, in order (also printed)
#   nvidia-smi.txt     the GPU and driver
#   backend.txt        the CUDA libraries found, and node-llama-cpp's choice for each LLMSRV_GPU
#   gpu-test.log       node --test on dist/test/gpu.test.js and gpu-vision.test.js
#   models-tests.log   the whole models suite on the GPU (only with GPU_CHECK_ALL_TESTS=1)
#   BENCHMARKS-gpu.md  npm run bench with BENCH_GPU=auto (BENCH_GPU to change it)
#   BENCHMARKS-cpu.md  the same benchmark with the CPU only (skip: GPU_CHECK_CPU_BENCH=0)
# Benchmark rounds: BENCH_REPS (default here 5) and BENCH_PARALLEL_REPS (default here 3).
# Exit status: 0 when the GPU tests ran and passed, 1 otherwise (a skip counts as a failure).
set -u -o pipefail

if [ $# -ne 1 ]; then
  echo "usage: $0 LOG_DIR" >&2
  exit 2
fi
mkdir -p "$1" || exit 2
LOGS=$(cd "$1" && pwd)
cd "$(dirname "$0")/../../.." || exit 2
exec > >(tee "$LOGS/gpu-check.log") 2>&1

step() { printf '\n=== %s (%s)\n' "$*" "$(date -u +%H:%M:%S)"; }
status=0

step "machine"
uname -a
echo "node $(node --version) at $(command -v node)"
nproc

step "nvidia-smi"
if command -v nvidia-smi >/dev/null; then
  nvidia-smi 2>&1 | tee "$LOGS/nvidia-smi.txt"
else
  echo "nvidia-smi not found" | tee "$LOGS/nvidia-smi.txt"
fi

step "CUDA libraries"
# node-llama-cpp looks for the driver (libnvidia-ml, libcuda) and CUDA 13's runtime
# (libcudart, libcublas, libcublasLt) in LD_LIBRARY_PATH and a few fixed folders, and the
# dynamic loader must find them for libggml-cuda.so: add every folder that holds one.
{
  ldconfig -p 2>/dev/null | grep -E 'lib(cuda|cudart|cublas|cublasLt|nvidia-ml|vulkan)\.so' || echo "(none in ldconfig's cache)"
  for lib in libnvidia-ml.so.1 libcuda.so.1 libcudart.so.13 libcublas.so.13 libcublasLt.so.13; do
    found=$(find /usr/local/nvidia /usr/local/cuda /usr/local/cuda-13* /usr/lib64 /usr/lib/x86_64-linux-gnu \
      /usr/local/lib /opt -maxdepth 6 -name "$lib" 2>/dev/null | grep -v '/stubs/' | head -n 1)
    echo "$lib: ${found:-not found}"
    if [ -n "$found" ]; then
      dir=$(dirname "$found")
      case ":${LD_LIBRARY_PATH:-}:" in
        *":$dir:"*) ;;
        *) export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" ;;
      esac
    fi
  done
  echo "LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}"
  echo "CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES-(unset)}"
} > "$LOGS/backend.txt" 2>&1 # a redirection, not a pipe: the exports stay in this shell
cat "$LOGS/backend.txt"

step "build"
if [ -f packages/models/dist/src/runtime/llama-backend.js ] && [ -f packages/models/dist/test/gpu.test.js ]; then
  echo "dist/ present"
else
  node node_modules/typescript/bin/tsc -b || { echo "build failed"; exit 1; }
fi

step "node-llama-cpp's backend for each LLMSRV_GPU"
for mode in auto cuda vulkan off; do
  # The library as a runner opens it (src/runtime/llama-backend.ts), in a process of its own.
  node packages/models/scripts/print-backend.mjs "$mode" 2>&1 | tee -a "$LOGS/backend.txt"
done

step "GPU tests (packages/models/dist/test/gpu.test.js, gpu-vision.test.js)"
node --test --test-reporter=spec packages/models/dist/test/gpu.test.js \
  packages/models/dist/test/gpu-vision.test.js 2>&1 | tee "$LOGS/gpu-test.log"
test_rc=${PIPESTATUS[0]}
if [ "$test_rc" -ne 0 ]; then
  echo "GPU tests FAILED (exit $test_rc)"
  status=1
elif ! grep -Eq '^. pass [1-9]' "$LOGS/gpu-test.log"; then
  echo "GPU tests SKIPPED: no GPU was found (see backend.txt)"
  status=1
else
  echo "GPU tests passed"
fi

if [ "${GPU_CHECK_ALL_TESTS:-0}" = "1" ]; then
  step "the whole models suite, LLMSRV_GPU=auto (the default)"
  node scripts/run-tests.mjs packages/models > "$LOGS/models-tests.log" 2>&1
  echo "models suite exit status: $? (tail below; all of it in models-tests.log)"
  tail -n 40 "$LOGS/models-tests.log"
fi

export BENCH_REPS="${BENCH_REPS:-5}" BENCH_PARALLEL_REPS="${BENCH_PARALLEL_REPS:-3}"
step "benchmark on the GPU (BENCH_GPU=${BENCH_GPU:-auto})"
BENCH_GPU="${BENCH_GPU:-auto}" BENCH_OUT="$LOGS/BENCHMARKS-gpu.md" \
  node packages/models/dist/bench/run-bench.js > /dev/null
echo "exit status $?; report in BENCHMARKS-gpu.md:"
grep -E '^(## |Backend:|\| )' "$LOGS/BENCHMARKS-gpu.md" 2>/dev/null

if [ "${GPU_CHECK_CPU_BENCH:-1}" != "0" ]; then
  step "benchmark on the CPU of the same machine (BENCH_GPU=off)"
  BENCH_GPU=off BENCH_OUT="$LOGS/BENCHMARKS-cpu.md" node packages/models/dist/bench/run-bench.js > /dev/null
  echo "exit status $?; report in BENCHMARKS-cpu.md:"
  grep -E '^(## |Backend:|\| )' "$LOGS/BENCHMARKS-cpu.md" 2>/dev/null
fi

step "done: exit status $status"
exit "$status"
