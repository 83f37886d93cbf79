// How inference runs: the merge policy (how inferred types meet the ones the
// model declares) and InferenceOptions, what infer_shapes takes. Light on
// purpose: symshape/api.hpp includes it.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace symshape {

enum class MergePolicy { Skip, Override, Refine, Strict };

inline const char* to_string(MergePolicy p) {
  switch (p) {
    case MergePolicy::Skip:
      return "skip";
    case MergePolicy::Override:
      return "override";
    case MergePolicy::Refine:
      return "refine";
    case MergePolicy::Strict:
      return "strict";
  }
  return "refine";
}

inline std::optional<MergePolicy> parse_merge_policy(const std::string& s) {
  if (s == "skip") return MergePolicy::Skip;
  if (s == "override") return MergePolicy::Override;
  if (s == "refine") return MergePolicy::Refine;
  if (s == "strict") return MergePolicy::Strict;
  return std::nullopt;
}

class UserRules;  // infer/registry.hpp

struct InferenceOptions {
  MergePolicy policy = MergePolicy::Refine;
  bool data_propagation = true;
  // Called with one line per inferred node: "Reshape  [b,s,768], [3] -> [b,s,12,64]".
  std::function<void(const std::string&)> trace;
  // Facts the runs of interest satisfy ("seq<=2048", "past+seq<=64",
  // "H%32==0", "total==past+seq"; expr/facts.hpp): shapes are then exact for
  // those runs and may be simpler. None by default: exact for every run.
  std::vector<std::string> assume;
  // Facts taken from the model's contracts (infer_shapes_assuming_contracts
  // adds their conditions here): listed with that source.
  std::vector<std::string> assume_from_contracts;
  // Every dim of the graph inputs is >= 1 (no empty tensors), a fact like
  // the others. Off by default: an empty KV cache (past=0) is a real run.
  bool assume_nonempty = false;
  // Rules added at run time (custom operators, Python rules), consulted
  // before the built-ins; not owned, and must outlive the run.
  const UserRules* user_rules = nullptr;
};

}  // namespace symshape
