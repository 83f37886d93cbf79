// Diagnostic messages built from pieces:
//   ctx.record_error(n, {"axis ", axis, " is out of range for ", *s});
// Why not `"axis " + std::to_string(axis) + ...`: every `+` and std::to_string
// of such a chain is inline code at the call site (a string built, appended to
// and destroyed per piece), repeated in each of the rules' few hundred
// messages, all of which a header-only user compiles. A list of pieces is a
// small array on the stack and one call to join_message, which formats them
// out of line; the text is the same as the chain's.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>

namespace symshape {

// One piece: text or an object (neither owned; a temporary lives until the
// end of the full expression that holds the list), a character, or an
// integer (printed in decimal, as std::to_string prints it). There is no
// floating-point piece: std::to_string(double) has its own format, so such a
// value is passed as the std::to_string string.
class MessagePiece {
 public:
  MessagePiece(const char* text) : kind_(Kind::Text), text_(text) {}           // NOLINT(google-explicit-constructor)
  MessagePiece(std::string_view text) : kind_(Kind::Text), text_(text) {}      // NOLINT(google-explicit-constructor)
  MessagePiece(const std::string& text) : kind_(Kind::Text), text_(text) {}    // NOLINT(google-explicit-constructor)
  MessagePiece(char c) : kind_(Kind::Char), char_(c) {}                        // NOLINT(google-explicit-constructor)
  MessagePiece(int v) : kind_(Kind::Signed), signed_(v) {}                     // NOLINT(google-explicit-constructor)
  MessagePiece(long v) : kind_(Kind::Signed), signed_(v) {}                    // NOLINT(google-explicit-constructor)
  MessagePiece(long long v) : kind_(Kind::Signed), signed_(v) {}               // NOLINT(google-explicit-constructor)
  MessagePiece(unsigned v) : kind_(Kind::Unsigned), unsigned_(v) {}            // NOLINT(google-explicit-constructor)
  MessagePiece(unsigned long v) : kind_(Kind::Unsigned), unsigned_(v) {}       // NOLINT(google-explicit-constructor)
  MessagePiece(unsigned long long v) : kind_(Kind::Unsigned), unsigned_(v) {}  // NOLINT(google-explicit-constructor)
  // Anything with a to_string() member (a Shape, a SymbolicDim, a Type),
  // printed by it when the message is joined: the call site builds no string.
  template <class T, class = decltype(std::declval<const T&>().to_string())>
  MessagePiece(const T& object)  // NOLINT(google-explicit-constructor)
      : kind_(Kind::Object), object_{&object, [](const void* p, std::string& out) {
                                       out += static_cast<const T*>(p)->to_string();
                                     }} {}
  MessagePiece(bool) = delete;    // a flag is no message text: say what it means
  MessagePiece(double) = delete;  // see above

  void append_to(std::string& out) const {
    switch (kind_) {
      case Kind::Text:
        out += text_;
        break;
      case Kind::Char:
        out += char_;
        break;
      case Kind::Signed:
        out += std::to_string(signed_);
        break;
      case Kind::Unsigned:
        out += std::to_string(unsigned_);
        break;
      case Kind::Object:
        object_.append(object_.value, out);
        break;
    }
  }

 private:
  enum class Kind : uint8_t { Text, Char, Signed, Unsigned, Object };
  struct Object {
    const void* value;
    void (*append)(const void* value, std::string& out);
  };
  Kind kind_;
  union {
    std::string_view text_;
    char char_;
    long long signed_;
    unsigned long long unsigned_;
    Object object_;
  };
};

// The pieces' text, in order. Out of line: one copy serves every message.
[[gnu::noinline]] inline std::string join_message(std::initializer_list<MessagePiece> pieces) {
  std::string out;
  for (const MessagePiece& p : pieces) p.append_to(out);
  return out;
}

}  // namespace symshape
