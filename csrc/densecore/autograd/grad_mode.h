// Grad mode: a thread-local switch; when off, ops record no autograd graph (torch.no_grad).
#pragma once

namespace dc {

bool is_grad_enabled();
void set_grad_enabled(bool enabled);

/// Sets grad mode for a scope and restores the previous mode on exit.
class GradModeGuard {
 public:
  explicit GradModeGuard(bool enabled) : previous_(is_grad_enabled()) { set_grad_enabled(enabled); }
  ~GradModeGuard() { set_grad_enabled(previous_); }
  GradModeGuard(const GradModeGuard&) = delete;
  GradModeGuard& operator=(const GradModeGuard&) = delete;

 private:
  bool previous_;
};

}  // namespace dc
