// A translation unit of the precompiled mode that includes only
// symshape/api.hpp and infers a model it is given (main_compiled.cpp builds
// it). The header must stay light: the IR is not even declared complete here.
#include <cstddef>
#include <type_traits>

#include "symshape/api.hpp"

namespace {
template <class T, class = void>
struct is_complete : std::false_type {};
template <class T>
struct is_complete<T, std::void_t<decltype(sizeof(T))>> : std::true_type {};
}  // namespace

static_assert(!is_complete<symshape::Model>::value, "symshape/api.hpp must not bring in the IR");

std::size_t errors_after_inference(symshape::Model& model) { return symshape::infer_shapes(model).errors(); }
