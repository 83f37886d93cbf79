// Signal processing: DFT (17: axis attribute; 20: axis as an input, default
// -2), STFT, the Hann/Hamming/Blackman windows and MelWeightMatrix. The
// transformed axis takes dft_length when it is given, and n//2 + 1 for a
// onesided transform; the last dim holds the real and imaginary parts. An
// inverse onesided DFT (inverse real FFT) follows onnxruntime, with a warning.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "symshape/infer/helpers.hpp"
#include "symshape/infer/registry.hpp"
#include "symshape/ops/common/tensor_values.hpp"
#include "symshape/support/maybe.hpp"

namespace symshape::ops {

namespace signal_detail {

// The value of a scalar (or one-element) integer input; unknown when it is
// not propagated, nullopt (after an error) when it has more elements.
inline std::optional<SymbolicDim> scalar_value(Context& ctx, const Node& n, std::size_t i, const char* what) {
  const Shape* s = shape_of(n.input(i));
  if (s && !(s->rank() == 0 || (s->rank() == 1 && ((*s)[0].is_int(1) || !(*s)[0].is_int())))) {
    ctx.record_error(n, {what, " must be a scalar, got shape ", *s});
    return std::nullopt;
  }
  auto v = ctx.symbolic_value(n.input(i));
  if (!v) return SymbolicDim();
  if (v->size() != 1) {
    ctx.record_error(n, {what, " must have one element, got ", v->size()});
    return std::nullopt;
  }
  return (*v)[0];
}

// The `output_datatype` attribute (default FLOAT); nullopt after the error
// when it names no element type.
inline Maybe<DataType> dtype_attr(Context& ctx, const Node& n) {
  const int64_t code = ctx.attr_int(n, "output_datatype", 1);
  auto t = element_type_from_code(code);
  if (!t) ctx.record_error(n, {"invalid output_datatype ", code});
  return t;
}

// inverse=1 with onesided=1 is an inverse real FFT (complex bins in, real
// signal out). The ONNX spec text rules it out (no onesided transform of a
// complex input), but onnxruntime runs it (its DFT kernel and the newer ONNX
// inference): the signal axis becomes dft_length, else 2*(n-1), and the last
// dim 1. Followed with a warning; a real input is refused, as there.
inline bool check_inverse_onesided(Context& ctx, const Node& n, const SymbolicDim& last) {
  if (last.is_int() && last.value() != 2) {
    ctx.record_error(n, {"an inverse one-sided DFT (inverse real FFT) needs a complex input (last dim 2), got ", last});
    return false;
  }
  ctx.warn(&n, DiagnosticKind::Semantic,
           "inverse=1 with onesided=1 (an inverse real FFT) is outside the ONNX DFT spec; following onnxruntime: "
           "the signal axis becomes dft_length (else 2*(n-1)) and the last dim 1");
  return true;
}

// The signal length of an inverse real FFT over n bins; nullopt after an
// error (one bin without dft_length: an empty signal, which onnxruntime does
// not finish computing).
inline std::optional<SymbolicDim> irfft_length(Context& ctx, const Node& n, const SymbolicDim& bins,
                                               const SymbolicDim* length) {
  if (length) return *length;
  if (bins.is_int() && bins.value() < 2) {
    ctx.record_error(n, {"an inverse one-sided DFT of ", bins, " bin(s) needs dft_length"});
    return std::nullopt;
  }
  return (bins - 1) * SymbolicDim(2);
}

// The DFT of input 0 along `axis` (possibly negative; nullopt when it is an
// input without a known value).
inline void dft(Context& ctx, Node& n, std::optional<int64_t> axis) {
  const Shape* x = shape_of(n.input(0));
  const int64_t onesided = ctx.attr_int(n, "onesided", 0);
  const bool irfft = onesided != 0 && ctx.attr_int(n, "inverse", 0) != 0;
  std::optional<SymbolicDim> length = SymbolicDim();
  const bool has_length = n.input(1) != nullptr;
  if (has_length) {
    length = scalar_value(ctx, n, 1, "dft_length");
    if (!length) return;
    if (length->is_int() && length->value() < 1)
      return ctx.record_error(n, {"dft_length must be positive, got ", *length});
  }
  if (!x) {
    ctx.set_shape_and_dtype(n.output(0), Shape(), dtype_of(n.input(0)));
    return;
  }
  const int64_t r = x->rank();
  if (r < 2) return ctx.record_error(n, {"input must have rank >= 2 (signal dims and a last dim of 1 or 2), got ", *x});
  const SymbolicDim& last = (*x)[r - 1];
  if (last.is_int() && last.value() != 1 && last.value() != 2)
    return ctx.record_error(n, {"the last input dim must be 1 (real) or 2 (complex), got ", last});
  if (irfft && !check_inverse_onesided(ctx, n, last)) return;
  if (onesided != 0 && !irfft && last.is_int(2))
    return ctx.record_error(n, "onesided output is not possible for a complex input");
  std::vector<SymbolicDim> out = x->dims();
  out[r - 1] = irfft ? 1 : 2;
  if (!axis) {  // any signal dim may change
    if (has_length || onesided != 0)
      for (int64_t i = 0; i + 1 < r; ++i) out[i] = SymbolicDim();
    ctx.set_shape_and_dtype(n.output(0), Shape(std::move(out)), dtype_of(n.input(0)));
    return;
  }
  const int64_t a = *axis < 0 ? *axis + r : *axis;
  if (a < 0 || a > r - 2)
    return ctx.record_error(
        n, {"axis ", *axis, " is out of range for input rank ", r, " (the last dim holds the complex parts)"});
  SymbolicDim len = has_length ? *length : (*x)[a];
  if (irfft) {
    auto l = irfft_length(ctx, n, (*x)[a], has_length ? &*length : nullptr);
    if (!l) return;
    len = *l;
  } else if (onesided != 0) {
    len = len / SymbolicDim(2) + 1;
  }
  out[a] = len;
  ctx.set_shape_and_dtype(n.output(0), Shape(std::move(out)), dtype_of(n.input(0)));
}

}  // namespace signal_detail

// DFT 17: inputs (input, dft_length?), attributes axis (default 1), inverse, onesided.
inline void infer_dft_17(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 2)) return;
  signal_detail::dft(ctx, n, ctx.attr_int(n, "axis", 1));
}
SYMSHAPE_RULES(infer_dft_17, ai_onnx("DFT", 17));

