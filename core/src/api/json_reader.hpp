// A small JSON reader for tessera's own files (tuned profiles): objects,
// arrays, strings (with escapes; \u only below U+0080), numbers kept as
// their text so integers read back exactly, true/false/null. Not a general
// JSON library: no surrogate pairs, depth at most 16.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::core {

struct JsonMember;

struct JsonValue {
  enum class Kind { kNull, kBool, kNumber, kString, kArray, kObject };
  Kind kind = Kind::kNull;
  bool boolean = false;
  std::string text;  // a string's value, or a number's text
  std::vector<JsonValue> items;                            // array
  std::vector<JsonMember> members;  // object, in file order

  // The member named `key`, or null.
  const JsonValue* find(std::string_view key) const;
  // A number that is a non-negative integer without sign, fraction or
  // exponent, fitting 64 bits.
  bool as_u64(std::uint64_t* out) const;
  // A number that is an integer (optionally negative) fitting int.
  bool as_int(int* out) const;
};

struct JsonMember {
  std::string name;
  JsonValue value;
};

// Parses `text` (one value, surrounded by whitespace only). On failure
// *error says what and where ("expected ',' or '}' at offset 113").
bool parse_json(std::string_view text, JsonValue* out, std::string* error);

}  // namespace tessera::core
