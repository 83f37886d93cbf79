// The version of each JSON document symshape writes, its "schema" key
// (docs/json.md, and the JSON Schemas in docs/json/): a reader checks it; a
// change that removes or renames a key bumps the number, a new key does not.
#pragma once

namespace symshape::report {

inline constexpr const char* kInferJsonSchema = "symshape/infer/1";
inline constexpr const char* kShowJsonSchema = "symshape/show/1";
inline constexpr const char* kProfileJsonSchema = "symshape/profile/1";
inline constexpr const char* kReportJsonSchema = "symshape/report/1";

}  // namespace symshape::report
