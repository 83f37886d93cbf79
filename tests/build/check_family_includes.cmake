# ctest entry build.family_includes (cmake -P): no op family header includes
# another family header (issue 34). A family (include/symshape/ops/<family>.hpp,
# ops/microsoft/<family>.hpp) may include, under symshape/ops/, only the shared
# helpers of ops/common/ and ops/microsoft/common.hpp, which in turn include no
# family; helpers two families share go there. ops/all.hpp, the one header that
# includes every family, is left out.
# Input (-D): INCLUDE_DIR, the include/ folder.
cmake_minimum_required(VERSION 3.16)

file(GLOB families RELATIVE ${INCLUDE_DIR} ${INCLUDE_DIR}/symshape/ops/*.hpp
     ${INCLUDE_DIR}/symshape/ops/microsoft/*.hpp)
file(GLOB helpers RELATIVE ${INCLUDE_DIR} ${INCLUDE_DIR}/symshape/ops/common/*.hpp)
list(REMOVE_ITEM families symshape/ops/all.hpp symshape/ops/microsoft/common.hpp)
if(EXISTS ${INCLUDE_DIR}/symshape/ops/microsoft/common.hpp)
  list(APPEND helpers symshape/ops/microsoft/common.hpp)
endif()
list(LENGTH families n_families)
if(n_families LESS 10)
  message(FATAL_ERROR "only ${n_families} family headers under ${INCLUDE_DIR}/symshape/ops")
endif()

set(errors "")
foreach(header IN LISTS families helpers)
  file(STRINGS ${INCLUDE_DIR}/${header} lines REGEX "^[ \t]*#[ \t]*include[ \t]*[\"<]symshape/ops/")
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "^[^\"<]*[\"<]([^\">]+)[\">].*$" "\\1" included "${line}")
    if(NOT included IN_LIST helpers)
      string(APPEND errors "  ${header} includes ${included}\n")
    endif()
  endforeach()
endforeach()

if(errors)
  message(FATAL_ERROR "op family headers may include only ops/common/*.hpp and ops/microsoft/common.hpp "
                      "(move what two families share there):\n${errors}")
endif()
message(STATUS "family_includes: ${n_families} family headers include no other family")
