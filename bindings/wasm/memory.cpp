#include "memory.hpp"

#include <malloc.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>

// Emscripten's dlmalloc defines malloc, free and their relatives as weak aliases and exports
// the allocator itself as emscripten_builtin_malloc, _free and _memalign, so that a program can
// interpose: the strong definitions below replace malloc for all code, the C++ runtime, Eigen
// and the module's exported _malloc alike. The allocator is single-threaded here (no pthreads).
extern "C" {
void* emscripten_builtin_malloc(std::size_t size);
void emscripten_builtin_free(void* p);
void* emscripten_builtin_memalign(std::size_t alignment, std::size_t size);
}

namespace {

std::size_t bytes_in_use = 0;
std::size_t blocks_in_use = 0;

void* counted(void* p) {
  if (p) {
    bytes_in_use += malloc_usable_size(p);
    ++blocks_in_use;
  }
  return p;
}

void uncount(void* p) {
  if (p) {
    bytes_in_use -= malloc_usable_size(p);
    --blocks_in_use;
  }
}

}  // namespace

extern "C" {

void* malloc(std::size_t size) { return counted(emscripten_builtin_malloc(size)); }

void free(void* p) {
  uncount(p);
  emscripten_builtin_free(p);
}

void* calloc(std::size_t count, std::size_t size) {
  if (size != 0 && count > SIZE_MAX / size) return nullptr;
  void* p = malloc(count * size);
  if (p) std::memset(p, 0, count * size);
  return p;
}

void* realloc(void* old, std::size_t size) {
  if (!old) return malloc(size);
  if (size == 0) {
    free(old);
    return nullptr;
  }
  void* p = malloc(size);
  if (!p) return nullptr;  // the old block stays valid, as realloc promises
  const std::size_t kept = malloc_usable_size(old);
  std::memcpy(p, old, kept < size ? kept : size);
  free(old);
  return p;
}

void* memalign(std::size_t alignment, std::size_t size) {
  return counted(emscripten_builtin_memalign(alignment, size));
}

void* aligned_alloc(std::size_t alignment, std::size_t size) { return memalign(alignment, size); }

int posix_memalign(void** out, std::size_t alignment, std::size_t size) {
  void* p = memalign(alignment, size);
  if (!p) return ENOMEM;
  *out = p;
  return 0;
}

}  // extern "C"

namespace llmmath::js {

HeapStats heap_stats() {
  return {double(bytes_in_use), double(blocks_in_use),
          double(reinterpret_cast<std::uintptr_t>(sbrk(0)))};
}

#ifdef LLMMATH_PLANT_LEAK
void plant_leak() {
  static void* volatile leaked;
  leaked = std::malloc(64);  // never freed: the point of this build
}
#else
void plant_leak() {}
#endif

}  // namespace llmmath::js
