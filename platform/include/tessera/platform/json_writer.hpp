// A minimal streaming JSON writer (objects, arrays, strings, numbers,
// booleans) for the resolved policy, the inventory and CLI output. Keys and
// values are escaped; commas are placed by the writer.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::platform {

class JsonWriter {
 public:
  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  JsonWriter& key(std::string_view name);
  JsonWriter& value(std::string_view text);
  JsonWriter& value(const char* text) { return value(std::string_view(text)); }
  JsonWriter& value(bool flag);
  JsonWriter& value(std::int64_t number);
  JsonWriter& value(std::uint64_t number);
  JsonWriter& value(int number) { return value(static_cast<std::int64_t>(number)); }
  JsonWriter& value(unsigned number) { return value(static_cast<std::uint64_t>(number)); }
  JsonWriter& value(double number);
  JsonWriter& null();
  // Inserts already-serialised JSON as one value.
  JsonWriter& raw(std::string_view json);

  const std::string& str() const { return out_; }

 private:
  void separate();
  std::string out_;
  // Per open container: has it got a first element yet?
  std::vector<bool> has_element_;
  bool after_key_ = false;
};

}  // namespace tessera::platform
