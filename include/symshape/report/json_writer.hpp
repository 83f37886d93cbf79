// A small JSON writer for the reports (report_json.hpp, profile_json.hpp:
// `symshape infer --json`, `symshape profile --json`, the Python package).
//
// Each object or array is either Pretty (one member per line, indented two
// spaces per level) or Inline (one line, members separated by ", "); keys are
// always followed by ": ". An empty container is "{}" or "[]" in both. Inside
// an Inline container everything is inline. That is the layout the report
// had when tools/symshape/infer_commands.hpp built it by string concatenation, so moving to
// this writer left its bytes as they were.
//
// Strings are escaped as RFC 8259 section 7 requires: '"', '\\' and the
// control characters below 0x20 ("\n", "\r", "\t" by name, the others as
// \u00XX). Other bytes are copied: UTF-8 text stays as it is (ONNX names are
// UTF-8 protobuf strings).
#pragma once

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace symshape::report {

// `s` as a quoted JSON string.
inline std::string json_quote(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  out += '"';
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
          out += buf;
        } else {
          out += ch;
        }
    }
  }
  out += '"';
  return out;
}

class JsonWriter {
 public:
  enum class Layout { Pretty, Inline };

  JsonWriter& begin_object(Layout layout = Layout::Pretty) { return open('{', '}', layout); }
  JsonWriter& end_object() { return close(); }
  JsonWriter& begin_array(Layout layout = Layout::Pretty) { return open('[', ']', layout); }
  JsonWriter& end_array() { return close(); }

  // The key of the next member of the current object.
  JsonWriter& key(std::string_view name) {
    start_value();
    out_ += json_quote(name);
    out_ += ": ";
    after_key_ = true;
    return *this;
  }

  // Distinct names rather than overloads of one value(): a string literal
  // would otherwise convert to bool.
  JsonWriter& string(std::string_view s) {
    start_value();
    out_ += json_quote(s);
    return *this;
  }
  template <class Int, std::enable_if_t<std::is_integral_v<Int> && !std::is_same_v<Int, bool>, int> = 0>
  JsonWriter& integer(Int n) {
    start_value();
    out_ += std::to_string(n);
    return *this;
  }
  JsonWriter& boolean(bool b) {
    start_value();
    out_ += b ? "true" : "false";
    return *this;
  }
  JsonWriter& null() {
    start_value();
    out_ += "null";
    return *this;
  }
  // The integer, or null when there is none.
  JsonWriter& integer_or_null(const std::optional<int64_t>& n) { return n ? integer(*n) : null(); }

  // The text so far; complete once every container is closed.
  const std::string& str() const { return out_; }

 private:
  struct Level {
    char close;
    bool pretty;
    bool empty = true;
  };

  JsonWriter& open(char open_char, char close_char, Layout layout) {
    start_value();
    const bool pretty = layout == Layout::Pretty && (levels_.empty() || levels_.back().pretty);
    levels_.push_back({close_char, pretty});
    out_ += open_char;
    return *this;
  }

  JsonWriter& close() {
    const Level level = levels_.back();
    levels_.pop_back();
    if (level.pretty && !level.empty) new_line();
    out_ += level.close;
    return *this;
  }

  // The separator before a value or key: nothing right after a key, else a
  // comma after the previous member and, in a Pretty container, a new line.
  void start_value() {
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (levels_.empty()) return;
    Level& level = levels_.back();
    if (!level.empty) out_ += level.pretty ? "," : ", ";
    if (level.pretty) new_line();
    level.empty = false;
  }

  void new_line() {
    out_ += '\n';
    out_.append(2 * levels_.size(), ' ');
  }

  std::vector<Level> levels_;
  std::string out_;
  bool after_key_ = false;
};

}  // namespace symshape::report
