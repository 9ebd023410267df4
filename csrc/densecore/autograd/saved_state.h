// What each differentiable op's backward node keeps for its formula: one struct per row of op_list.h,
// Saved<Op::Name>, with named fields (torch's generated <Name>Backward0 members, named as in
// tools/autograd/derivatives.yaml). The op fills it while recording (OpRecord<Op::Name>::saved()); its
// formula (autograd/formulas.cpp) reads it. A row without a struct here, or a formula reading a field
// the op does not have, does not compile.
//
// Tensors are SavedVariables (checked against in-place changes when unpacked); every struct lists
// them in variables(), which is what release_variables() drops after a backward without
// retain_graph. Everything else (sizes, dims, scalars) stays, as torch keeps non-tensor members.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "densecore/autograd/node.h"
#include "densecore/autograd/op_list.h"
#include "densecore/core/dtype.h"
#include "densecore/core/scalar.h"
#include "densecore/core/tensor.h"

namespace dc {

template <Op op>
struct Saved;  // no primary definition: each row has its own struct

/// A saved output (torch's SavedVariable with is_output): an alias without autograd state, so the
/// node does not keep itself alive through its own output.
SavedVariable saved_output(const Tensor& t, uint32_t output_nr = 0);

inline void release_one(SavedVariable& v) { v.reset(); }
inline void release_one(std::vector<SavedVariable>& vs) {
  for (SavedVariable& v : vs) v.reset();
}
/// Drops every SavedVariable a struct lists in variables().
template <class S>
void release_saved(S& s) {
  std::apply([](auto&... v) { (release_one(v), ...); }, s.variables());
}

/// For rows that keep no tensor.
struct NoTensorsSaved {
  auto variables() { return std::tie(); }
};

// ---- shared shapes --------------------------------------------------------------------------------

struct SavedNothing : NoTensorsSaved {};
/// A unary op whose derivative reads its input.
struct SavedSelf {
  SavedVariable self;
  auto variables() { return std::tie(self); }
};
/// A unary op whose derivative reads its result (exp, tanh, sigmoid, ...).
struct SavedResult {
  SavedVariable result;
  auto variables() { return std::tie(result); }
};
/// A view or reduction whose derivative only needs the input's sizes.
struct SavedSelfSizes : NoTensorsSaved {
  Shape self_sizes;
};




// ---- multi-output views (ops/view.cpp) -----------------------------------------------------------


// ---- indexing and joins (ops/index.cpp, join.cpp, creation.cpp) -----------------------------------


// ---- copies (ops/copy.cpp) ---------------------------------------------------------------------------

/// An op torch has no derivative for: its node raises when backward reaches it.
template <> struct Saved<Op::NotImplemented> : NoTensorsSaved {
  const char* op_name = "";
};

// The rows declared in csrc/op_rows.toml: their structs are generated from what each derivative names.
#include "densecore/generated/saved.h"

}  // namespace dc
