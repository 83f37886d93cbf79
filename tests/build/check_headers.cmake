# ctest entry build.headers (cmake -P): confirms that the header checks of
# tests/build/CMakeLists.txt were built (C++17: one object per header; C++20 and
# -fno-exceptions -fno-rtti: one per entry header) and that they cover every
# header present in the source tree now.
# Inputs (-D, lists separated by '|'): INCLUDE_DIR, HEADERS, ENTRY_HEADERS,
# OBJECTS_CXX17, OBJECTS_CXX20, OBJECTS_NOEXCEPT.
cmake_minimum_required(VERSION 3.16)

string(REPLACE "|" ";" headers "${HEADERS}")
string(REPLACE "|" ";" entry_headers "${ENTRY_HEADERS}")
list(LENGTH headers n_headers)
list(LENGTH entry_headers n_entry)

set(errors "")
if(n_headers EQUAL 0)
  string(APPEND errors "  no header was found under ${INCLUDE_DIR}/symshape\n")
endif()
if(n_entry EQUAL 0)
  string(APPEND errors "  no entry header (include/symshape/*.hpp) was found\n")
endif()

# Headers added or removed since cmake last ran.
file(GLOB_RECURSE now RELATIVE ${INCLUDE_DIR} ${INCLUDE_DIR}/symshape/*.hpp ${INCLUDE_DIR}/symshape/*.h)
list(FILTER now EXCLUDE REGEX "^symshape/onnx/(proto|save)\\.hpp$")
foreach(header IN LISTS now)
  if(NOT header IN_LIST headers)
    string(APPEND errors "  ${header} is not checked: build again (cmake re-globs the headers)\n")
  endif()
endforeach()

foreach(set_name CXX17 CXX20 NOEXCEPT)
  string(REPLACE "|" ";" objects "${OBJECTS_${set_name}}")
  list(LENGTH objects n_objects)
  if(set_name STREQUAL "CXX17")
    set(expected ${n_headers})  # every header alone
  else()
    set(expected ${n_entry})  # C++20 and -fno-exceptions -fno-rtti: the entry headers
  endif()
  if(NOT n_objects EQUAL expected)
    string(APPEND errors "  ${set_name}: ${n_objects} objects for ${expected} headers\n")
  endif()
  set(missing 0)
  foreach(object IN LISTS objects)
    if(NOT EXISTS "${object}")
      string(APPEND errors "  ${set_name}: ${object} was not built (run the build first)\n")
      math(EXPR missing "${missing} + 1")
    endif()
  endforeach()
  math(EXPR built "${n_objects} - ${missing}")
  message(STATUS "${set_name}: ${built} of ${expected} headers compile on their own")
endforeach()

if(errors)
  message(FATAL_ERROR "header checks incomplete:\n${errors}")
endif()
