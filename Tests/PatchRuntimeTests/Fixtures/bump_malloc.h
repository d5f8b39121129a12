// The bump allocator behind `patch_malloc` that the C test guests share (included, not linked: the
// guests are single freestanding translation units). Grows memory as needed. `bump_free` gives back
// only the most recent block: a packed call frees its output and then its input, last in first out,
// so a long run of calls (benchmarks/run) reuses the same bytes instead of touching a fresh page every
// few calls, as a real allocator would. Each block starts after a 16-byte header holding its size.
typedef unsigned int u32; typedef unsigned long long u64;
extern unsigned char __heap_base;
static u32 heap_top = 0;
__attribute__((export_name("patch_malloc"))) u32 patch_malloc(u32 n) {
  if (!heap_top) heap_top = ((u32)&__heap_base + 15) & ~15u;
  u32 header = heap_top, size = (n + 15) & ~15u, end = header + 16 + size;
  u32 pages = __builtin_wasm_memory_size(0);
  if (end > pages * 65536u) { if (__builtin_wasm_memory_grow(0, (end - pages*65536u + 65535)/65536) == (unsigned long)-1) return 0; }
  *(u32*)header = size;
  heap_top = end;
  return header + 16;
}
static void bump_free(u32 p) {
  if (p && p + *(u32*)(p - 16) == heap_top) heap_top = p - 16;
}
