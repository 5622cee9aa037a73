// FunctionRef: a non-owning, non-allocating reference to a callable, used on
// the dispatch hot path instead of std::function (which may allocate and is
// two indirections deep). The referenced callable must outlive the call.
// Header-only, so outside TESSERA_CXX_API_BEGIN: its instantiations on
// tessera's internal lambdas stay hidden in the shared library.
#pragma once

#include <type_traits>
#include <utility>

namespace tessera {

template <class Signature>
class FunctionRef;

template <class R, class... Args>
class FunctionRef<R(Args...)> {
 public:
  template <class F, class = std::enable_if_t<
                         !std::is_same_v<std::decay_t<F>, FunctionRef> &&
                         std::is_invocable_r_v<R, F&, Args...>>>
  FunctionRef(F&& f) noexcept  // NOLINT(google-explicit-constructor)
      : object_(const_cast<void*>(static_cast<const void*>(&f))),
        invoke_([](void* object, Args... args) -> R {
          return (*static_cast<std::remove_reference_t<F>*>(object))(
              std::forward<Args>(args)...);
        }) {}

  R operator()(Args... args) const {
    return invoke_(object_, std::forward<Args>(args)...);
  }

 private:
  void* object_;
  R (*invoke_)(void*, Args...);
};

}  // namespace tessera
