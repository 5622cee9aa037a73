// The one argument parser of tessera-cli. A command declares what it reads
// as a table (ArgTable): its positionals and its options, one row each, with
// where each value goes and the exact words of each error; parse_args()
// walks the arguments against the table.
//
// The commands grew their own loops before this parser, and scripts and
// tests match their messages, so a table can say everything in which those
// loops differed: which unknown arguments are options (UnknownOptions),
// whether positionals are read as they come or after counting them
// (PositionalCheck), how an integer is spelled (IntegerSyntax), and every
// message fragment. An error is "tessera-cli: <command>: ..." through
// usage_error(), exit code kExitUsage; the first error met is the one
// reported.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "commands.hpp"

namespace tessera::cli {

inline constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();
inline constexpr std::int64_t kInt64Min = std::numeric_limits<std::int64_t>::min();

// What a reader made of one value.
enum class Verdict {
  kAccepted,    // stored
  kBad,         // not a value of this row
  kOutOfRange,  // an integer, but outside the row's range
  kZero,        // 0, which the row excludes
};

// Reads one value's text and, when it is accepted, stores it. The
// factories below make the usual ones; any such callable is one.
using ValueReader = std::function<Verdict(const std::string& text)>;

// How an integer is spelled. Both read decimal digits; they differ at the
// edges ("-0", 19 digits with leading zeros), where the commands differ.
enum class IntegerSyntax {
  kSigned,  // an optional '-' and digits whose value fits in int64
  kDigits,  // digits only (no sign), at most 18 of them
};

// The integer `text` spells under `syntax` into *out; false (and *out
// untouched) otherwise.
bool read_integer(std::string_view text, IntegerSyntax syntax, std::int64_t* out);

// The verdict on `text` as an integer in [low, high] (and not 0 when
// `nonzero`), and its value in *value when accepted.
Verdict judge_integer(std::string_view text, IntegerSyntax syntax, std::int64_t low,
                      std::int64_t high, bool nonzero, std::int64_t* value);

// An integer in [low, high] (and not 0 when `nonzero`) into *out.
template <class T>
ValueReader integer_in(IntegerSyntax syntax, std::int64_t low, std::int64_t high, bool nonzero,
                       T* out) {
  return [=](const std::string& text) {
    std::int64_t value = 0;
    const Verdict verdict = judge_integer(text, syntax, low, high, nonzero, &value);
    if (verdict == Verdict::kAccepted) *out = static_cast<T>(value);
    return verdict;
  };
}

template <class T>
ValueReader integer(IntegerSyntax syntax, std::int64_t low, std::int64_t high, T* out) {
  return integer_in(syntax, low, high, false, out);
}

template <class T>
ValueReader nonzero_integer(IntegerSyntax syntax, std::int64_t low, std::int64_t high, T* out) {
  return integer_in(syntax, low, high, true, out);
}

// One name of a choice list and the value it stands for.
template <class T>
struct Named {
  const char* name;
  T value;
};

// One of `names` (spelled exactly) into *out. The list must outlive the
// reader: a static array.
template <class T>
ValueReader choice(std::span<const Named<T>> names, T* out) {
  return [=](const std::string& text) {
    for (const Named<T>& n : names) {
      if (text == n.name) {
        *out = n.value;
        return Verdict::kAccepted;
      }
    }
    return Verdict::kBad;
  };
}

// Free text that `parse` accepts, into *out (a T or a std::optional<T>):
// the library's own name parsers (ISA levels, policies, CPU lists) and a
// command's own (a reduction's name, a process grid).
template <class T, class Target>
ValueReader text(bool (*parse)(std::string_view, T*), Target* out) {
  return [=](const std::string& value_text) {
    T value{};
    if (!parse(value_text, &value)) return Verdict::kBad;
    *out = value;
    return Verdict::kAccepted;
  };
}

// The words of a row's errors. An option's follow "<command>: <option> ",
// a positional's "<command>: "; "{}" stands for the argument as given.
struct Messages {
  std::string bad = {};           // a value the row does not take
  std::string out_of_range = {};  // an integer outside the range; empty: `bad`
  std::string zero = {};          // 0 where the row excludes it; empty: `bad`
  // Nothing to read: an option last on the line, or a word positional
  // (Positional::word) never given. Empty for an option: its value is read
  // as "" (so `bad` names it, as "(got '')").
  std::string missing = {};
};

struct Option {
  std::string name;             // "--threads"
  bool takes_value = true;      // false: a flag, whose reader gets ""
  ValueReader read;
  Messages messages;
  bool* given = nullptr;        // set when the option is given
  std::string required;         // non-empty: "<command>: <required>" when absent
};

// An option with a value.
inline Option option(std::string name, ValueReader read, Messages messages,
                     bool* given = nullptr) {
  return {std::move(name), true, std::move(read), std::move(messages), given, {}};
}

// A flag: `value` into *out when given.
template <class T>
Option flag(std::string name, T* out, T value, bool* given = nullptr) {
  ValueReader set = [=](const std::string&) {
    *out = value;
    return Verdict::kAccepted;
  };
  return {std::move(name), false, std::move(set), {}, given, {}};
}
inline Option flag(std::string name, bool* out, bool* given = nullptr) {
  return flag(std::move(name), out, true, given);
}

// `row`, which must be given: absent, it is "<command>: <message>" (after
// the positionals are checked).
inline Option required(Option row, std::string message) {
  row.required = std::move(message);
  return row;
}

struct Positional {
  std::string placeholder;  // "M", as in the usage text
  ValueReader read;
  Messages messages;
  // A word (a non-empty argument that starts with neither a digit nor '-'),
  // with PositionalCheck::kAsTheyCome only: anything else passes this slot
  // by, to the next one, and the slot's `missing` is reported at the end.
  bool word = false;
};

inline Positional positional(std::string placeholder, ValueReader read, Messages messages) {
  return {std::move(placeholder), std::move(read), std::move(messages), false};
}
inline Positional word_positional(std::string placeholder, ValueReader read,
                                  Messages messages) {
  return {std::move(placeholder), std::move(read), std::move(messages), true};
}
// A matrix dimension (gemm's and qgemm's M, N, K): any size >= 0, signed
// text so that "-3" is named as out of range; what fits the target is
// checked when the operands are allocated.
inline Positional dimension_positional(const std::string& name, std::int64_t* out) {
  return positional(name, integer(IntegerSyntax::kSigned, 0, kInt64Max, out),
                    {.bad = name + " must be an integer (got '{}')",
                     .out_of_range = name + " must be >= 0 (got {})"});
}

// Which arguments that are not in the option table are unknown options
// ("<command>: unknown option '...'"); the others are positionals.
enum class UnknownOptions {
  kEveryArgument,  // a command without positionals
  kLeadingDash,    // "-" and everything starting with '-'
  kDashAndMore,    // '-' and at least one more character ("-" is positional)
  // '-' and a non-digit: "-" and "-5" are positionals, so that a negative
  // number gets its positional's own message.
  kDashNotDigit,
};

// When the positionals are read.
enum class PositionalCheck {
  // Each when it comes, so a bad one is named before a later bad option;
  // the count is checked at the end. Extras are read by the last row, so a
  // malformed one is named before the count is (a well-formed one lands in
  // that row's target, but the count error follows).
  kAsTheyCome,
  // After all options: the count first, then each in order.
  kAfterCounting,
};

struct ArgTable {
  std::string command;  // "gemm"
  UnknownOptions unknown_options = UnknownOptions::kLeadingDash;
  PositionalCheck positional_check = PositionalCheck::kAfterCounting;
  std::vector<Positional> positionals = {};
  // "<command>: <count_message>" when the positionals (words aside) are too
  // few or too many; "{}" stands for how many were given.
  std::string count_message = {};
  std::vector<Option> options = {};
};

// Reads `args` against `table` into the rows' targets: kExitOk, or
// usage_error()'s code after printing the first error.
int parse_args(const ArgTable& table, const Args& args);

}  // namespace tessera::cli
