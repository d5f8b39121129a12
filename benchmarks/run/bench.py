#!/usr/bin/env python3
"""Side-by-side cost of running a Patch module: `patchcli run` (WasmKit 0.4.2 + device parity checks),
the `wasmtime` Python package (Cranelift JIT) and the toolchain's `wasmkit` CLI.

Measured, on a small (~1 KB) and a multi-MB module built here from C:
  * instantiate latency  — load + validate + instantiate (+ `_initialize`), one process/engine per sample
  * scalar call overhead — mean time of `add(1, 2)` over many calls in one instance
  * 1 KB round trip      — `echo` through the packed ABI: patch_malloc, copy in, call, read, patch_free

Usage: bench.py --patchcli PATH [--wasmkit PATH] [--clang PATH] [--calls N] [--samples N]
Use a release build of patchcli (`swift build -c release`); a debug WasmKit is ~10x slower.
"""
import argparse, json, os, statistics, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
GUEST_C = os.path.join(HERE, "..", "..", "Tests", "PatchRuntimeTests", "Fixtures", "guest.c")


def build(clang, source, output):
    # -I: the generated large.c lives in a temporary folder but includes the fixtures' bump_malloc.h.
    subprocess.run([clang, "--target=wasm32", "-O1", "-nostdlib", "-Wl,--no-entry", "-Wl,--export-dynamic",
                    "-I", os.path.dirname(GUEST_C), "-o", output, source], check=True)
    return output


def large_source(directory, functions=2500):
    """guest.c plus thousands of never-called functions with long bodies: a multi-MB module."""
    path = os.path.join(directory, "large.c")
    with open(GUEST_C) as base, open(path, "w") as out:
        out.write(base.read())
        for index in range(functions):
            out.write(f'__attribute__((export_name("filler_{index}"))) unsigned filler_{index}(unsigned x) {{\n')
            for step in range(60):
                out.write(f"  x = x * {2 * step + 3}u + {index * 7 + step}u; x ^= x >> {step % 13 + 1};\n")
            out.write("  return x;\n}\n")
    return path


def patchcli_json(binary, args):
    run = subprocess.run([binary, "run", *args, "--json", "--no-fuel-limit", "--timeout", "600"],
                         capture_output=True, text=True)
    envelope = json.loads(run.stdout)
    if not envelope["ok"]:
        raise RuntimeError(envelope["error"]["message"])
    return envelope["result"]


def bench_patchcli(binary, module, calls, samples):
    activation = statistics.median(patchcli_json(binary, [module])["activation_ms"] for _ in range(samples))
    scalar = patchcli_json(binary, [module, "add", "1", "2", "--repeat", str(calls)])["call_mean_us"]
    roundtrip = patchcli_json(binary, [module, "echo", "--input", "x" * 1024, "--decode", "hex",
                                       "--repeat", str(calls)])["call_mean_us"]
    return activation, scalar, roundtrip


def bench_wasmtime(module, calls, samples):
    import wasmtime
    engine = wasmtime.Engine()
    data = open(module, "rb").read()
    times = []
    for _ in range(samples):
        start = time.perf_counter()
        store = wasmtime.Store(engine)
        instance = wasmtime.Instance(store, wasmtime.Module(engine, data), [])
        times.append((time.perf_counter() - start) * 1000)
    exports = instance.exports(store)
    add, echo = exports["add"], exports["echo"]
    malloc, free, memory = exports["patch_malloc"], exports["patch_free"], exports["memory"]
    start = time.perf_counter()
    for _ in range(calls):
        add(store, 1, 2)
    scalar = (time.perf_counter() - start) * 1e6 / calls
    payload = b"x" * 1024
    start = time.perf_counter()
    for _ in range(calls):
        pointer = malloc(store, len(payload))
        memory.write(store, payload, pointer)
        packed = echo(store, pointer, len(payload)) & 0xFFFFFFFFFFFFFFFF
        out_pointer, out_length = packed >> 32, packed & 0xFFFFFFFF
        memory.read(store, out_pointer, out_pointer + out_length)
        free(store, out_pointer)
        free(store, pointer)
    roundtrip = (time.perf_counter() - start) * 1e6 / calls
    return statistics.median(times), scalar, roundtrip


def bench_wasmkit(binary, module, samples):
    """The wasmkit CLI can only run one call per process: instantiate + one add(1, 2), process included."""
    times = []
    for _ in range(samples):
        start = time.perf_counter()
        subprocess.run([binary, "run", module, "add", "1", "2"], capture_output=True, check=False)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--patchcli", required=True)
    parser.add_argument("--wasmkit", default="/opt/swift/usr/bin/wasmkit")
    parser.add_argument("--clang", default="/opt/swift/usr/bin/clang")
    parser.add_argument("--calls", type=int, default=20000)
    parser.add_argument("--samples", type=int, default=5)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        modules = {
            "small": build(options.clang, GUEST_C, os.path.join(directory, "small.wasm")),
            "large": build(options.clang, large_source(directory), os.path.join(directory, "large.wasm")),
        }
        print("| module | size | runtime | instantiate (ms, median) | add() per call (µs) | 1 KB echo per call (µs) |")
        print("|---|---|---|---|---|---|")
        for name, module in modules.items():
            size = f"{os.path.getsize(module) / 1024:.0f} KB"
            activation, scalar, roundtrip = bench_patchcli(options.patchcli, module, options.calls, options.samples)
            print(f"| {name} | {size} | patchcli run | {activation:.2f} | {scalar:.2f} | {roundtrip:.2f} |")
            try:
                activation, scalar, roundtrip = bench_wasmtime(module, options.calls, options.samples)
                print(f"| {name} | {size} | wasmtime (python) | {activation:.2f} | {scalar:.2f} | {roundtrip:.2f} |")
            except ImportError:
                print(f"| {name} | {size} | wasmtime (python) | not installed | | |")
            process = bench_wasmkit(options.wasmkit, module, options.samples)
            print(f"| {name} | {size} | wasmkit CLI (whole process, 1 call) | {process:.2f} | n/a | n/a |")


if __name__ == "__main__":
    sys.exit(main())
