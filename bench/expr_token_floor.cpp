// The least any expression engine does on `symshape simplify --file F`'s input:
// map the file, split each line into the grammar's tokens, look every name up
// in a table (as the engine interns symbols) and write the tokens back. No
// expression is built or simplified. bench/expr_cli_throughput.py
// (--token-floor) times it beside the command, category by category, to show
// how much of a throughput target is left for the engine's real work.
//
//   expr_token_floor FILE > OUT
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace {

bool is_name_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Open addressing on FNV-1a, as the engine's symbol table.
class NameTable {
 public:
  std::size_t id(std::string_view name) {
    uint64_t h = 0xcbf29ce484222325ULL;
    for (char c : name) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
    if (2 * (names_.size() + 1) > slots_.size()) grow();
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = h & mask;; i = (i + 1) & mask) {
      if (slots_[i] == kEmpty) {
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
  const int fd = open(argv[1], O_RDONLY);
  struct stat st {};
  if (fd < 0 || fstat(fd, &st) != 0) {
    std::perror(argv[1]);
    return 1;
  }
  if (!S_ISREG(st.st_mode)) {
    std::fprintf(stderr, "%s: not a regular file\n", argv[1]);
    return 1;
  }
  const std::size_t n = static_cast<std::size_t>(st.st_size);
  const char* text = "";
  if (n > 0) {
    void* p = mmap(nullptr, n, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
      std::perror(argv[1]);
      return 1;
    }
    text = static_cast<const char*>(p);
  }
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
