// Views and in-place ops under autograd, with torch's semantics (torch/csrc/autograd/
// VariableTypeUtils.h as_view/check_inplace, variable.cpp rebase_history and VariableHooks::grad_fn,
// functions/tensor.cpp CopySlices).
//
// Note [View + in-place]: every differentiable view remembers its root base. An in-place op on a
// view records its node as usual, then the base's history becomes a CopySlices node that runs that
// node on the view's slice of the base's gradient; the view's own grad_fn becomes an
// AsStridedBackward0 onto the base. A view whose storage was modified in place by anyone (the base,
// a sibling view) gets that AsStridedBackward0 the next time its grad_fn is asked for.
#pragma once

#include <memory>
#include <string>

#include "densecore/autograd/node.h"

namespace dc {

/// Marks `view` (a fresh tensor sharing `base`'s storage) as a differentiable view of `base`:
/// `creation` is Default, MultiOutputNode (split/unbind), or NoGradMode when grad mode was off at the
/// view op's call (the caller decides: ops run their internals with grad mode off).
/// Views of non-floating tensors are not tracked (they cannot require grad).
void mark_view(const Tensor& base, const Tensor& view, CreationMeta creation = CreationMeta::Default);

/// The creation meta of a view made now: `when_grad_on`, or NoGradMode when grad mode is off. A view op
/// reads it before its recording turns grad mode off for the op's internals.
CreationMeta creation_meta_now(CreationMeta when_grad_on = CreationMeta::Default);

/// The errors an in-place op on `self` raises before it runs, when grad mode is on and some input
/// of the op requires grad (torch's check_inplace).
void check_inplace(const Tensor& self, bool any_input_requires_grad);

/// Makes `fn` (the in-place op's node; its output 0 is the new self) the history of `self`
/// (torch's rebase_history): directly, or through CopySlices on the base for a view.
void rebase_history(const Tensor& self, std::shared_ptr<Node> fn);

/// A differentiable view's grad_fn, replaced by AsStridedBackward0 onto its base when its storage
/// changed since the grad_fn was set (`force`: whatever the version says). Used by grad_fn().
std::shared_ptr<Node> refresh_view_grad_fn(const Tensor& view, AutogradMeta& meta, bool force = false);

/// A node's name as torch's autograd messages print it ("Split" for SplitBackward0).
std::string node_display_name(const Node& node);

}  // namespace dc
