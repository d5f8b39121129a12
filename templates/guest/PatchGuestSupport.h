// C declarations the guest's Swift code sees (passed to swiftc with -import-objc-header).
// The allocator is defined in support.c; the host reaches it through the same exported names.
#ifndef PATCH_GUEST_SUPPORT_H
#define PATCH_GUEST_SUPPORT_H

#include <stdint.h>

void *patch_malloc(int32_t size);
void patch_free(void *pointer);

#endif
