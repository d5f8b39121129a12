// C guest for PatchRuntimeTests: every ABI shape plus one function per failure mode. Built at test time
// with the toolchain clang: --target=wasm32 -mbulk-memory -nostdlib -Wl,--no-entry -Wl,--export-dynamic.
#include "bump_malloc.h"
static u32 frees = 0;
__attribute__((export_name("patch_free"))) void patch_free(u32 p) { frees++; bump_free(p); }
__attribute__((export_name("free_count"))) u32 free_count(void) { return frees; }
__attribute__((export_name("add"))) int add(int a, int b) { return a + b; }
__attribute__((export_name("mul64"))) long long mul64(long long a, long long b) { return a * b; }
__attribute__((export_name("half"))) double half(double x) { return x / 2; }
__attribute__((export_name("greet"))) u64 greet(u32 ptr, u32 len) {
  const char *pre = "Hello, "; u32 n = 7 + len;
  char *out = (char*)patch_malloc(n);
  for (u32 i = 0; i < 7; i++) out[i] = pre[i];
  for (u32 i = 0; i < len; i++) out[7+i] = ((char*)ptr)[i];
  return ((u64)(u32)out << 32) | n;
}
// One bulk `memory.copy` (bulk memory is in the device's feature set, sdk-contract §1.1), so that
// benchmarks/run times the packed ABI rather than an interpreted byte loop.
__attribute__((export_name("echo"))) u64 echo(u32 ptr, u32 len) {
  char *out = (char*)patch_malloc(len);
  __builtin_memcpy(out, (char*)ptr, len);
  return ((u64)(u32)out << 32) | len;
}
__attribute__((export_name("spin"))) int spin(int x) { volatile int v = x; while (1) { v++; } return v; }
// No locals in linear memory, and a volatile store after the call so it cannot become a loop:
// the recursion exhausts the interpreter's stack, not the C shadow stack.
static volatile int calls;
static int depth(int n) { if (n == 0) return 0; int r = depth(n + 1); calls++; return r; }
__attribute__((export_name("recurse"))) int recurse(int n) { return depth(n + 1); }
__attribute__((export_name("oob"))) int oob(void) { return *(volatile int*)0xFFFFFFF0u; }
__attribute__((export_name("boom"))) void boom(void) { __builtin_trap(); }
__attribute__((export_name("bomb"))) int bomb(void) { int n = 0; while (__builtin_wasm_memory_grow(0, 16) != (unsigned long)-1) n++; return n; }
