// llama.cpp, ggml and mtmd log messages: warnings and errors to stderr, errors kept per thread.
#pragma once
#include <string>

namespace llmsrv {

/** Routes llama.cpp's, ggml's and mtmd's logs here (once per process). */
void install_log_sink();

/** A warning of the addon's own, in the same format as llama.cpp's. */
void log_warning(const std::string &line);

/** Starts collecting the error messages logged on this thread (a native call's failure). */
void begin_error_capture();

/** The error messages logged on this thread since begin_error_capture(), joined with "; ". */
std::string take_captured_errors();

}  // namespace llmsrv
