// Guest support runtime for patch modules built with Embedded Swift for wasm32-unknown-none-wasm
// (and, with PATCH_GUEST_LIBC, for a Swift SDK for WASI's wasm32-unknown-wasi target).
//
// Embedded Swift's object code needs a handful of C symbols that a hosted target gets from libc:
// an allocator (posix_memalign/free), the mem* family, 128-bit multiplication (__multi3, from
// overflow checks) and arc4random_buf (random numbers and Hasher seeding, drawn from the host's
// `patch.secure_random_bytes` bridge). There is no libc in a freestanding wasm
// module (the default build), so this file provides them; it is compiled with the Swift toolchain's
// own clang, which keeps a build dependent on nothing beyond that toolchain. With PATCH_GUEST_LIBC,
// wasi-libc provides the allocator and the mem* family instead.
//
// The host talks to the same allocator through the exports patch_malloc/patch_free
// (sdk-contract §1.1, §2.3): it allocates argument buffers in guest memory and frees the packed
// results the guest returns, so everything here must accept any pointer either side handed out.
//
// Allocator design:
// - Every block starts with a 16-byte header holding its capacity; payloads are 16-byte aligned,
//   which covers every Swift type's natural alignment on wasm32.
// - Small requests (payload <= 32 KiB) are rounded up to a power-of-two size class and served from
//   that class's free list; empty lists are refilled by carving from the current 64 KiB arena.
// - Large requests take whole wasm pages from an address-ordered free list of page runs, first fit,
//   split on allocation and coalesced with both neighbours on free, so long-running guests that
//   build and drop big buffers (JSON documents, arrays) reuse memory instead of growing forever.
// - Over-aligned requests (posix_memalign with alignment > 16) over-allocate and store a forwarding
//   header just before the aligned payload.
// Nothing here is thread-safe: the SDK serializes every call into an instance (sdk-contract §1.1).

#include <stddef.h>
#include <stdint.h>

#ifdef PATCH_GUEST_LIBC
// Built with a Swift SDK for WASI (patch.json "build.swiftSDK"): wasi-libc is linked and owns
// malloc/free, so the host's exports use its allocator and the one below is left out (defining
// malloc twice would clash as soon as anything pulls calloc or realloc from libc).
#include <stdlib.h>

static void *allocate(size_t size) { return malloc(size); }

static void release(void *pointer) { free(pointer); }
#else

#define PAGE_SIZE 65536u
#define HEADER_SIZE 16u
#define MIN_CLASS_SHIFT 4u                       // 16-byte smallest payload
#define MAX_CLASS_SHIFT 15u                      // 32 KiB largest small payload
#define CLASS_COUNT (MAX_CLASS_SHIFT - MIN_CLASS_SHIFT + 1u)
#define MAGIC_SMALL 0x50534d4cu                  // "PSML"
#define MAGIC_LARGE 0x504c5247u                  // "PLRG"
#define MAGIC_ALIGNED 0x50414c4eu                // "PALN"

// The header in front of each payload. `capacity` is the payload size the block can hold
// (the size class for small blocks, pages * PAGE_SIZE - HEADER_SIZE for large ones).
typedef struct BlockHeader {
    uint32_t magic;
    uint32_t capacity;
    uint32_t classIndex;   // small blocks: size class; aligned forwarders: offset back to the real payload
    uint32_t reserved;
} BlockHeader;

typedef struct FreeSmall {
    struct FreeSmall *next;
} FreeSmall;

// A run of free pages in the large-block free list, kept sorted by address for coalescing.
typedef struct FreeRun {
    struct FreeRun *next;
    uint32_t pages;
} FreeRun;

extern unsigned char __heap_base;

static FreeSmall *smallFreeLists[CLASS_COUNT];
static FreeRun *largeFreeRuns;
static uintptr_t arenaCursor;
static uintptr_t arenaEnd;
static uintptr_t heapTop;   // first byte not yet handed to the page allocator

static uintptr_t alignUp(uintptr_t value, uintptr_t alignment) {
    return (value + alignment - 1u) & ~(alignment - 1u);
}

// Fresh pages above everything handed out so far, growing linear memory when needed.
static void *growPages(uint32_t pages) {
    if (heapTop == 0) heapTop = alignUp((uintptr_t)&__heap_base, PAGE_SIZE);
    uintptr_t start = heapTop;
    uintptr_t end = start + (uintptr_t)pages * PAGE_SIZE;
    if (end < start) return NULL;
    uintptr_t memoryEnd = __builtin_wasm_memory_size(0) * PAGE_SIZE;
    if (end > memoryEnd) {
        uintptr_t missing = (end - memoryEnd + PAGE_SIZE - 1u) / PAGE_SIZE;
        if (__builtin_wasm_memory_grow(0, missing) == (size_t)-1) return NULL;
    }
    heapTop = end;
    return (void *)start;
}

