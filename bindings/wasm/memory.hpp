// What the WebAssembly heap holds, for the leak tests: every allocation of the module, C++ and
// JavaScript side alike, is counted as it is made and freed (memory.cpp replaces malloc and its
// relatives with counting wrappers around Emscripten's allocator). mallinfo() cannot serve:
// Emscripten 3.1.6 links a stub that reports 0 whatever is allocated.
#pragma once

namespace llmmath::js {

struct HeapStats {
  double bytes_in_use = 0;   ///< usable bytes of the blocks allocated and not yet freed
  double blocks_in_use = 0;  ///< blocks allocated and not yet freed
  double heap_top = 0;       ///< sbrk(0): the end of the heap, which only grows
};

HeapStats heap_stats();

/// Leaks one 64-byte block per call in the test-only build llmmath-leaky.js (compiled with
/// LLMMATH_PLANT_LEAK), so that the leak tests can be seen to fail; does nothing otherwise.
void plant_leak();

}  // namespace llmmath::js
