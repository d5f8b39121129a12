// Linked with templates/guest/support.c: its arc4random_buf, which every Swift guest's randomness goes
// through, drawing from the host's patch.secure_random_bytes (BridgeRandomTests).
#include <stddef.h>
#include <stdint.h>

void *patch_malloc(int32_t size);
void arc4random_buf(void *buffer, size_t count);

// Packed ABI: as many random bytes as the input has, drawn in a single arc4random_buf call.
__attribute__((export_name("draw")))
int64_t draw(const unsigned char *input, int32_t length) {
    (void)input;
    unsigned char *bytes = patch_malloc(length);
    arc4random_buf(bytes, (size_t)length);
    return (int64_t)(((uint64_t)(uintptr_t)bytes << 32) | (uint32_t)length);
}
