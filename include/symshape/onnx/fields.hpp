// Field numbers of the ONNX messages, one namespace per message, as
// onnx-ml.proto (Debian's libonnx-dev: /usr/include/onnx/onnx.proto, and
// onnx-ml.proto for TypeProto.Opaque) numbers them. The adapter's readers
// (views.hpp, segment_reader.hpp) and writers (splice_writer.hpp) use these
// names, never bare numbers; tests/onnx/load_test.cpp checks them against
// the generated descriptors.
#pragma once

#include <cstdint>

namespace symshape::onnx::fields {

namespace ModelProto {
inline constexpr uint32_t kIrVersion = 1, kProducerName = 2, kProducerVersion = 3, kDomain = 4, kModelVersion = 5,
                          kDocString = 6, kGraph = 7, kOpsetImport = 8, kMetadataProps = 14, kTrainingInfo = 20,
                          kFunctions = 25;
}  // namespace ModelProto

namespace GraphProto {
inline constexpr uint32_t kNode = 1, kName = 2, kInitializer = 5, kDocString = 10, kInput = 11, kOutput = 12,
                          kValueInfo = 13, kQuantizationAnnotation = 14, kSparseInitializer = 15;
}  // namespace GraphProto

namespace NodeProto {
inline constexpr uint32_t kInput = 1, kOutput = 2, kName = 3, kOpType = 4, kAttribute = 5, kDocString = 6, kDomain = 7;
}  // namespace NodeProto

namespace AttributeProto {
inline constexpr uint32_t kName = 1, kF = 2, kI = 3, kS = 4, kT = 5, kG = 6, kFloats = 7, kInts = 8, kStrings = 9,
                          kTensors = 10, kGraphs = 11, kDocString = 13, kTp = 14, kTypeProtos = 15, kType = 20,
                          kRefAttrName = 21, kSparseTensor = 22, kSparseTensors = 23;
}  // namespace AttributeProto

namespace ValueInfoProto {
inline constexpr uint32_t kName = 1, kType = 2, kDocString = 3;
}  // namespace ValueInfoProto

namespace TypeProto {
// The members of the oneof `value`, and denotation.
inline constexpr uint32_t kTensorType = 1, kSequenceType = 4, kMapType = 5, kDenotation = 6, kOpaqueType = 7,
                          kSparseTensorType = 8, kOptionalType = 9;
namespace Tensor {  // also TypeProto.SparseTensor
inline constexpr uint32_t kElemType = 1, kShape = 2;
}  // namespace Tensor
namespace Sequence {  // also TypeProto.Optional
inline constexpr uint32_t kElemType = 1;
}  // namespace Sequence
namespace Map {
inline constexpr uint32_t kKeyType = 1, kValueType = 2;
}  // namespace Map
namespace Opaque {
inline constexpr uint32_t kDomain = 1, kName = 2;
}  // namespace Opaque
}  // namespace TypeProto

namespace TensorShapeProto {
inline constexpr uint32_t kDim = 1;
namespace Dimension {
inline constexpr uint32_t kDimValue = 1, kDimParam = 2, kDenotation = 3;
}  // namespace Dimension
}  // namespace TensorShapeProto

namespace TensorProto {
inline constexpr uint32_t kDims = 1, kDataType = 2, kSegment = 3, kFloatData = 4, kInt32Data = 5, kStringData = 6,
                          kInt64Data = 7, kName = 8, kRawData = 9, kDoubleData = 10, kUint64Data = 11, kDocString = 12,
                          kExternalData = 13, kDataLocation = 14;
namespace Segment {
inline constexpr uint32_t kBegin = 1, kEnd = 2;
}  // namespace Segment
}  // namespace TensorProto

namespace SparseTensorProto {
inline constexpr uint32_t kValues = 1, kIndices = 2, kDims = 3;
}  // namespace SparseTensorProto

namespace OperatorSetIdProto {
inline constexpr uint32_t kDomain = 1, kVersion = 2;
}  // namespace OperatorSetIdProto

namespace StringStringEntryProto {
inline constexpr uint32_t kKey = 1, kValue = 2;
}  // namespace StringStringEntryProto

namespace TensorAnnotation {
inline constexpr uint32_t kTensorName = 1, kQuantParameterTensorNames = 2;
}  // namespace TensorAnnotation

namespace TrainingInfoProto {
inline constexpr uint32_t kInitialization = 1, kAlgorithm = 2, kInitializationBinding = 3, kUpdateBinding = 4;
}  // namespace TrainingInfoProto

namespace FunctionProto {
// attribute_proto (ONNX >= 1.13) is newer than libonnx-dev's onnx.proto.
inline constexpr uint32_t kName = 1, kInput = 4, kOutput = 5, kAttribute = 6, kNode = 7, kDocString = 8,
                          kOpsetImport = 9, kDomain = 10, kAttributeProto = 11;
}  // namespace FunctionProto

}  // namespace symshape::onnx::fields
