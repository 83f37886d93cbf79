// A plain-text table for `symshape show` and `profile`: columns padded to
// their widest cell (in code points, so that a cut expression's "…" is one
// column) and separated by two spaces; columns of numbers align right. ExprFit::fit_table (fit.hpp) cuts the
// expression columns first.
#pragma once

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "fit.hpp"

namespace symshape::cli {

using TableRow = std::vector<std::string>;

// A cell of a column of numbers: an integer, a percentage ("12.5%"), or
// "?", "-" and "" for none.
inline bool numeric_cell(const std::string& cell) {
  if (cell.empty() || cell == "?" || cell == "-") return true;
  std::size_t digits = 0;
  for (char c : cell) {
    if (c >= '0' && c <= '9')
      ++digits;
    else if (c != '.' && c != '%' && c != '-')
      return false;
  }
  return digits > 0;
}

// Prints `rows` (the header first) on `out`, one line each. A column whose
// cells below the header are all numbers is aligned right, the others left;
// no line ends in spaces.
inline void print_table(const std::vector<TableRow>& rows, FILE* out = stdout) {
  std::vector<std::size_t> width;
  for (const TableRow& row : rows) {
    if (width.size() < row.size()) width.resize(row.size(), 0);
    for (std::size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], display_width(row[c]));
  }
  std::vector<bool> right(width.size(), rows.size() > 1);
  for (std::size_t r = 1; r < rows.size(); ++r)
    for (std::size_t c = 0; c < rows[r].size(); ++c)
      if (!numeric_cell(rows[r][c])) right[c] = false;
  for (const TableRow& row : rows) {
    std::string line;
    for (std::size_t c = 0; c < row.size(); ++c) {
      const bool last = c + 1 == row.size();
      const std::size_t pad = width[c] - display_width(row[c]);
      if (right[c]) line.append(pad, ' ');
      line += row[c];
      if (!last) line.append((right[c] ? 0 : pad) + 2, ' ');
    }
    std::fprintf(out, "%s\n", line.c_str());
  }
}

}  // namespace symshape::cli
