// Mixing the two build modes (docs/library.md, "Build modes") fails at link
// time with a message that says so. Every header-only translation unit that
// includes symshape/symshape.hpp defines the marker symbol below in a COMDAT
// group, so that the program keeps one copy as it does for an inline
// variable; the precompiled library (src/symshape.cpp) defines the same
// symbol as an ordinary one. A program that links a header-only unit with a
// precompiled library it uses gets "multiple definition of
// `symshape_build_modes_mixed__header_only_unit_linked_with_symshape_compiled'".
// (An inline variable would not do: clang makes it a weak symbol, which an
// ordinary definition silently overrides.) ELF targets only.
#pragma once

#define SYMSHAPE_BUILD_MODES_MIXED symshape_build_modes_mixed__header_only_unit_linked_with_symshape_compiled
#define SYMSHAPE_BUILD_MODES_MIXED_TEXT "symshape_build_modes_mixed__header_only_unit_linked_with_symshape_compiled"

#if defined(SYMSHAPE_COMPILED_DEFINE)
// The library's ordinary definition.
extern "C" {
extern const char SYMSHAPE_BUILD_MODES_MIXED;
const char SYMSHAPE_BUILD_MODES_MIXED = 1;
}
#elif !defined(SYMSHAPE_COMPILED) && defined(__ELF__)
// A header-only unit's copy, one per program.
// clang-format off
__asm__(".pushsection .rodata." SYMSHAPE_BUILD_MODES_MIXED_TEXT ",\"aG\",@progbits,"
        SYMSHAPE_BUILD_MODES_MIXED_TEXT ",comdat\n"
        ".globl " SYMSHAPE_BUILD_MODES_MIXED_TEXT "\n"
        SYMSHAPE_BUILD_MODES_MIXED_TEXT ":\n"
        ".byte 1\n"
        ".popsection\n");
// clang-format on
#endif
