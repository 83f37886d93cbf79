// What the sanitizers a unit is built with change (GCC says so with
// __SANITIZE_ADDRESS__ and __SANITIZE_THREAD__, clang through __has_feature):
//   SYMSHAPE_ADDRESS_SANITIZER      1 under AddressSanitizer, else 0. Code that
//       keeps its own free lists or skips freeing at exit asks it, so that the
//       sanitizer still sees every use of freed memory and every leak.
//   SYMSHAPE_SANITIZER_OPERATOR_NEW 1 where a sanitizer brings its own
//       operator new (Address, Thread, Memory), which a program must not
//       replace, else 0.
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

#if SYMSHAPE_ADDRESS_SANITIZER || defined(__SANITIZE_THREAD__)
#define SYMSHAPE_SANITIZER_OPERATOR_NEW 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define SYMSHAPE_SANITIZER_OPERATOR_NEW 1
#endif
#endif
#ifndef SYMSHAPE_SANITIZER_OPERATOR_NEW
#define SYMSHAPE_SANITIZER_OPERATOR_NEW 0
#endif
