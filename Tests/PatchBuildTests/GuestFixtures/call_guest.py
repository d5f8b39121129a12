"""Calls exports of a patch guest module the way the SDK does (sdk-contract §2.4) and prints results.

Usage: call_guest.py MODULE.wasm  < requests.jsonl
Each request line is {"export": NAME, "input": "<json text>"} (packed JSON ABI) or
{"scalar": NAME, "args": [..]} (scalar fast path). Prints one JSON line per request:
{"output": "<json text>"} or {"result": value}.
"""
import json
import sys

import wasmtime


def main():
    store = wasmtime.Store()
    module = wasmtime.Module.from_file(store.engine, sys.argv[1])
    if module.imports:
        raise SystemExit("guest module must have no imports, found %r" % [i.name for i in module.imports])
    instance = wasmtime.Instance(store, module, [])
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
