// C declarations the guest's Swift code sees (passed to swiftc with -import-objc-header).
// The allocator is defined in support.c; the host reaches it through the same exported names.
#ifndef PATCH_GUEST_SUPPORT_H
#define PATCH_GUEST_SUPPORT_H

#include <stdint.h>

void *patch_malloc(int32_t size);
void patch_free(void *pointer);

// Host bridges the guest Foundation layer (Foundation*.swift) calls, sdk-contract §3. Declared in C
// with the import attributes because Swift's `@_extern(wasm)` gives a non-flat ABI the SDK's
// WasmKit rejects (§3.1). A declaration becomes a wasm import only when linked code calls it, so a
// module imports exactly the bridges the layer code it uses reaches.
// Strings in are (pointer, length) UTF-8; packed results are address << 32 | length of bytes the
// host allocated with patch_malloc (0 = nil or empty), which the guest frees.
#define PATCH_HOST(name) __attribute__((import_module("patch_host"), import_name(#name)))
#define PATCH_CORE(name) __attribute__((import_module("patch"), import_name(#name)))

// §3.2 Foundation value surface.
int64_t patch_host_now_unix_millis(void) PATCH_HOST(now_unix_millis);

#undef PATCH_HOST
#undef PATCH_CORE

#endif
