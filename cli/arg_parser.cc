#include "arg_parser.hpp"

#include <cstddef>

namespace tessera::cli {
namespace {

// `fragment` with its "{}", if it has one, replaced by `value`.
std::string fill(const std::string& fragment, const std::string& value) {
  const std::size_t at = fragment.find("{}");
  if (at == std::string::npos) return fragment;
  return fragment.substr(0, at) + value + fragment.substr(at + 2);
}

const std::string& message_for(const Messages& messages, Verdict verdict) {
  if (verdict == Verdict::kOutOfRange && !messages.out_of_range.empty()) {
    return messages.out_of_range;
  }
  if (verdict == Verdict::kZero && !messages.zero.empty()) return messages.zero;
  return messages.bad;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

bool is_unknown_option(const std::string& arg, UnknownOptions rule) {
  switch (rule) {
    case UnknownOptions::kEveryArgument:
      return true;
    case UnknownOptions::kLeadingDash:
      return !arg.empty() && arg[0] == '-';
    case UnknownOptions::kDashAndMore:
      return arg.size() > 1 && arg[0] == '-';
    case UnknownOptions::kDashNotDigit:
      return arg.size() > 1 && arg[0] == '-' && !is_digit(arg[1]);
  }
  return true;
}

bool is_word(const std::string& arg) {
  return !arg.empty() && !is_digit(arg[0]) && arg[0] != '-';
}

// One walk over the arguments: the positionals seen so far and which
// options were given, so that the checks after the walk can see them.
class ArgWalk {
 public:
  explicit ArgWalk(const ArgTable& table)
      : table_(table),
        option_given_(table.options.size(), false),
        slot_filled_(table.positionals.size(), false) {}

  int run(const Args& args) {
    for (std::size_t i = 0; i < args.size(); ++i) {
      const std::string& arg = args[i];
      const std::size_t row = find_option(arg);
      if (row == table_.options.size()) {
        if (is_unknown_option(arg, table_.unknown_options)) {
          return fail(fill("unknown option '{}'", arg));
        }
        if (table_.positional_check == PositionalCheck::kAfterCounting) {
          waiting_.push_back(&arg);
        } else if (const int code = take_positional(arg); code != kExitOk) {
          return code;
        }
        continue;
      }
      const Option& option = table_.options[row];
      // The value is the next argument whatever it looks like, as every
      // command always took it.
      std::string value;
      if (option.takes_value) {
        if (i + 1 < args.size()) {
          value = args[++i];
        } else if (!option.messages.missing.empty()) {
          return fail(option.name + " " + option.messages.missing);
        }
      }
      const Verdict verdict = option.read(value);
      if (verdict != Verdict::kAccepted) {
        return fail(option.name + " " + fill(message_for(option.messages, verdict), value));
      }
      option_given_[row] = true;
      if (option.given != nullptr) *option.given = true;
    }
    if (const int code = finish_positionals(); code != kExitOk) return code;
    for (std::size_t row = 0; row < table_.options.size(); ++row) {
      const Option& option = table_.options[row];
      if (!option.required.empty() && !option_given_[row]) return fail(option.required);
    }
    return kExitOk;
  }

 private:
  int fail(const std::string& text) const { return usage_error(table_.command + ": " + text); }

  std::size_t find_option(const std::string& arg) const {
    std::size_t row = 0;
    while (row < table_.options.size() && table_.options[row].name != arg) ++row;
    return row;
  }

  int read(const Positional& slot, const std::string& arg) const {
    const Verdict verdict = slot.read(arg);
    if (verdict == Verdict::kAccepted) return kExitOk;
    return fail(fill(message_for(slot.messages, verdict), arg));
  }

  // PositionalCheck::kAsTheyCome: `arg` into the next slot that takes it.
  int take_positional(const std::string& arg) {
    const std::vector<Positional>& slots = table_.positionals;
    if (slots.empty()) {
      ++counted_;  // the count check names it
      return kExitOk;
    }
    while (next_slot_ < slots.size() && slots[next_slot_].word && !is_word(arg)) ++next_slot_;
    const std::size_t slot = next_slot_ < slots.size() ? next_slot_++ : slots.size() - 1;
    if (!slots[slot].word) ++counted_;
    slot_filled_[slot] = true;
    return read(slots[slot], arg);
  }

  int finish_positionals() {
    const std::vector<Positional>& slots = table_.positionals;
    if (table_.positional_check == PositionalCheck::kAfterCounting) {
      if (waiting_.size() != slots.size()) {
        return fail(fill(table_.count_message, std::to_string(waiting_.size())));
      }
      for (std::size_t k = 0; k < slots.size(); ++k) {
        if (const int code = read(slots[k], *waiting_[k]); code != kExitOk) return code;
      }
      return kExitOk;
    }
    std::size_t numbers = 0;
    for (std::size_t k = 0; k < slots.size(); ++k) {
      if (!slots[k].word) {
        ++numbers;
      } else if (!slot_filled_[k]) {
        return fail(slots[k].messages.missing);
      }
    }
    if (counted_ != numbers) return fail(fill(table_.count_message, std::to_string(counted_)));
    return kExitOk;
  }

  const ArgTable& table_;
  std::vector<bool> option_given_;
  std::vector<bool> slot_filled_;
  std::vector<const std::string*> waiting_;  // kAfterCounting: in order
  std::size_t next_slot_ = 0;                // kAsTheyCome
  std::size_t counted_ = 0;                  // kAsTheyCome: words aside
};

}  // namespace

bool read_integer(std::string_view text, IntegerSyntax syntax, std::int64_t* out) {
  if (syntax == IntegerSyntax::kDigits && (text.size() > 18 || (!text.empty() && text[0] == '-'))) {
    return false;
  }
  const bool negative = !text.empty() && text[0] == '-';
  std::size_t i = negative ? 1 : 0;
  if (i == text.size()) return false;
  std::int64_t value = 0;
  for (; i < text.size(); ++i) {
    if (!is_digit(text[i])) return false;
    const int digit = text[i] - '0';
    if (value > (kInt64Max - digit) / 10) return false;
    value = value * 10 + digit;
  }
  *out = negative ? -value : value;
  return true;
}

Verdict judge_integer(std::string_view text, IntegerSyntax syntax, std::int64_t low,
                      std::int64_t high, bool nonzero, std::int64_t* value) {
  std::int64_t read = 0;
  if (!read_integer(text, syntax, &read)) return Verdict::kBad;
  if (read < low || read > high) return Verdict::kOutOfRange;
  if (nonzero && read == 0) return Verdict::kZero;
  *value = read;
  return Verdict::kAccepted;
}

int parse_args(const ArgTable& table, const Args& args) { return ArgWalk(table).run(args); }

}  // namespace tessera::cli
