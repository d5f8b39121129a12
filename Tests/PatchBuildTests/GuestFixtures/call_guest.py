"""Calls exports of a patch guest module the way the SDK does (sdk-contract §2.4) and prints results.

Usage: call_guest.py MODULE.wasm  < requests.jsonl
Each request line is {"export": NAME, "input": "<json text>"} (packed JSON ABI) or
{"scalar": NAME, "args": [..]} (scalar fast path). Prints one JSON line per request:
{"output": "<json text>"} or {"result": value}.

Two imports are served as the SDK serves them: patch.secure_random_bytes (random numbers, Hasher
seeds; sdk-contract §3.6, §2.3): count 1…4096 bytes from the OS's CSPRNG in a buffer from the
guest's patch_malloc, returned packed as ptr<<32|len (0 for a count out of range), which the guest
frees; and patch_host.now_unix_millis (`Date()`; §3.2): the clock in ms since 1970. Any other import
is refused.
"""
import json
import os
import sys
import time

import wasmtime

SECURE_RANDOM_MAX = 4096


def secure_random_bytes(caller, count):
    if not 1 <= count <= SECURE_RANDOM_MAX:
        return 0
    pointer = caller["patch_malloc"](caller, count)
    if pointer == 0:
        return 0
    caller["memory"].write(caller, os.urandom(count), pointer)
    packed = (pointer << 32) | count
    return packed - (1 << 64) if packed >= 1 << 63 else packed  # an i64 is signed


def served_import(store, entry):
    if (entry.module, entry.name) == ("patch", "secure_random_bytes"):
        kind = wasmtime.FuncType([wasmtime.ValType.i32()], [wasmtime.ValType.i64()])
        return wasmtime.Func(store, kind, secure_random_bytes, access_caller=True)
    if (entry.module, entry.name) == ("patch_host", "now_unix_millis"):
        kind = wasmtime.FuncType([], [wasmtime.ValType.i64()])
        return wasmtime.Func(store, kind, lambda: time.time_ns() // 1_000_000)
    raise SystemExit("guest module imports %s.%s, which this harness does not serve" % (entry.module, entry.name))


def main():
    store = wasmtime.Store()
    module = wasmtime.Module.from_file(store.engine, sys.argv[1])
    instance = wasmtime.Instance(store, module, [served_import(store, entry) for entry in module.imports])
    exports = instance.exports(store)
    memory = exports["memory"]
    for line in sys.stdin:
        request = json.loads(line)
        if "scalar" in request:
            function = exports[request["scalar"]]
            kinds = [str(t) for t in function.type(store).params]
            # JSON does not keep 0.0 and 0 apart: convert by the parameter's wasm type.
            args = [float(a) if kind == "f64" else int(a) for a, kind in zip(request["args"], kinds)]
            print(json.dumps({"result": function(store, *args)}), flush=True)
            continue
        data = request["input"].encode()
        pointer = exports["patch_malloc"](store, len(data)) if data else 0
        if data:
            memory.write(store, data, pointer)
        packed = exports[request["export"]](store, pointer, len(data)) & 0xFFFFFFFFFFFFFFFF
        out_pointer, out_length = packed >> 32, packed & 0xFFFFFFFF
        output = bytes(memory.read(store, out_pointer, out_pointer + out_length)).decode()
        if out_pointer:
            exports["patch_free"](store, out_pointer)
        if pointer:
            exports["patch_free"](store, pointer)
        print(json.dumps({"output": output}), flush=True)


if __name__ == "__main__":
    main()
