// Freestanding runtime for the Embedded Swift guest: a bump heap shared by Swift's allocations and
// patch_malloc, plus the libc symbols Embedded Swift references (see docs notes/embedded-swift-wasm.md).
typedef unsigned long size_t;
typedef unsigned int u32;
extern unsigned char __heap_base;
static size_t heap_top;

static void *bump(size_t size, size_t alignment) {
    if (!heap_top) heap_top = (size_t)&__heap_base;
    size_t start = (heap_top + alignment - 1) & ~(alignment - 1);
    size_t end = start + size;
    size_t available = __builtin_wasm_memory_size(0) * 65536ul;
    if (end > available) {
        size_t pages = (end - available + 65535) / 65536;
        if (__builtin_wasm_memory_grow(0, pages) == (size_t)-1) return 0;
    }
    heap_top = end;
    return (void *)start;
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    void *p = bump(size, alignment < 16 ? 16 : alignment);
    if (!p) return 12;
    *out = p;
    return 0;
}
void free(void *p) { (void)p; }
__attribute__((export_name("patch_malloc"))) u32 patch_malloc(u32 size) { return (u32)(size_t)bump(size, 16); }
__attribute__((export_name("patch_free"))) void patch_free(u32 p) { (void)p; }

void *memcpy(void *d, const void *s, size_t n) { unsigned char *o = d; const unsigned char *i = s; while (n--) *o++ = *i++; return d; }
void *memmove(void *d, const void *s, size_t n) {
    unsigned char *o = d; const unsigned char *i = s;
    if (o < i) { while (n--) *o++ = *i++; } else { o += n; i += n; while (n--) *--o = *--i; }
    return d;
}
void *memset(void *d, int c, size_t n) { unsigned char *o = d; while (n--) *o++ = (unsigned char)c; return d; }
int memcmp(const void *a, const void *b, size_t n) {
    const unsigned char *x = a, *y = b;
    for (; n; n--, x++, y++) if (*x != *y) return *x - *y;
    return 0;
}
// 128-bit multiply from 32-bit partial products (a C __int128 multiply would call __multi3 itself).
typedef struct { unsigned long long lo, hi; } u128;
u128 __multi3(unsigned long long al, unsigned long long ah, unsigned long long bl, unsigned long long bh) {
    unsigned long long a0 = al & 0xffffffffu, a1 = al >> 32, b0 = bl & 0xffffffffu, b1 = bl >> 32;
    unsigned long long p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    unsigned long long mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
    u128 r;
    r.lo = (p00 & 0xffffffffu) | (mid << 32);
    r.hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32) + al * bh + ah * bl;
    return r;
}
