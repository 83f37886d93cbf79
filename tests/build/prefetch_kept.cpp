// Compiled to assembly by prefetch_kept.cmake (build.prefetch_kept): an
// optimised loop of NameIndex::prefetch calls must still prefetch. GCC 12
// took prefetch() for a pure function and deleted the calls, so the loader's
// and the splice's lookahead did nothing and nothing failed.
#include <cstddef>
#include <string>
#include <string_view>

#include "symshape/support/name_index.hpp"

struct Named {
  std::string name;
};

void prefetch_all(const symshape::NameIndex<Named>& index, const std::string_view* names, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) index.prefetch(names[i]);
}
