// Reading the expression corpus (bench/data/expr_corpus.txt, written by
// bench/gen_expr_corpus.py): one `category<TAB>expression` per line, blank
// lines and lines starting with '#' skipped.
#pragma once

#include <fstream>
#include <string>
#include <vector>

namespace symshape::bench {

struct CorpusLine {
  std::string category;
  std::string text;
};

// False (with a message) when the file cannot be read or a line has no tab.
inline bool read_corpus(const std::string& path, std::vector<CorpusLine>& out, std::string& error) {
  std::ifstream in(path);
  if (!in) {
    error = "cannot read corpus '" + path + "'";
    return false;
  }
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    const std::size_t tab = line.find('\t');
    if (tab == std::string::npos) {
      error = path + ":" + std::to_string(number) + ": expected category<TAB>expression";
      return false;
    }
    out.push_back({line.substr(0, tab), line.substr(tab + 1)});
  }
  return true;
}

}  // namespace symshape::bench
