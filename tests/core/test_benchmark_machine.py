"""benchmarks.machine: the CPU a benchmark record and its table's header name."""

from benchmarks.machine import cpu_info, describe_cpu

INTEL_AMX = ("processor\t: 0\nmodel name\t: Intel(R) Xeon(R) Platinum 8481C CPU @ 2.70GHz\n"
             "flags\t\t: fpu sse4_2 avx avx2 avx512f avx512_bf16 amx_bf16 amx_tile\n\n"
             "processor\t: 1\nmodel name\t: Intel(R) Xeon(R) Platinum 8481C CPU @ 2.70GHz\n"
             "flags\t\t: fpu sse4_2 avx avx2 avx512f avx512_bf16 amx_bf16 amx_tile\n")
AMD_AVX2 = "processor\t: 0\nmodel name\t: AMD EPYC\nflags\t\t: fpu sse4_2 avx avx2 fma\n"


def test_an_intel_cpu_with_amx_is_avx512_with_bfloat16_units(tmp_path):
    path = tmp_path / "cpuinfo"
    path.write_text(INTEL_AMX)
    info = cpu_info(str(path))
    assert info["model"] == "Intel(R) Xeon(R) Platinum 8481C CPU @ 2.70GHz"
    assert info["vector"] == "AVX-512" and info["bfloat16_units"] is True
    assert describe_cpu(info) == "Intel(R) Xeon(R) Platinum 8481C CPU @ 2.70GHz: AVX-512, bfloat16 matrix units"


def test_an_amd_cpu_with_avx2_only_has_no_bfloat16_units(tmp_path):
    path = tmp_path / "cpuinfo"
    path.write_text(AMD_AVX2)
    info = cpu_info(str(path))
    assert (info["model"], info["vector"], info["bfloat16_units"]) == ("AMD EPYC", "AVX2", False)
    assert describe_cpu(info) == "AMD EPYC: AVX2, no bfloat16 matrix units"


def test_an_unreadable_cpuinfo_says_unknown_rather_than_guessing(tmp_path):
    info = cpu_info(str(tmp_path / "absent"))
    assert (info["model"], info["vector"], info["bfloat16_units"]) == ("unknown", "unknown", None)
    assert describe_cpu(info) == "unknown: unknown, bfloat16 units unknown"
