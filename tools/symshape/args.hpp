// The one argument parser of every subcommand (infer, show, simplify, eval),
// and the one-line message of a fatal problem.
//
// A subcommand describes its options and positional arguments in an ArgSpec.
// parse_args walks the arguments left to right and hands each one to its
// handler at once, so the first problem in argument order is the one
// reported. A usage problem is one line on stderr, "symshape CMD: ...", and
// exit code 2. Every subcommand takes -h/--help (its usage on stdout, exit 0)
// and "--" (every later argument is positional).
#pragma once

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "symshape/report/diagnostic_text.hpp"  // one_line
#include "symshape/support/sanitizers.hpp"

namespace symshape::cli {

// The exit codes of every subcommand.
inline constexpr int kExitOk = 0;
inline constexpr int kExitInput = 1;      // unreadable or malformed input, or an output that cannot be written
inline constexpr int kExitUsage = 2;      // bad usage
inline constexpr int kExitInference = 3;  // inference reported errors

// The last step of a command that loaded a model, once everything it writes
// is written: the process ends with `code` without freeing the model and the
// inference state one allocation at a time (a tenth of `infer`'s time on a
// 100,000-node graph); the kernel takes the memory back at once. Under
// AddressSanitizer the teardown runs as usual, so that leak checking sees it;
// in WebAssembly too, where the command runs inside a module that lives on
// (web/wasm/symshape_wasm.cpp).
inline int end_without_teardown(int code) {
#if !SYMSHAPE_ADDRESS_SANITIZER && !defined(__EMSCRIPTEN__)
  std::fflush(nullptr);
  std::_Exit(code);
#endif
  return code;
}

// Text for one line of stderr (control characters escaped).
using report::one_line;

// "1 error", "0 errors", "2 errors": a count and its noun, plural (NOUN + "s")
// unless the count is 1.
inline std::string count_noun(std::size_t n, const std::string& noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

// Prints "symshape CMD: MESSAGE" on stderr; returns `code` (1: unreadable or
// malformed input or a failed write, 2: bad usage).
inline int fatal(const char* cmd, const std::string& message, int code = 1) {
  std::fprintf(stderr, "symshape %s: %s\n", cmd, one_line(message).c_str());
  return code;
}

// One option. One with a value is written "NAME VALUE" or "NAME=VALUE"; a
// switch (no value_name) is the bare NAME.
struct Option {
  std::vector<std::string> names;    // its spellings, e.g. {"-o", "--output"}
  const char* value_name = nullptr;  // "OUT.onnx" in "-o needs OUT.onnx"; nullptr for a switch
  // Called once per occurrence, in order, so a repeated option (--input-shape,
  // --bind) accumulates and a repeated -o keeps the last. A switch gets "".
  // False with `error` set rejects the value (exit 2).
  std::function<bool(const std::string& value, std::string& error)> handle;
};

struct ArgSpec {
  const char* command;  // "infer": messages start with "symshape infer: "
  const char* usage;    // printed on stdout by -h/--help
  std::vector<Option> options;
  // Takes a positional argument; false when there is no room for it
  // ("unexpected argument 'X'").
  std::function<bool(const std::string& arg)> positional;
  // simplify and eval take expressions, and "-3" or "-a" is one: there an
  // argument that matches no option is positional, never an unknown option.
  bool dash_args_are_positional = false;
};

// Handlers for the common cases.

// An option whose value is stored (a repeated one keeps the last).
inline auto store_value(std::string& target) {
  return [&target](const std::string& value, std::string&) {
    target = value;
    return true;
  };
}

// A switch that sets `flag`.
inline auto set_flag(bool& flag) {
  return [&flag](const std::string&, std::string&) {
    flag = true;
    return true;
  };
}

// A file name stored in `target` (infer's -o, the --json, --csv and --plot
// files); an empty one is refused.
inline auto file_option(std::string& target, const char* option) {
  return [&target, option](const std::string& value, std::string& error) {
    if (value.empty()) {
      error = std::string(option) + " needs a file name";
      return false;
    }
    target = value;
    return true;
  };
}

// One positional argument, stored in `target`. An empty argument leaves the
// place free for the next one (so `infer "" M.onnx` reads M.onnx), as the
// commands did before they shared this parser.
inline auto one_positional(std::string& target) {
  return [&target](const std::string& arg) {
    if (!target.empty()) return false;
    target = arg;
    return true;
  };
}

// An argument matched to one of the spec's options.
struct OptionMatch {
  const Option* option = nullptr;           // nullptr: the argument names no option
  std::optional<std::string> inline_value;  // the VALUE of NAME=VALUE
};

inline OptionMatch match_option(const ArgSpec& spec, const std::string& arg) {
  for (const Option& option : spec.options)
    for (const std::string& name : option.names) {
      if (arg == name) return {&option, std::nullopt};
      const bool name_equals =
          arg.size() > name.size() && arg.compare(0, name.size(), name) == 0 && arg[name.size()] == '=';
      if (option.value_name && name_equals) return {&option, arg.substr(name.size() + 1)};
    }
  return {};
}

// Hands every argument to its handler. Returns nothing when the command is
// to run; else its exit code: 0 after -h/--help printed the usage, 2 after
// printing the usage error.
inline std::optional<int> parse_args(const ArgSpec& spec, const std::vector<std::string>& args) {
  bool only_positional = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (only_positional) {
      if (!spec.positional(arg)) return fatal(spec.command, "unexpected argument '" + arg + "'", kExitUsage);
      continue;
    }
    if (arg == "--") {
      only_positional = true;
      continue;
    }
    if (arg == "-h" || arg == "--help") {
      std::fputs(spec.usage, stdout);
      return std::fflush(stdout) == 0 ? kExitOk : kExitInput;
    }
    const OptionMatch match = match_option(spec, arg);
    if (match.option) {
      std::string value;
      if (match.inline_value) {
        value = *match.inline_value;
      } else if (match.option->value_name) {
        // The next argument is the value even when it starts with '-'.
        if (i + 1 >= args.size()) return fatal(spec.command, arg + " needs " + match.option->value_name, kExitUsage);
        value = args[++i];
      }
      std::string error;
      if (!match.option->handle(value, error)) return fatal(spec.command, error, kExitUsage);
      continue;
    }
    // A lone "-" is not an option: it names standard input or output.
    if (!spec.dash_args_are_positional && !arg.empty() && arg[0] == '-' && arg != "-")
      return fatal(spec.command, "unknown option '" + arg + "' (try symshape " + spec.command + " --help)", kExitUsage);
    if (!spec.positional(arg)) return fatal(spec.command, "unexpected argument '" + arg + "'", kExitUsage);
  }
  return std::nullopt;
}

}  // namespace symshape::cli
