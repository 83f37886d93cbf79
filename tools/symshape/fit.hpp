// Output that fits a screen: the human-readable output of show, profile and
// infer's contract list cuts an expression longer than the allowed width,
// ending it with "…" (U+2026); --full prints every expression whole. JSON and
// CSV are never cut.
//
// The allowed width: when the output is a terminal, what the terminal's width
// (TIOCGWINSZ, else $COLUMNS, else 80) leaves beside the rest of the line,
// at least kMinExprWidth; otherwise kPipeExprWidth per expression. Widths are
// counted in code points (an expression is ASCII; a name may not be).
#pragma once

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace symshape::cli {

inline constexpr std::size_t kPipeExprWidth = 60;         // per expression, when the output is not a terminal
inline constexpr std::size_t kMinExprWidth = 20;          // on a terminal, however narrow
inline constexpr const char* kEllipsis = "\xe2\x80\xa6";  // U+2026, one column

inline bool utf8_continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// The columns `text` takes: its code points.
inline std::size_t display_width(const std::string& text) {
  std::size_t n = 0;
  for (char c : text) n += !utf8_continuation(c);
  return n;
}

// `expr` when it takes at most `width` columns; else its longest prefix that
// leaves room for "…", preferably ending just after a term boundary within
// the second half of that prefix: a ',' or else a '+' or '-', at the
// shallowest parenthesis depth, the last such. Never inside a UTF-8 sequence.
inline std::string cut_expression(const std::string& expr, std::size_t width) {
  if (display_width(expr) <= width) return expr;
  if (width == 0) return std::string();
  std::size_t end = 0;  // bytes of the longest prefix of width - 1 code points
  for (std::size_t points = 0; end < expr.size() && points < width - 1; ++points) {
    ++end;
    while (end < expr.size() && utf8_continuation(expr[end])) ++end;
  }
  std::size_t boundary = 0;
  int depth = 0, best = INT_MAX;  // rank of the boundary: 2*depth, +1 for '+' or '-'
  for (std::size_t i = 0; i < end; ++i) {
    const char c = expr[i];
    if (c == '(' || c == '[') ++depth;
    if (c == ')' || c == ']') --depth;
    const bool sign = c == '+' || (c == '-' && i > 0 && expr[i - 1] != '(' && expr[i - 1] != ',');
    if ((c == ',' || sign) && 2 * (i + 1) >= end && 2 * depth + sign <= best) {
      boundary = i + 1;
      best = 2 * depth + sign;
    }
  }
  return expr.substr(0, boundary ? boundary : end) + kEllipsis;
}

// The columns of the terminal `out` writes to; 0 when it is not a terminal.
inline std::size_t terminal_columns(FILE* out) {
  const int fd = fileno(out);
  if (fd < 0 || !isatty(fd)) return 0;
  winsize ws{};
  if (ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
  if (const char* env = std::getenv("COLUMNS")) {
    char* rest = nullptr;
    const long n = std::strtol(env, &rest, 10);
    if (rest != env && *rest == '\0' && n > 0 && n < 100000) return static_cast<std::size_t>(n);
  }
  return 80;
}

// How wide the expressions of one output may print.
class ExprFit {
 public:
  // Whole expressions (--full).
  static ExprFit whole() { return ExprFit(true, 0); }
  // For output on `out`: cut to the terminal's width, or to kPipeExprWidth.
  static ExprFit for_output(FILE* out, bool full) { return ExprFit(full, full ? 0 : terminal_columns(out)); }

  bool cuts() const { return !full_; }
  // The width of each of `parts` expressions on a line whose other text takes
  // `used` columns.
  std::size_t width(std::size_t used = 0, std::size_t parts = 1) const {
    if (full_) return SIZE_MAX;
    if (columns_ == 0) return kPipeExprWidth;
    const std::size_t left = columns_ > used ? columns_ - used : 0;
    return std::max(kMinExprWidth, left / std::max<std::size_t>(parts, 1));
  }
  std::string cut(const std::string& expr, std::size_t used = 0, std::size_t parts = 1) const {
    return full_ ? expr : cut_expression(expr, width(used, parts));
  }
  // The widths for the columns `expr_columns` of a table (header first) whose
  // other columns keep their width: on a terminal the room the other columns
  // leave is shared out, a column that needs less than its share giving the
  // rest to the others. SIZE_MAX for a column not cut.
  std::vector<std::size_t> column_widths(const std::vector<std::vector<std::string>>& rows,
                                         const std::vector<std::size_t>& expr_columns) const {
    const std::vector<std::size_t> natural = natural_widths(rows);
    std::vector<std::size_t> out(natural.size(), SIZE_MAX);
    std::vector<std::size_t> fitted;
    for (std::size_t c : expr_columns)
      if (c < natural.size()) fitted.push_back(c);
    if (full_ || fitted.empty()) return out;
    if (columns_ == 0) {
      for (std::size_t c : fitted) out[c] = kPipeExprWidth;
      return out;
    }
    const std::size_t used = width_beside(rows, fitted);
    std::size_t left = columns_ > used ? columns_ - used : 0;
    std::sort(fitted.begin(), fitted.end(), [&](std::size_t a, std::size_t b) { return natural[a] < natural[b]; });
    for (std::size_t i = 0; i < fitted.size(); ++i) {
      const std::size_t share = std::max(kMinExprWidth, left / (fitted.size() - i));
      out[fitted[i]] = std::min(natural[fitted[i]], share);
      left -= std::min(left, out[fitted[i]]);
    }
    return out;
  }
  // The columns a table's line takes beside its `expr_columns`: the other
  // columns at their widest and the gaps between all of them.
  static std::size_t width_beside(const std::vector<std::vector<std::string>>& rows,
                                  const std::vector<std::size_t>& expr_columns) {
    const std::vector<std::size_t> natural = natural_widths(rows);
    std::size_t used = natural.empty() ? 0 : 2 * (natural.size() - 1);
    for (std::size_t c = 0; c < natural.size(); ++c)
      if (std::find(expr_columns.begin(), expr_columns.end(), c) == expr_columns.end()) used += natural[c];
    return used;
  }
  // Cuts the cells of `expr_columns` in `rows` to column_widths().
  void fit_table(std::vector<std::vector<std::string>>& rows, const std::vector<std::size_t>& expr_columns) const {
    if (full_) return;
    const std::vector<std::size_t> widths = column_widths(rows, expr_columns);
    for (auto& row : rows)
      for (std::size_t c = 0; c < row.size(); ++c)
        if (widths[c] != SIZE_MAX) row[c] = cut_expression(row[c], widths[c]);
  }

 private:
  static std::vector<std::size_t> natural_widths(const std::vector<std::vector<std::string>>& rows) {
    std::vector<std::size_t> natural;
    for (const auto& row : rows) {
      if (natural.size() < row.size()) natural.resize(row.size(), 0);
      for (std::size_t c = 0; c < row.size(); ++c) natural[c] = std::max(natural[c], display_width(row[c]));
    }
    return natural;
  }
  ExprFit(bool full, std::size_t columns) : full_(full), columns_(columns) {}
  bool full_;
  std::size_t columns_;  // 0: not a terminal
};

}  // namespace symshape::cli
