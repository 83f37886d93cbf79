# Writes the C++ header that holds the report page's files (web/report/) as
# string constants, so that `symshape report` reads no file at run time:
#
#   cmake -DWEB_DIR=web/report -DOUT=report_page_files.hpp -P embed_web_files.cmake
#
# Each file is a raw string literal. The build stops, naming the file, when one
# holds the literal's closing delimiter, when the template lacks one of its
# three placeholders or has one twice, or when the style or a script holds the
# end tag of its element (the page inlines them in <style> and <script>).
set(delimiter "symshape_web")  # at most 16 characters (C++)

function(read_web_file file out)
  if(NOT EXISTS "${WEB_DIR}/${file}")
    message(FATAL_ERROR "embed_web_files: ${WEB_DIR}/${file} does not exist")
  endif()
  file(READ "${WEB_DIR}/${file}" content)
  string(FIND "${content}" ")${delimiter}\"" at)
  if(NOT at EQUAL -1)
    message(FATAL_ERROR "embed_web_files: ${WEB_DIR}/${file} holds ')${delimiter}\"', which would end its C++ literal")
  endif()
  set(${out} "${content}" PARENT_SCOPE)
endfunction()

# `text` (of `file`) must not hold `tag` in any case.
function(refuse_end_tag file text tag)
  string(TOLOWER "${text}" lower)
  string(FIND "${lower}" "${tag}" at)
  if(NOT at EQUAL -1)
    message(FATAL_ERROR "embed_web_files: ${WEB_DIR}/${file} holds '${tag}', which would end the element the page inlines it in")
  endif()
endfunction()

read_web_file(report.html html)
read_web_file(report.css css)
read_web_file(expr_eval.js expr_eval_js)
read_web_file(report.js report_js)

foreach(placeholder "/*@REPORT_CSS@*/" "/*@REPORT_JS@*/" "@REPORT_DATA@")
  string(FIND "${html}" "${placeholder}" first)
  string(FIND "${html}" "${placeholder}" last REVERSE)
  if(first EQUAL -1 OR NOT first EQUAL last)
    message(FATAL_ERROR "embed_web_files: ${WEB_DIR}/report.html must hold '${placeholder}' exactly once")
  endif()
endforeach()
refuse_end_tag(report.css "${css}" "</style")
refuse_end_tag(expr_eval.js "${expr_eval_js}" "</script")
refuse_end_tag(report.js "${report_js}" "</script")

set(header "// Generated from web/report/ by tools/symshape/embed_web_files.cmake: do not edit.
#pragma once

#include <string_view>

namespace symshape::cli::web {

")
foreach(pair "kReportHtml;html" "kReportCss;css" "kExprEvalJs;expr_eval_js" "kReportJs;report_js")
  list(GET pair 0 name)
  list(GET pair 1 var)
  string(APPEND header "inline constexpr std::string_view ${name} = R\"${delimiter}(${${var}})${delimiter}\";\n\n")
endforeach()
string(APPEND header "}  // namespace symshape::cli::web\n")
file(WRITE "${OUT}" "${header}")
