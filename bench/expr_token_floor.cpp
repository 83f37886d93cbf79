// The least any expression engine does on `symshape simplify --file F`'s input:
// open the file as the command does (symshape::MappedFile), split each line into the grammar's tokens, look every name
// up in a table (as the engine interns symbols) and write the tokens back. No expression is built or simplified.
// bench/expr_cli_throughput.py
// (--token-floor) times it beside the command, category by category, to show
// how much of a throughput target is left for the engine's real work.
//
//   expr_token_floor FILE > OUT     (FILE "-" is standard input, as for simplify --file)
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "symshape/support/mapped_file.hpp"

namespace {

bool is_name_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Open addressing on FNV-1a, as the engine's symbol table: it grows only when
// a new name would fill it past half.
class NameTable {
 public:
  std::size_t id(std::string_view name) {
    uint64_t h = 0xcbf29ce484222325ULL;
    for (char c : name) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = h & mask;; i = (i + 1) & mask) {
      if (slots_[i] == kEmpty) {
        if (2 * (names_.size() + 1) > slots_.size()) {
          grow();
          return id(name);
        }
        slots_[i] = names_.size();
        names_.emplace_back(name);
        return slots_[i];
      }
      if (names_[slots_[i]] == name) return slots_[i];
    }
  }

 private:
  static constexpr std::size_t kEmpty = static_cast<std::size_t>(-1);
  std::vector<std::string> names_;
  std::vector<std::size_t> slots_ = std::vector<std::size_t>(256, kEmpty);

  void grow() {
    std::vector<std::string> old;
    old.swap(names_);
    slots_.assign(slots_.size() * 2, kEmpty);
    for (const std::string& n : old) id(n);
  }
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: expr_token_floor FILE\n");
    return 2;
  }
  const symshape::Result<symshape::MappedFile> file = symshape::MappedFile::open(argv[1], argv[1], "a text file");
  if (!file) {
    std::fprintf(stderr, "expr_token_floor: %s\n", file.error().c_str());
    return 1;
  }
  const std::string_view bytes = file->bytes();
  const char* text = bytes.data();
  const std::size_t n = bytes.size();
  NameTable names;
  std::string out;
  out.reserve(n);
  uint64_t checksum = 0;  // of the names' ids and the integers: kept (sink), so nothing is optimised away
  for (std::size_t i = 0; i < n;) {
    const char c = text[i];
    if (c == ' ' || c == '\t' || c == '\r') {
      ++i;
    } else if (is_name_start(c)) {
      std::size_t end = i + 1;
      while (end < n && (is_name_start(text[end]) || is_digit(text[end]))) ++end;
      checksum += names.id(std::string_view(text + i, end - i));
      out.append(text + i, end - i);
      i = end;
    } else if (is_digit(c)) {
      uint64_t v = 0;
      const std::size_t start = i;
      while (i < n && is_digit(text[i])) v = v * 10 + static_cast<uint64_t>(text[i++] - '0');
      checksum += v;
      out.append(text + start, i - start);
    } else {
      out += c;  // an operator, a bracket, a comma or the end of a line
      ++i;
    }
  }
  volatile uint64_t sink = checksum;
  (void)sink;
  return std::fwrite(out.data(), 1, out.size(), stdout) == out.size() ? 0 : 1;
}
