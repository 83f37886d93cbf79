// The ONNX adapter: external-data locations (relative paths in a model file)
// as paths, shared by the two writers (save.hpp, splice.hpp). The data files
// are never opened. No protobuf here.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <system_error>

#include "symshape/support/result.hpp"

namespace symshape::onnx::detail {

inline std::filesystem::path canonical_dir(const std::string& dir) {
  std::error_code ec;
  std::filesystem::path p = std::filesystem::absolute(dir.empty() ? std::string(".") : dir, ec);
  std::filesystem::path c = std::filesystem::weakly_canonical(p, ec);
  return (ec ? p : c).lexically_normal();
}

// The data file a location names, seen from `model_dir` (symlinks in the
// folders resolved, the file name itself kept).
inline std::filesystem::path external_file(const std::string& model_dir, const std::string& location) {
  const std::filesystem::path loc(location);
  if (loc.is_absolute()) return loc.lexically_normal();
  return (canonical_dir((std::filesystem::path(model_dir.empty() ? "." : model_dir) / loc.parent_path()).string()) /
          loc.filename())
      .lexically_normal();
}

// The location that names, from `to` (canonical), the data file that the
// external tensor `tensor` names with `location` from `from_dir`: nullopt when
// it stays (absolute), an error message when impossible (see
// relocate_external_data). `location` is null when the tensor has no entry.
inline Result<std::optional<std::string>> relocated_location(const std::string& tensor, const std::string* location,
                                                             const std::string& from_dir,
                                                             const std::filesystem::path& to) {
  using R = Result<std::optional<std::string>>;
  const std::string what = "tensor '" + tensor + "'";
  if (!location || location->empty()) return R::failure(what + " has external data without a location");
  const std::filesystem::path loc(*location);
  if (loc.is_absolute()) return R(std::nullopt);
  if (!loc.has_filename()) return R::failure(what + ": external data location '" + *location + "' names no file");
  const std::filesystem::path file = external_file(from_dir, *location);
  const std::filesystem::path rel = file.lexically_relative(to);
  if (rel.empty() || !rel.has_filename() || *rel.begin() == "..")
    return R::failure(
        what + ": its external data file " + file.string() + " is not inside " + to.string() +
        ", and an ONNX location cannot go up with '..'; write the model into that folder or one above it");
  return R(std::optional<std::string>(rel.generic_string()));
}

}  // namespace symshape::onnx::detail
