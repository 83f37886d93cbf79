// The ONNX adapter's bridge to the generated ModelProto (Debian's libonnx-dev
// onnx_proto, protobuf 3), for users who hold a proto in memory: a program
// that includes this header links onnx_proto and protobuf::libprotobuf.
// load.hpp, which loads files and bytes, needs neither.
//
//   Result<::onnx::ModelProto> proto = symshape::onnx::read_model_proto("model.onnx");
//   Result<Model> m = symshape::onnx::load_model_proto(*proto);
//
// The protos are serialized and read by the same wire-format loader as a
// file's bytes: one loader, one set of checks and messages.
#pragma once

// Debian's libonnx is built with ONNX_ML=1 and the `onnx` namespace; the
// CMake targets onnx/onnx_proto define both, these defaults serve builds
// that do not use them.
#ifndef ONNX_ML
#define ONNX_ML 1
#endif
#ifndef ONNX_NAMESPACE
#define ONNX_NAMESPACE onnx
#endif
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl.h>
#include <onnx/onnx_pb.h>

#include <climits>
#include <filesystem>
#include <fstream>
#include <istream>
#include <string>
#include <system_error>
#include <utility>

#include "symshape/onnx/load.hpp"

namespace symshape::onnx {

namespace detail {

// Serializes an in-memory message for the wire loader; false past 2 GB.
template <class Proto>
bool serialize(const Proto& p, std::string& out) {
  return p.SerializeToString(&out);
}

}  // namespace detail

// A TensorProto as a symshape::Tensor: dtype and dims always, values only for
// tensors of at most kMaxKeptElements elements (never the bulk of weights),
// nothing read from external data. `what` names the tensor in errors.
inline Result<Tensor> tensor_from_proto(const ::onnx::TensorProto& p, const std::string& what = "tensor") {
  std::string bytes;
  if (!detail::serialize(p, bytes) || !view::check(bytes, view::kTensor, detail::kUnlimitedBudget))
    return detail::fail<Tensor>(what + ": cannot serialize the tensor");
  return detail::tensor_from_view_named(view::msg_of({bytes.data(), bytes.data() + bytes.size()}),
                                        [&] { return what; });
}

// A TypeProto as a symshape::Type. dim_value -> integer (negative is an
// error), dim_param -> the expression it parses as (else an opaque symbol),
// neither -> unknown; no shape -> unknown rank; no type -> unknown. `what`
// names the type in errors.
inline Result<Type> type_from_proto(const ::onnx::TypeProto& p, const std::string& what = "type") {
  std::string bytes;
  if (!detail::serialize(p, bytes) || !view::check(bytes, view::kTypeProto, detail::kUnlimitedBudget))
    return detail::fail<Type>(what + ": cannot serialize the type");
  return detail::type_from_view_named(view::msg_of({bytes.data(), bytes.data() + bytes.size()}), [&] { return what; });
}

// A ModelProto as a Model; failure with a message naming the node and value.
// (The proto is serialized and loaded as a file's bytes are: one loader.)
inline Result<Model> load_model_proto(const ::onnx::ModelProto& proto) {
  std::string bytes;
  if (!detail::serialize(proto, bytes) || !view::check(bytes, view::kModel, detail::kUnlimitedBudget))
    return Result<Model>::failure("the model cannot be serialized (2 GB or more)");
  Model m;
  if (std::string e = detail::load_checked(bytes, m); !e.empty()) return Result<Model>::failure(std::move(e));
  return Result<Model>(std::move(m));
}

// Parses an ONNX model into a generated ModelProto from a stream (up to
// 2 GB); failure names the file as `name` (e.g. "-" for standard input).
// For users that want the proto itself: loading does not need it.
inline Result<::onnx::ModelProto> read_model_proto(std::istream& in, const std::string& name) {
  ::onnx::ModelProto proto;
  {
    google::protobuf::io::IstreamInputStream raw(&in);
    google::protobuf::io::CodedInputStream coded(&raw);
    coded.SetTotalBytesLimit(INT_MAX);
    coded.SetRecursionLimit(kProtobufRecursionLimit);
    // (Messages nested deeper than kProtobufRecursionLimit fail here too.)
    if (!proto.ParseFromCodedStream(&coded) || !coded.ConsumedEntireMessage())
      return Result<::onnx::ModelProto>::failure("file " + name + ": not a valid ONNX model (protobuf parse failed)");
  }
  if (in.bad()) return Result<::onnx::ModelProto>::failure("file " + name + ": read error");
  if (!proto.has_graph())
    return Result<::onnx::ModelProto>::failure("file " + name + ": not a valid ONNX model (no graph)");
  return Result<::onnx::ModelProto>(std::move(proto));
}

// Parses an ONNX file (up to 2 GB); failure names the file.
inline Result<::onnx::ModelProto> read_model_proto(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    return Result<::onnx::ModelProto>::failure("file " + path + ": is a directory, not an ONNX model");
  std::ifstream in(path, std::ios::binary);
  if (!in) return Result<::onnx::ModelProto>::failure("file " + path + ": cannot open for reading");
  return read_model_proto(in, path);
}

// Parses a serialized TensorProto (e.g. the input_0.pb files of the ONNX
// backend tests).
inline Result<::onnx::TensorProto> read_tensor_proto(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Result<::onnx::TensorProto>::failure("file " + path + ": cannot open for reading");
  ::onnx::TensorProto proto;
  google::protobuf::io::IstreamInputStream raw(&in);
  google::protobuf::io::CodedInputStream coded(&raw);
  coded.SetTotalBytesLimit(INT_MAX);
  if (!proto.ParseFromCodedStream(&coded) || !coded.ConsumedEntireMessage())
    return Result<::onnx::TensorProto>::failure("file " + path + ": not a valid ONNX tensor (protobuf parse failed)");
  return Result<::onnx::TensorProto>(std::move(proto));
}

}  // namespace symshape::onnx
