"""The parts of bench/gpu's device scripts that need no GPU and no PyTorch
(harness.py, families.py), printed for device-session-python.test."""
import os
import random
import sys
import tempfile

sys.path.insert(0, sys.argv[1])  # bench/gpu
import families as F  # noqa: E402
import harness as H  # noqa: E402


def manifest(text):
    f = tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False)
    f.write(text)
    f.close()
    return f.name


def try_parse(text):
    path = manifest(text)
    try:
        print("entries:", [e.name for e in F.parse_manifest(path)])
    except ValueError as err:
        print("error:", str(err).replace(path, "MANIFEST"))
    os.unlink(path)


def show(slices):
    for s in slices:
        parts = [f"group {s['group']}", f"out {s['out_rows'].start}..{s['out_rows'].stop}",
                 f"a {s['a_rows'].start}..{s['a_rows'].stop}", f"cols {s['cols'].start}..{s['cols'].stop}"]
        if "tokens" in s:
            parts.append(f"tokens {s['tokens'].start}..{s['tokens'].stop}")
        print("slice:", ", ".join(parts))


print("== harness")
args = H.parse_args(["--runtime", "r.so", "--host", "h.so", "--shapes", "s.txt", "--out", "o"])
print("defaults:", args.iters, args.hang_seconds, args.budget_seconds)
path = manifest("# comment\n64 2112 7168\n\n100 200 272  # tail\n")
print("shapes:", H.read_shapes(path))
path = manifest("64 2112\n")
try:
    H.read_shapes(path)
except ValueError as err:
    print("error:", str(err).replace(path, "SHAPES"))
meta = {"date_utc": "2026-12-05 07:00", "device": "NVIDIA H200", "sms": 132, "torch": "2.11",
        "cuda": "13.0", "host_program": "libfp8_bench_host.so", "seed": 1}
row = {"shape": "64x2112x7168", "ok": True, "diff": 1.4e-6, "max_rel_err": 3e-3, "bits_vs_cpu_sm90": 0,
       "tflops_fp8mlir": 149.4, "t_host_call_ms": 4.25, "tflops_bf16": 34.0, "quant_ok": True}
print("\n".join(H.gemm_table(meta, [row])))
print("time_of:", H.time_of({"fp8_scaled_matmul_x": 1.5, "fp8_transpose_b32": 0.25,
                              "fp8_scaled_matmul_y": 0.5}, "fp8_scaled_matmul"),
      H.time_of({"fp8_quantize_x": 1.0}, "fp8_scaled_matmul"))
# The quantize epilogue's table: only rows with gemmq_ results, none else.
print("gemmq without rows:", H.gemmq_table([row]))
qrow = dict(row, t_fp8mlir_ms=0.5, gemmq_ok=False, gemmq_mismatch_vs_gemm=[3, 0],
            gemmq_mismatch_vs_cpu_sm90=[0, 1], gemmq_t_ms=0.25, gemmq_tflops=300.2,
            gemmq_out_gbps=0.56, gemm_out_gbps=0.54, gemmq_vs_gemm=2.0, gemmq_t_other_ms=0.0)
print("\n".join(H.gemmq_table([row, qrow])))
print("gemmq bytes:", H.gemmq_bytes(4096, 4096), H.gemmq_bytes(64, 2112))

print("== manifest")
try_parse("contiguous 2 256 256 256\nwgrad 128 256 256 # dense\n")
try_parse("gemm 1 2 3\n")
try_parse("masked 2 256 256\n")
try_parse("contiguous 2 256 200 256\n")
try_parse("contiguous 2 200 256 256\n")
try_parse("contiguous 2 320 256 256\n")
try_parse("masked 2 320 256 256\n")
try_parse("k-grouped 2 128 256 200\n")
try_parse("wgrad 100 256 256\n")

print("== slices")
e = F.Entry("contiguous", [2, 256, 512, 256])
show(F.gemm_slices(e, [256, 192]))
ids = F.contiguous_ids(e, [256, 192])
print("ids:", len(ids), ids.count(0), ids.count(1), ids.count(-1), ids.index(-1))
print("flops:", int(F.flops(e, [256, 192])))
e = F.Entry("masked", [3, 256, 512, 1024])
show(F.gemm_slices(e, [256, 224, 160]))
e = F.Entry("k-grouped", [2, 256, 512, 384])
show(F.gemm_slices(e))
print("flops:", int(F.flops(e)))
e = F.Entry("wgrad", [300, 400, 1024])
show(F.gemm_slices(e))
rows = set()
rng = random.Random(7)
for _ in range(200):
    rows.update(F.group_rows(F.Entry("masked", [4, 1024, 256, 256]), rng))
print("group rows:", sorted(rows))

print("== bytes")
for kind, r, c in (("quantize-act", 130, 300), ("quantize-weight", 260, 300), ("requantize", 272, 300),
                   ("transpose", 256, 384)):
    print(kind, F.bytes_moved(F.Entry(kind, [r, c])))

print("== table")
rows = [{"name": "contiguous_2x256x256x256", "kind": "contiguous", "ok": True, "slices_exact": "2/2",
         "diff": 1.38e-6, "tflops": 1234.4, "t_kernel_ms": 0.5, "t_other_ms": 0.01, "tflops_cublaslt": 1000.0,
         "ratio_vs_cublaslt": 1.2344, "tflops_bf16": 600.0, "ratio_vs_bf16": 2.0573},
        {"name": "quantize_act_130x300", "kind": "quantize-act", "ok": False, "mismatch": [0, 3],
         "gbps": 3600.0, "of_hbm": 75.0, "of_copy": 90.0, "t_kernel_ms": 0.002, "t_other_ms": 0.0},
        {"name": "wgrad_128x256x256", "kind": "wgrad", "ok": False, "error": "not run (budget)"}]
print("\n".join(F.families_table({"copy_gbps": 4000.0, "hbm_tbps": 4.8, "date_utc": "2026-12-05 07:00"},
                                 rows)))
print("hbm:", F.hbm_tbps("NVIDIA H200"), F.hbm_tbps("NVIDIA H100 80GB HBM3"), F.hbm_tbps("NVIDIA B200"))

print("== devices")
# The names the devices give (nvidia-smi's name, CUDA's); the figures are
# the datasheets' (H100: SXM 3.35, NVL 3.9, PCIe 2 TB/s; H200: 4.8 TB/s).
import devices as D  # noqa: E402
for name in ("NVIDIA H200", "NVIDIA H200 NVL", "NVIDIA H100 80GB HBM3", "NVIDIA H100 NVL", "NVIDIA H100 PCIe",
             "NVIDIA GH200 480GB", "NVIDIA B200", ""):
    print(f"'{name}':", D.lookup(name))
