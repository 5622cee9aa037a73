// What an MPI launcher's variables say about the processes sharing a node
// (native/src/launcher_node_share.hpp).
#include "native/src/launcher_node_share.hpp"

#include <doctest/doctest.h>

#include <cstdlib>
#include <optional>
#include <string>

namespace tessera::native {
namespace {

// Sets the variables for one check and restores them after.
class ScopedEnvironment {
 public:
  ScopedEnvironment(std::optional<std::string> size, std::optional<std::string> rank,
                    std::optional<std::string> bound) {
    set("OMPI_COMM_WORLD_LOCAL_SIZE", size);
    set("OMPI_COMM_WORLD_LOCAL_RANK", rank);
    set("OMPI_MCA_orte_bound_at_launch", bound);
  }
  ~ScopedEnvironment() {
    for (int i = 0; i < count_; ++i) {
      if (saved_[i]) {
        setenv(names_[i], saved_[i]->c_str(), 1);
      } else {
        unsetenv(names_[i]);
      }
    }
  }

 private:
  void set(const char* name, const std::optional<std::string>& value) {
    const char* old = std::getenv(name);
    names_[count_] = name;
    saved_[count_] = old ? std::optional<std::string>(old) : std::nullopt;
    ++count_;
    if (value) {
      setenv(name, value->c_str(), 1);
    } else {
      unsetenv(name);
    }
  }
  const char* names_[3] = {};
  std::optional<std::string> saved_[3];
  int count_ = 0;
};

TEST_CASE("launcher node share: Open MPI ranks not bound at launch share the node") {
  ScopedEnvironment env("4", "3", std::nullopt);
  const platform::NodeShare share = launcher_node_share(8, 8);
  CHECK(share.processes == 4);
  CHECK(share.index == 3);
  CHECK(share.source.find("OMPI_COMM_WORLD_LOCAL_SIZE = 4") != std::string::npos);
  CHECK(share.source.find("not bound at launch") != std::string::npos);
}

TEST_CASE(
    "launcher node share: bound ranks, one rank, no launcher: nothing to "
    "divide") {
  {
    ScopedEnvironment env("2", "1", "1");
    CHECK(launcher_node_share(8, 8).processes == 0);
  }
  {
    ScopedEnvironment env("1", "0", std::nullopt);
    CHECK(launcher_node_share(8, 8).processes == 0);
  }
  {
    ScopedEnvironment env(std::nullopt, std::nullopt, std::nullopt);
    CHECK(launcher_node_share(8, 8).processes == 0);
  }
}

TEST_CASE("launcher node share: a process narrowed by a mask is not divided again") {
  ScopedEnvironment env("2", "0", std::nullopt);  // e.g. taskset per rank, Open MPI 5
  CHECK(launcher_node_share(4, 8).processes == 0);
  CHECK(launcher_node_share(8, 8).processes == 2);
}

TEST_CASE("launcher node share: malformed or inconsistent variables are ignored") {
  for (const auto& [size, rank] : {std::pair{"2x", "0"}, std::pair{"2", "-1"}, std::pair{"2", "2"},
                                   std::pair{"", "0"}, std::pair{"99999999999", "0"}}) {
    CAPTURE(size);
    CAPTURE(rank);
    ScopedEnvironment env(std::string(size), std::string(rank), std::nullopt);
    CHECK(launcher_node_share(8, 8).processes == 0);
  }
}

}  // namespace
}  // namespace tessera::native
