// The library translation unit of the precompiled mode (CMake target
// symshape::compiled): the built-in rules and the entry points of
// symshape/symshape.hpp are compiled here once, and the users' translation
// units, built with SYMSHAPE_COMPILED, only declare them.
#ifndef SYMSHAPE_COMPILED
#error "build src/symshape.cpp with SYMSHAPE_COMPILED (the CMake target symshape::compiled)"
#endif
#define SYMSHAPE_COMPILED_DEFINE
#include "symshape/symshape.hpp"
