"""The smallest module a release store accepts: valid wasm exporting `memory`, carrying a payload in a
custom section so its size (and what a diff between two of them costs) is the caller's choice."""


def leb128(value: int) -> bytes:
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def memory_module(payload: bytes) -> bytes:
    custom = bytes([4]) + b"blob" + payload
    exports = bytes([1, 6]) + b"memory" + bytes([2, 0])
    return (b"\0asm" + bytes([1, 0, 0, 0]) + bytes([0]) + leb128(len(custom)) + custom
            + bytes([5, 3, 1, 0, 1]) + bytes([7]) + leb128(len(exports)) + exports)