static void *takePages(uint32_t pages) {
    FreeRun **link = &largeFreeRuns;
    while (*link != NULL) {
        FreeRun *run = *link;
        if (run->pages >= pages) {
            if (run->pages == pages) {
                *link = run->next;
            } else {
                FreeRun *rest = (FreeRun *)((uintptr_t)run + (uintptr_t)pages * PAGE_SIZE);
                rest->next = run->next;
                rest->pages = run->pages - pages;
                *link = rest;
            }
            return run;
        }
        link = &run->next;
    }
    return growPages(pages);
}

static void returnPages(void *start, uint32_t pages) {
    FreeRun *run = (FreeRun *)start;
    run->pages = pages;
    FreeRun *previous = NULL;
    FreeRun *next = largeFreeRuns;
    while (next != NULL && (uintptr_t)next < (uintptr_t)run) {
        previous = next;
        next = next->next;
    }
    run->next = next;
    if (previous != NULL) previous->next = run; else largeFreeRuns = run;
    if (next != NULL && (uintptr_t)run + (uintptr_t)run->pages * PAGE_SIZE == (uintptr_t)next) {
        run->pages += next->pages;
        run->next = next->next;
    }
    if (previous != NULL && (uintptr_t)previous + (uintptr_t)previous->pages * PAGE_SIZE == (uintptr_t)run) {
        previous->pages += run->pages;
        previous->next = run->next;
    }
}

// The smallest class that holds `size` (at most 32 KiB here): the bit length of size - 1, from one
// count-leading-zeros instead of a loop over the classes.
static uint32_t classIndexFor(size_t size) {
    if (size <= ((size_t)1 << MIN_CLASS_SHIFT)) return 0;
    return (uint32_t)(32 - __builtin_clz((uint32_t)(size - 1))) - MIN_CLASS_SHIFT;
}

static void *allocateSmall(size_t size) {
    uint32_t index = classIndexFor(size);
    uint32_t capacity = 1u << (index + MIN_CLASS_SHIFT);
    BlockHeader *header;
    if (smallFreeLists[index] != NULL) {
        FreeSmall *block = smallFreeLists[index];
        smallFreeLists[index] = block->next;
        header = (BlockHeader *)((uintptr_t)block - HEADER_SIZE);
    } else {
        uintptr_t needed = HEADER_SIZE + capacity;
        if (arenaEnd - arenaCursor < needed) {
            // The unused tail of the old arena is left behind: at most one class's worth per refill.
            void *arena = takePages(1);
            if (arena == NULL) return NULL;
            arenaCursor = (uintptr_t)arena;
            arenaEnd = arenaCursor + PAGE_SIZE;
        }
        header = (BlockHeader *)arenaCursor;
        arenaCursor += needed;
    }
    header->magic = MAGIC_SMALL;
    header->capacity = capacity;
    header->classIndex = index;
    return (void *)((uintptr_t)header + HEADER_SIZE);
}

static void *allocateLarge(size_t size) {
    if (size > 0xFFFF0000u - HEADER_SIZE) return NULL;
    uint32_t pages = (uint32_t)((size + HEADER_SIZE + PAGE_SIZE - 1u) / PAGE_SIZE);
    BlockHeader *header = (BlockHeader *)takePages(pages);
    if (header == NULL) return NULL;
    header->magic = MAGIC_LARGE;
    header->capacity = pages * PAGE_SIZE - HEADER_SIZE;
    header->classIndex = 0;
    return (void *)((uintptr_t)header + HEADER_SIZE);
}

static void *allocate(size_t size) {
    if (size == 0) size = 1;
    if (size <= ((size_t)1 << MAX_CLASS_SHIFT)) return allocateSmall(size);
    return allocateLarge(size);
}

static void release(void *pointer) {
    if (pointer == NULL) return;
    BlockHeader *header = (BlockHeader *)((uintptr_t)pointer - HEADER_SIZE);
    if (header->magic == MAGIC_ALIGNED) {
        release((void *)((uintptr_t)pointer - header->classIndex));
        return;
    }
    if (header->magic == MAGIC_SMALL && header->classIndex < CLASS_COUNT) {
        header->magic = 0;   // a second free of the same block is ignored instead of corrupting the list
        FreeSmall *block = (FreeSmall *)pointer;
        block->next = smallFreeLists[header->classIndex];
        smallFreeLists[header->classIndex] = block;
    } else if (header->magic == MAGIC_LARGE) {
        header->magic = 0;
        returnPages(header, (header->capacity + HEADER_SIZE) / PAGE_SIZE);
    }
    // Anything else is not a block of ours (or already freed): ignoring it is the only safe answer.
}

void *malloc(size_t size) { return allocate(size); }

