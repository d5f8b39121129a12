// Freestanding runtime support for the Embedded Swift benchmark module (no wasi-libc).
//
// Provides exactly what the Swift object file leaves undefined: an allocator (posix_memalign/free),
// the mem* functions, and __multi3 (128-bit multiply used by overflow checks). The allocator is a
// bump arena over linear memory: the module only runs short, bounded calls, and the host can
// re-instantiate it to reclaim memory, so free() does not return memory.

typedef __SIZE_TYPE__ size_t;
typedef unsigned long long u64;
typedef unsigned int u32;

extern unsigned char __heap_base;

// File-private arena cursor; a wasm instance is single-threaded.
static unsigned char *heap_top = 0;

static int grow_to(size_t end) {
    size_t have = __builtin_wasm_memory_size(0) * 65536u;
    if (end <= have) return 1;
    size_t pages = (end - have + 65535u) / 65536u;
    return __builtin_wasm_memory_grow(0, pages) != (size_t)-1;
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (heap_top == 0) heap_top = &__heap_base;
    if (alignment < 8) alignment = 8;
    if ((alignment & (alignment - 1)) != 0) return 22; // EINVAL: not a power of two
    size_t start = ((size_t)heap_top + alignment - 1) & ~(alignment - 1);
    if (size > ~(size_t)0 - start) return 12; // ENOMEM: would wrap the address space
    size_t end = start + size;
    if (!grow_to(end)) return 12;
    heap_top = (unsigned char *)end;
    *result = (void *)start;
    return 0;
}

void free(void *pointer) { (void)pointer; }

void *patch_malloc(size_t size) {
    void *result = 0;
    return posix_memalign(&result, 16, size) == 0 ? result : 0;
}

void patch_free(void *pointer) { free(pointer); }

void *memcpy(void *destination, const void *source, size_t count) {
    unsigned char *d = destination;
    const unsigned char *s = source;
    while (count--) *d++ = *s++;
    return destination;
}

void *memmove(void *destination, const void *source, size_t count) {
    unsigned char *d = destination;
    const unsigned char *s = source;
    if (d < s) {
        while (count--) *d++ = *s++;
    } else {
        while (count--) d[count] = s[count];
    }
    return destination;
}

void *memset(void *destination, int value, size_t count) {
    unsigned char *d = destination;
    while (count--) *d++ = (unsigned char)value;
    return destination;
}

int memcmp(const void *lhs, const void *rhs, size_t count) {
    const unsigned char *a = lhs, *b = rhs;
    for (size_t i = 0; i < count; i++) {
        if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
    }
    return 0;
}

// 128-bit multiply (low 128 bits) from 32-bit partial products. Written without __int128
// multiplication on purpose: clang would lower that back into a call to __multi3 itself.
typedef struct { u64 low, high; } u128_parts;

static u128_parts multiply_64x64(u64 a, u64 b) {
    u64 a_lo = (u32)a, a_hi = a >> 32, b_lo = (u32)b, b_hi = b >> 32;
    u64 lo_lo = a_lo * b_lo;
    u64 hi_lo = a_hi * b_lo;
    u64 lo_hi = a_lo * b_hi;
    u64 hi_hi = a_hi * b_hi;
    u64 cross = (lo_lo >> 32) + (u32)hi_lo + (u32)lo_hi;
    u128_parts result;
    result.low = (cross << 32) | (u32)lo_lo;
    result.high = hi_hi + (hi_lo >> 32) + (lo_hi >> 32) + (cross >> 32);
    return result;
}

__int128 __multi3(__int128 a, __int128 b) {
    unsigned __int128 ua = (unsigned __int128)a, ub = (unsigned __int128)b;
    u64 a_low = (u64)ua, a_high = (u64)(ua >> 64);
    u64 b_low = (u64)ub, b_high = (u64)(ub >> 64);
    u128_parts product = multiply_64x64(a_low, b_low);
    u64 high = product.high + a_low * b_high + a_high * b_low;
    return (__int128)(((unsigned __int128)high << 64) | product.low);
}
