#include <gtest/gtest.h>

#include "densecore/kernels/dispatch/probe.h"

TEST(Dispatch, RegisterDispatchRunsAvx2BuildOnAvx512) {
  const int cap = static_cast<int>(dc::cpu_capability());
  EXPECT_EQ(dc::probe_stub(), cap == 2 ? 1 : cap);
  EXPECT_EQ(dc::probe_avx512_stub(), cap);
}