void free(void *pointer) { release(pointer); }

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (alignment <= HEADER_SIZE) {
        void *pointer = allocate(size);
        if (pointer == NULL) return 12;   // ENOMEM
        *result = pointer;
        return 0;
    }
    if ((alignment & (alignment - 1u)) != 0 || size > 0x7FFFFFFFu || alignment > 0x10000000u) return 22;   // EINVAL
    void *raw = allocate(size + alignment + HEADER_SIZE);
    if (raw == NULL) return 12;
    uintptr_t aligned = alignUp((uintptr_t)raw + HEADER_SIZE, alignment);
    BlockHeader *forward = (BlockHeader *)(aligned - HEADER_SIZE);
    forward->magic = MAGIC_ALIGNED;
    forward->capacity = (uint32_t)size;
    forward->classIndex = (uint32_t)(aligned - (uintptr_t)raw);
    *result = (void *)aligned;
    return 0;
}

#endif

__attribute__((export_name("patch_malloc")))
void *patch_malloc(int32_t size) {
    if (size < 0) return NULL;
    return allocate((size_t)size);
}

__attribute__((export_name("patch_free")))
void patch_free(void *pointer) {
    release(pointer);
}

// The mem* family lowers to the bulk-memory instructions (memory.copy handles overlap, memory.fill),
// which the Swift objects already rely on; the builtins cannot turn back into calls to these very
// functions because bulk-memory is enabled for the wasm32 target (checked in the guest tests).
void *memcpy(void *restrict destination, const void *restrict source, size_t count) {
    return __builtin_memcpy(destination, source, count);
}

void *memmove(void *destination, const void *source, size_t count) {
    return __builtin_memmove(destination, source, count);
}

void *memset(void *destination, int value, size_t count) {
    return __builtin_memset(destination, value, count);
}

int memcmp(const void *left, const void *right, size_t count) {
    const unsigned char *a = left;
    const unsigned char *b = right;
    for (; count != 0; count--, a++, b++) {
        if (*a != *b) return *a < *b ? -1 : 1;
    }
    return 0;
}

// Randomness comes from the host's CSPRNG through the `patch.secure_random_bytes` bridge
// (sdk-contract §3.6: 1…4096 bytes per call, answered as a packed i64 ptr<<32|len in a buffer the
// host took from patch_malloc, which the guest frees, §2.3). Swift's SystemRandomNumberGenerator
// (Int.random, shuffled(), …) and Hasher's per-instance seed both draw here. wasm-ld keeps the import
// only in a module that links this function, so a module without randomness or hashing imports nothing.
__attribute__((import_module("patch"), import_name("secure_random_bytes")))
int64_t patch_secure_random_bytes(int32_t count);

#define SECURE_RANDOM_MAX_CHUNK 4096u

void arc4random_buf(void *buffer, size_t count) {
    unsigned char *to = buffer;
    while (count != 0) {
        uint32_t chunk = count < SECURE_RANDOM_MAX_CHUNK ? (uint32_t)count : SECURE_RANDOM_MAX_CHUNK;
        uint64_t packed = (uint64_t)patch_secure_random_bytes((int32_t)chunk);
        void *from = (void *)(uintptr_t)(packed >> 32);
        // No bytes (or fewer) from the host: trapping is the only answer that never hands out
        // predictable "random" numbers.
        if (from == NULL || (uint32_t)packed != chunk) __builtin_trap();
        __builtin_memcpy(to, from, chunk);
        patch_free(from);
        to += chunk;
        count -= chunk;
    }
}

// 64 x 64 -> 128-bit unsigned product from 32-bit partial products. Written without any 128-bit
// multiply: clang lowers `unsigned __int128 * unsigned __int128` on wasm32 into a call to __multi3,
// so using it here would recurse forever.
static void multiply64(uint64_t a, uint64_t b, uint64_t *low, uint64_t *high) {
    uint64_t aLow = a & 0xFFFFFFFFu, aHigh = a >> 32;
    uint64_t bLow = b & 0xFFFFFFFFu, bHigh = b >> 32;
    uint64_t lowLow = aLow * bLow;
    uint64_t highLow = aHigh * bLow;
    uint64_t lowHigh = aLow * bHigh;
    uint64_t highHigh = aHigh * bHigh;
    uint64_t middle = (lowLow >> 32) + (highLow & 0xFFFFFFFFu) + (lowHigh & 0xFFFFFFFFu);
    *low = (middle << 32) | (lowLow & 0xFFFFFFFFu);
    *high = highHigh + (highLow >> 32) + (lowHigh >> 32) + (middle >> 32);
}

// The low 128 bits of a 128 x 128 product (signedness does not matter modulo 2^128).
__int128 __multi3(__int128 a, __int128 b) {
    uint64_t aLow = (uint64_t)a, aHigh = (uint64_t)((unsigned __int128)a >> 64);
    uint64_t bLow = (uint64_t)b, bHigh = (uint64_t)((unsigned __int128)b >> 64);
    uint64_t low, high;
    multiply64(aLow, bLow, &low, &high);
    high += aLow * bHigh + aHigh * bLow;
    return (__int128)(((unsigned __int128)high << 64) | low);
}
