// One fact as a report lists it. Its own header: diagnostics and reports
// carry facts as text and need nothing of the engine that uses them
// (expr/facts.hpp).
#pragma once

#include <string>

namespace symshape {

// A fact's text (`past+seq <= 64`) and where it came from (`--assume`,
// `--assume-nonempty`, a contract's node).
struct Fact {
  std::string text;
  std::string source;
};

}  // namespace symshape
