"""torch.backends: the flags scripts assign (allow_tf32, cudnn.benchmark...) as plain attributes with
torch's defaults. They change nothing on CPU, in torch or here."""
import types

cuda = types.SimpleNamespace(
    matmul=types.SimpleNamespace(allow_tf32=False, allow_fp16_reduced_precision_reduction=True,
                                 allow_bf16_reduced_precision_reduction=True),
    is_built=lambda: False,
)
cudnn = types.SimpleNamespace(allow_tf32=True, benchmark=False, deterministic=False, enabled=True,
                              is_available=lambda: False, version=lambda: None)
mps = types.SimpleNamespace(is_available=lambda: False, is_built=lambda: False)
mkldnn = types.SimpleNamespace(enabled=True, is_available=lambda: False)


def _cpu_capability():
    """The kernels this process runs: "DEFAULT", "AVX2" or "AVX512", chosen as torch chooses them
    (ATEN_CPU_CAPABILITY included)."""
    from .. import _C
    return _C._get_cpu_capability()


cpu = types.SimpleNamespace(get_cpu_capability=_cpu_capability)
