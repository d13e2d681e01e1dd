// Reads result_norm's rows during a decode (hidden-capture.h).
#include "hidden-capture.h"

#include "ggml-backend.h"

namespace llmsrv {

bool HiddenCapture::on_tensor(ggml_tensor *t, bool ask, void *data) {
  auto *capture = static_cast<HiddenCapture *>(data);
  const bool wanted = capture->armed && capture->tensor == ggml_get_name(t);
  // Asked whether to stop after this node: only for the one we read.
  if (ask) return wanted;
  if (!wanted) return true;
  if (t->type != GGML_TYPE_F32 || !ggml_is_contiguous(t) || t->ne[0] != capture->width) {
    capture->unreadable = true;
    return true;
  }
  const size_t count = static_cast<size_t>(ggml_nelements(t));
  const size_t before = capture->rows.size();
  capture->rows.resize(before + count);
  // The scheduler has synchronized the backend: the tensor's data is complete, on any device.
  if (count > 0) ggml_backend_tensor_get(t, capture->rows.data() + before, 0, count * sizeof(float));
  return true;
}

}  // namespace llmsrv