// DFT 20: inputs (input, dft_length?, axis?), axis default -2.
inline void infer_dft_20(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 3)) return;
  std::optional<int64_t> axis = -2;
  if (n.input(2)) {
    auto v = signal_detail::scalar_value(ctx, n, 2, "axis");
    if (!v) return;
    axis = v->is_int() ? std::optional<int64_t>(v->value()) : std::nullopt;
  }
  signal_detail::dft(ctx, n, axis);
}
SYMSHAPE_RULES(infer_dft_20, ai_onnx("DFT", 20));

// STFT 17: signal [B, L, 1|2], frame_step (scalar), window? [W],
// frame_length? (scalar). Output [B, (L - n)//frame_step + 1, bins, 2],
// n = frame_length (or the window length), bins = n//2 + 1 when onesided (default 1).
inline void infer_stft(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 2, 4)) return;
  const Shape* x = shape_of(n.input(0));
  if (x && x->rank() != 3) return ctx.record_error(n, {"signal must be 3-D [batch, length, 1|2], got shape ", *x});
  if (x && (*x)[2].is_int() && (*x)[2].value() != 1 && (*x)[2].value() != 2)
    return ctx.record_error(n, {"the last signal dim must be 1 (real) or 2 (complex), got ", (*x)[2]});
  auto step = signal_detail::scalar_value(ctx, n, 1, "frame_step");
  if (!step) return;
  if (step->is_int() && step->value() < 1) return ctx.record_error(n, {"frame_step must be positive, got ", *step});
  SymbolicDim frame_length;
  const Shape* window = shape_of(n.input(2));
  if (window && window->rank() != 1) return ctx.record_error(n, {"window must be 1-D, got shape ", *window});
  if (n.input(3)) {
    auto fl = signal_detail::scalar_value(ctx, n, 3, "frame_length");
    if (!fl) return;
    frame_length = *fl;
  }
  if (window) {
    if (frame_length.is_int() && (*window)[0].is_int() && frame_length != (*window)[0])
      return ctx.record_error(n, {"window length ", (*window)[0], " differs from frame_length ", frame_length});
    if (frame_length.is_unknown() && !n.input(3)) frame_length = (*window)[0];
  }
  const SymbolicDim batch = x ? (*x)[0] : SymbolicDim();
  const SymbolicDim frames = x ? ((*x)[1] - frame_length) / *step + 1 : SymbolicDim();
  const SymbolicDim bins = ctx.attr_int(n, "onesided", 1) != 0 ? frame_length / SymbolicDim(2) + 1 : frame_length;
  ctx.set_shape_and_dtype(n.output(0), Shape({batch, frames, bins, 2}), dtype_of(n.input(0)));
}
SYMSHAPE_RULES(infer_stft, ai_onnx("STFT", 17));

// HannWindow, HammingWindow, BlackmanWindow: [size], of output_datatype (default FLOAT).
inline void infer_window(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 1, 1)) return;
  auto t = signal_detail::dtype_attr(ctx, n);
  if (!t) return;
  auto size = signal_detail::scalar_value(ctx, n, 0, "size");
  if (!size) return;
  if (size->is_int() && size->value() < 0) return ctx.record_error(n, {"size must be >= 0, got ", *size});
  ctx.set_shape_and_dtype(n.output(0), Shape({*size}), *t);
}
SYMSHAPE_RULES(infer_window, ai_onnx("HannWindow", 17), ai_onnx("HammingWindow", 17), ai_onnx("BlackmanWindow", 17));

// MelWeightMatrix: [dft_length//2 + 1, num_mel_bins], of output_datatype (default FLOAT).
inline void infer_mel_weight_matrix(Context& ctx, Node& n) {
  if (!check_inputs(ctx, n, 5, 5)) return;
  auto t = signal_detail::dtype_attr(ctx, n);
  if (!t) return;
  auto bins = signal_detail::scalar_value(ctx, n, 0, "num_mel_bins");
  if (!bins) return;
  auto length = signal_detail::scalar_value(ctx, n, 1, "dft_length");
  if (!length) return;
  if ((bins->is_int() && bins->value() < 1) || (length->is_int() && length->value() < 1))
    return ctx.record_error(n, "num_mel_bins and dft_length must be positive");
  ctx.set_shape_and_dtype(n.output(0), Shape({*length / SymbolicDim(2) + 1, *bins}), *t);
}
SYMSHAPE_RULES(infer_mel_weight_matrix, ai_onnx("MelWeightMatrix", 17));

inline constexpr auto kSignalRules =
    family_rules<infer_dft_17_rules, infer_dft_20_rules, infer_stft_rules, infer_window_rules,
                 infer_mel_weight_matrix_rules>("symshape/ops/signal.hpp");

}  // namespace symshape::ops
