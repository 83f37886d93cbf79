// SYMSHAPE_ADDRESS_SANITIZER is 1 in a unit built with AddressSanitizer, else
// 0. GCC says so with __SANITIZE_ADDRESS__, clang through __has_feature. Code
// that keeps its own free lists or skips freeing at exit asks it, so that the
// sanitizer still sees every use of freed memory and every leak.
#pragma once

#if defined(__SANITIZE_ADDRESS__)
#define SYMSHAPE_ADDRESS_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SYMSHAPE_ADDRESS_SANITIZER 1
#endif
#endif
#ifndef SYMSHAPE_ADDRESS_SANITIZER
#define SYMSHAPE_ADDRESS_SANITIZER 0
#endif
