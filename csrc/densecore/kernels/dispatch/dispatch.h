// DispatchStub: one function pointer slot per CPU capability, filled by the kernel files in
// kernels/cpu/ (compiled once per capability) and chosen at call time.
//
// Note [Per-op AVX-512 choice]: like ATen, DC_REGISTER_DISPATCH registers a kernel for DEFAULT and
// AVX2 only, so an AVX-512 machine runs the AVX2 build; DC_ALSO_REGISTER_AVX512_DISPATCH also
// registers the AVX-512 build. Use the macro torch's kernel file uses for the op, or the bits differ.
#pragma once

#include "densecore/core/error.h"
#include "densecore/kernels/dispatch/cpu_capability.h"

namespace dc {

template <class Fn>
struct DispatchStub {
  using FnT = Fn;
  Fn slots[3] = {nullptr, nullptr, nullptr};  // indexed by CpuCapability
  const char* name;

  explicit constexpr DispatchStub(const char* n) : name(n) {}

  Fn get() const {
    int cap = static_cast<int>(cpu_capability());
    // A missing AVX-512 kernel falls back to AVX2 (REGISTER_DISPATCH semantics).
    if (cap == 2 && !slots[2]) cap = 1;
    check(slots[cap] != nullptr, "[{}] no kernel registered for this CPU capability", name);
    return slots[cap];
  }
  template <class... Args>
  decltype(auto) operator()(Args&&... args) const {
    return get()(std::forward<Args>(args)...);
  }
};

template <class Fn>
struct RegisterStub {
  RegisterStub(DispatchStub<Fn>& stub, int cap, Fn fn) { stub.slots[cap] = fn; }
};

}  // namespace dc

#define DC_DECLARE_DISPATCH(FnType, name) extern ::dc::DispatchStub<FnType> name
#define DC_DEFINE_DISPATCH(FnType, name) ::dc::DispatchStub<FnType> name(#name)

#if defined(DC_CPU_CAPABILITY_DEFAULT)
#define DC_CAPABILITY_INDEX 0
#elif defined(DC_CPU_CAPABILITY_AVX2)
#define DC_CAPABILITY_INDEX 1
#elif defined(DC_CPU_CAPABILITY_AVX512)
#define DC_CAPABILITY_INDEX 2
#endif

#define DC_REG_CONCAT_(a, b) a##b
#define DC_REG_CONCAT(a, b) DC_REG_CONCAT_(a, b)
#define DC_REGISTER_STUB_(stub, fn)                                                   \
  static ::dc::RegisterStub<std::remove_reference_t<decltype(stub)>::FnT>            \
      DC_REG_CONCAT(dc_register_, __LINE__)(stub, DC_CAPABILITY_INDEX, fn)

#if defined(DC_CPU_CAPABILITY_AVX512)
// AVX-512 build: plain registration leaves the slot empty, so the AVX2 kernel runs.
#define DC_REGISTER_DISPATCH(stub, fn) static_assert(true, "")
#else
#define DC_REGISTER_DISPATCH(stub, fn) DC_REGISTER_STUB_(stub, fn)
#endif
#define DC_ALSO_REGISTER_AVX512_DISPATCH(stub, fn) DC_REGISTER_STUB_(stub, fn)
