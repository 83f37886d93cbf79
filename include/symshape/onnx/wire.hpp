// The protobuf wire format, read in place: varints, tags, length-delimited
// fields, packed repeated scalars, groups (skipped), and a check that a
// message is well formed that accepts and refuses exactly what libprotobuf
// 3.21's parser does (google/protobuf/parse_context.h):
// - a varint takes at most 10 bytes (bits past 64 dropped), a tag at most 5
//   (bits past 32 dropped), a length at most 5 (and below INT_MAX - 16);
// - nothing may cross the end of its enclosing message (a truncated or lying
//   length fails);
// - a tag 0, a field number 0, wire types 6 and 7, and an end-group tag that
//   does not close the open group fail;
// - a known field of an unexpected wire type is an unknown field; unknown
//   length-delimited fields are not looked into, unknown groups are;
// - a packed fixed-size field's length is a multiple of the element size;
// - messages and groups nest at most `budget` levels below the outermost one.
// The check keeps an explicit stack: no recursion, whatever the nesting.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

namespace symshape::onnx::wire {

enum WireType : uint32_t { kVarint = 0, kFixed64 = 1, kLen = 2, kStartGroup = 3, kEndGroup = 4, kFixed32 = 5 };

// A byte range of the input.
struct Span {
  const char* begin = nullptr;
  const char* end = nullptr;
  std::size_t size() const { return static_cast<std::size_t>(end - begin); }
  std::string_view view() const { return {begin, size()}; }
};

// Reading primitives over [p, end); each returns false (p unspecified) when
// the value is malformed or crosses end.
//
// Most varints, tags and lengths of a model are one byte: those are read
// inline, the longer ones out of line.
struct Cursor {
  const char* p;
  const char* end;

  bool at_end() const { return p >= end; }

  [[gnu::always_inline]] bool varint(uint64_t& v) {
    if (p < end && static_cast<uint8_t>(*p) < 0x80) {
      v = static_cast<uint8_t>(*p++);
      return true;
    }
    return long_varint(v);
  }

  [[gnu::noinline]] bool long_varint(uint64_t& v) {
    uint64_t r = 0;
    for (int i = 0; i < 10; ++i) {
      if (p >= end) return false;
      const auto byte = static_cast<uint8_t>(*p++);
      r |= static_cast<uint64_t>(byte & 0x7f) << (7 * i);  // bits past 64 are dropped, as libprotobuf does
      if (byte < 0x80) {
        v = r;
        return true;
      }
    }
    return false;
  }

  [[gnu::always_inline]] bool tag(uint32_t& t) {
    if (p < end && static_cast<uint8_t>(*p) < 0x80) {
      t = static_cast<uint8_t>(*p++);
      return true;
    }
    return long_tag(t);
  }

  // A length and the bytes it covers.
  [[gnu::always_inline]] bool len(Span& s) {
    if (p < end && static_cast<uint8_t>(*p) < 0x80) {
      const auto r = static_cast<uint8_t>(*p++);
      if (r > static_cast<std::size_t>(end - p)) return false;
      s = {p, p + r};
      p += r;
      return true;
    }
    return long_len(s);
  }

  [[gnu::noinline]] bool long_tag(uint32_t& t) {
    uint32_t r = 0;
    for (int i = 0; i < 5; ++i) {
      if (p >= end) return false;
      const auto byte = static_cast<uint8_t>(*p++);
      r |= static_cast<uint32_t>(byte & 0x7f) << (7 * i);
      if (byte < 0x80) {
        t = r;
        return true;
      }
    }
    return false;
  }

  [[gnu::noinline]] bool long_len(Span& s) {
    uint32_t r = 0;
    for (int i = 0; i < 5; ++i) {
      if (p >= end) return false;
      const auto byte = static_cast<uint8_t>(*p++);
      if (i == 4 && byte >= 8) return false;  // 2 GB or more
      r |= static_cast<uint32_t>(byte & 0x7f) << (7 * i);
      if (byte < 0x80) {
        if (r > 0x7fffffffu - 16 || r > static_cast<std::size_t>(end - p)) return false;
        s = {p, p + r};
        p += r;
        return true;
      }
    }
    return false;
  }

