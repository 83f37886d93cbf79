// A plain-text table for `symshape show` and `profile`: columns padded to
// their widest cell (in code points, so that a cut expression's "…" is one
// column) and separated by two spaces. ExprFit::fit_table (fit.hpp) cuts the
// expression columns first.
#pragma once

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "fit.hpp"

namespace symshape::cli {

using TableRow = std::vector<std::string>;

// Prints `rows` (the header first) on `out`, one line each. The last cell of a row is
// not padded, so no line ends in spaces, unless `right_align_last` (a column
// of numbers), which pads it on the left instead.
inline void print_table(const std::vector<TableRow>& rows, bool right_align_last, FILE* out = stdout) {
  std::vector<std::size_t> width;
  for (const TableRow& row : rows) {
    if (width.size() < row.size()) width.resize(row.size(), 0);
    for (std::size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], display_width(row[c]));
  }
  for (const TableRow& row : rows) {
    std::string line;
    for (std::size_t c = 0; c < row.size(); ++c) {
      const bool last = c + 1 == row.size();
      const std::size_t pad = width[c] - display_width(row[c]);
      if (last && right_align_last) line.append(pad, ' ');
      line += row[c];
      if (!last) line.append(pad + 2, ' ');
    }
    std::fprintf(out, "%s\n", line.c_str());
  }
}

}  // namespace symshape::cli
