// The bump allocator behind `patch_malloc` that the C test guests share (included, not linked: the
// guests are single freestanding translation units). Never frees; grows memory as needed.
typedef unsigned int u32; typedef unsigned long long u64;
extern unsigned char __heap_base;
static u32 heap_top = 0;
__attribute__((export_name("patch_malloc"))) u32 patch_malloc(u32 n) {
  if (!heap_top) heap_top = ((u32)&__heap_base + 15) & ~15u;
  u32 p = heap_top; heap_top += (n + 15) & ~15u;
  u32 pages = __builtin_wasm_memory_size(0);
  if (heap_top > pages * 65536u) { if (__builtin_wasm_memory_grow(0, (heap_top - pages*65536u + 65535)/65536) == (unsigned long)-1) return 0; }
  return p;
}