  bool skip(std::size_t n) {
    if (static_cast<std::size_t>(end - p) < n) return false;
    p += n;
    return true;
  }
};

inline uint32_t load_u32(const char* p) {
  uint32_t v;
  std::memcpy(&v, p, sizeof v);
  return v;  // little-endian hosts (x86-64, aarch64)
}
inline uint64_t load_u64(const char* p) {
  uint64_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// One field of a message: its number and wire type, the value of a varint or
// fixed field (in `u`), the bytes of a length-delimited one.
struct Field {
  uint32_t number = 0;
  uint32_t wire = 0;
  uint64_t u = 0;
  Span bytes;
};

// Walks the fields of a message's bytes in order, skipping groups. Meant for
// bytes that check_message accepted; on malformed bytes it stops early.
class Fields {
 public:
  explicit Fields(Span s) : c_{s.begin, s.end} {}

  [[gnu::always_inline]] bool next(Field& f) {
    for (;;) {
      uint32_t tag = 0;
      if (c_.at_end() || !c_.tag(tag)) return false;
      f.number = tag >> 3;
      f.wire = tag & 7;
      switch (f.wire) {
        case kVarint:
          if (!c_.varint(f.u)) return false;
          return true;
        case kFixed64:
          if (!c_.skip(8)) return false;
          f.u = load_u64(c_.p - 8);
          return true;
        case kLen:
          return c_.len(f.bytes);
        case kFixed32:
          if (!c_.skip(4)) return false;
          f.u = load_u32(c_.p - 4);
          return true;
        case kStartGroup:
          if (!skip_group(f.number)) return false;
          continue;
        default:
          return false;
      }
    }
  }

 private:
  // Past the end-group tag of an (already checked) group.
  bool skip_group(uint32_t number) {
    std::vector<uint32_t> open{number};
    while (!open.empty()) {
      uint32_t tag = 0;
      if (!c_.tag(tag)) return false;
      uint64_t v = 0;
      Span s;
      switch (tag & 7) {
        case kVarint:
          if (!c_.varint(v)) return false;
          break;
        case kFixed64:
          if (!c_.skip(8)) return false;
          break;
        case kLen:
          if (!c_.len(s)) return false;
          break;
        case kFixed32:
          if (!c_.skip(4)) return false;
          break;
        case kStartGroup:
          open.push_back(tag >> 3);
          break;
        case kEndGroup:
          if (open.back() != tag >> 3) return false;
          open.pop_back();
          break;
        default:
          return false;
      }
    }
    return true;
  }
  Cursor c_;
};

// Calls add(value) for each varint of a packed field's bytes.
template <class Add>
bool for_each_packed_varint(Span s, Add&& add) {
  Cursor c{s.begin, s.end};
  uint64_t v = 0;
  while (!c.at_end()) {
    if (!c.varint(v)) return false;
    add(v);
  }
  return true;
}

// The number of varints in a packed field's bytes (each ends with a byte
// below 0x80).
inline int64_t count_packed_varints(Span s) {
  int64_t n = 0;
  for (const char* p = s.begin; p != s.end; ++p) n += static_cast<uint8_t>(*p) < 0x80;
  return n;
}

// How a message type's field is read when it comes with its expected wire
// type (any other wire type makes it an unknown field).
enum class Kind : uint8_t {
  kUnknown = 0,
  kVarint,         // wire type 0
  kFixed32,        // wire type 5
  kFixed64,        // wire type 1
  kBytes,          // wire type 2, not looked into (strings, bytes)
  kMessage,        // wire type 2, a message of type `type`
  kPackedVarint,   // wire type 0, or 2 holding varints
  kPackedFixed32,  // wire type 5, or 2 holding a multiple of 4 bytes
  kPackedFixed64,  // wire type 1, or 2 holding a multiple of 8 bytes
};

// What check_message does with a field, decided by its tag and the fields
// of the message around it (its wire type, and for wire type 2 the field's
// Kind): fail, read a value, skip bytes, enter a message or group, leave one.
enum class Step : uint8_t {
  kFail = 0,  // (0: the steps of a spec whose compute_steps() was not called fail every message)
  kVarint,
  kFixed64,
  kFixed32,
  kStartGroup,
  kEndGroup,
  kSkipLen,        // a length-delimited field not looked into
  kEnterLen,       // a message of a known type
  kPackedVarints,  // a packed field of varints
  kPackedFixed32,  // ... of 4-byte values
  kPackedFixed64,  // ... of 8-byte values
};

// A message type's fields 1..kMaxFieldNumber (higher numbers are unknown).
inline constexpr uint32_t kMaxFieldNumber = 31;
struct FieldSpec {
  Kind kind = Kind::kUnknown;
  uint8_t type = 0;  // the message type of a kMessage field
};

// The step for field `number` of wire type `wire` in a message whose fields
// are `fields`.
constexpr Step step_for(const FieldSpec* fields, uint32_t number, uint32_t wire) {
  if (number == 0) return Step::kFail;  // a tag 0 too
  switch (wire) {
    case kVarint:
      return Step::kVarint;
    case kFixed64:
      return Step::kFixed64;
    case kFixed32:
      return Step::kFixed32;
    case kStartGroup:
      return Step::kStartGroup;
    case kEndGroup:
      return Step::kEndGroup;
    case kLen:
      switch (number <= kMaxFieldNumber ? fields[number].kind : Kind::kUnknown) {
        case Kind::kMessage:
          return Step::kEnterLen;
        case Kind::kPackedVarint:
          return Step::kPackedVarints;
        case Kind::kPackedFixed32:
          return Step::kPackedFixed32;
        case Kind::kPackedFixed64:
          return Step::kPackedFixed64;
        default:
          return Step::kSkipLen;
      }
    default:
      return Step::kFail;  // wire types 6 and 7
  }
}

// Most tags of a model are one byte (field numbers 1-15): their steps are
// looked up, one load in place of the tests of step_for.
inline constexpr uint32_t kOneByteTags = 0x80;
struct MessageSpec {
  FieldSpec fields[kMaxFieldNumber + 1];
  Step steps[kOneByteTags] = {};  // by tag; filled by compute_steps() once the fields are set
  constexpr void compute_steps() {
    for (uint32_t tag = 0; tag < kOneByteTags; ++tag) steps[tag] = step_for(fields, tag >> 3, tag & 7);
  }
};

// A group is read as a message whose fields are all unknown.
inline constexpr MessageSpec kGroupSpec = [] {
  MessageSpec spec{};
  spec.compute_steps();
  return spec;
}();

// A varint field check_message looks out for while it checks: `seen` is set
// when field `number` of message type `type` comes with the value `value`
// (compared on the low 32 bits, as an int32 or enum field is read). It may
// be set for a value a later occurrence overrides: a watch can only err
// towards "seen".
struct VarintWatch {
  int type = -1;
  uint32_t number = 0;
  uint32_t value = 0;
  bool seen = false;
};

namespace detail {

// A message or group being checked: where it ends, its type (or -1 for a
// group), its fields and the steps of its one-byte tags (kGroupSpec's for a
// group), the field number of a group.
struct Frame {
  const char* end;
  int type;
  const FieldSpec* fields;
  const Step* steps;
  uint32_t group;
};

}  // namespace detail

// Whether `bytes` parse as a message of type `type` (an index in `specs`,
// whose compute_steps() was called) the way libprotobuf parses them with a
// recursion budget of `budget`; `watch`, when given, is updated on the way
// (see VarintWatch).
inline bool check_message(std::string_view bytes, const MessageSpec* specs, int type, int budget,
                          VarintWatch* watch = nullptr) {
  // The message or group being read is `top`, in locals (read for every
  // field); `outer` holds the ones around it.
  std::vector<detail::Frame> outer;
  const auto frame_of = [specs](const char* end, int t) {
    return detail::Frame{end, t, specs[t].fields, specs[t].steps, 0};
  };
  detail::Frame top = frame_of(bytes.data() + bytes.size(), type);
  Cursor c{bytes.data(), top.end};
  const auto enter = [&](const detail::Frame& inner) {
    if (static_cast<int>(outer.size()) >= budget) return false;  // the new level would be budget + 1
    outer.push_back(top);
    top = inner;
    c.end = inner.end;
    return true;
  };
  const auto leave = [&] {
    top = outer.back();
    outer.pop_back();
    c.end = top.end;
  };
  for (;;) {
    if (c.p == c.end) {
      if (top.group != 0) return false;  // a group reached its enclosing end without an end-group tag
      if (outer.empty()) return true;
      leave();
      continue;
    }
    uint32_t tag = 0;
    Step step = Step::kFail;
    if (static_cast<uint8_t>(*c.p) < kOneByteTags) {
      tag = static_cast<uint8_t>(*c.p++);
      step = top.steps[tag];
    } else {
      if (!c.long_tag(tag)) return false;
      step = step_for(top.fields, tag >> 3, tag & 7);
    }
    const uint32_t number = tag >> 3;
    Span s;
    switch (step) {
      case Step::kFail:
        return false;
      case Step::kVarint: {
        uint64_t v = 0;
        if (!c.varint(v)) return false;
        if (watch && top.type == watch->type && number == watch->number && static_cast<uint32_t>(v) == watch->value)
          watch->seen = true;
        break;
      }
      case Step::kFixed64:
        if (!c.skip(8)) return false;
        break;
      case Step::kFixed32:
        if (!c.skip(4)) return false;
        break;
      case Step::kStartGroup:
        if (!enter({top.end, -1, kGroupSpec.fields, kGroupSpec.steps, number})) return false;
        break;
      case Step::kEndGroup:
        if (top.group != number) return false;  // (a message's frame has group 0, never a field number)
        leave();
        break;
      case Step::kSkipLen:
        if (!c.len(s)) return false;
        break;
      case Step::kEnterLen:
        if (!c.len(s)) return false;
        c.p = s.begin;
        if (!enter(frame_of(s.end, top.fields[number].type))) return false;
        break;
      case Step::kPackedVarints:
        if (!c.len(s) || !for_each_packed_varint(s, [](uint64_t) {})) return false;
        break;
      case Step::kPackedFixed32:
        if (!c.len(s) || s.size() % 4 != 0) return false;
        break;
      case Step::kPackedFixed64:
        if (!c.len(s) || s.size() % 8 != 0) return false;
        break;
    }
  }
}

}  // namespace symshape::onnx::wire
