"""pytest: aotc's Python front door against independent oracles (NumPy,
PyTorch). Run by ctest (`python_frontdoor`), which sets AOTC and
AOTC_RUNTIME to the build's compiler and runtime and puts python/ on the
path; AOTC_SOURCE_DIR is the repository."""

import importlib.util
import os
import subprocess

import numpy as np
import pytest

import aotc

SOURCE = os.environ.get(
    "AOTC_SOURCE_DIR",
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
MATMUL = os.path.join(SOURCE, "tests", "e2e", "programs", "matmul.mlir")


@pytest.fixture(scope="module")
def resnet18(tmp_path_factory):
    torch = pytest.importorskip("torch")
    torchvision = pytest.importorskip("torchvision")
    torch.manual_seed(0)
    net = torchvision.models.resnet18().eval()
    x = torch.randn(1, 3, 224, 224)
    model = aotc.compile(net, example_inputs=(x,), num_threads=2,
                         workdir=str(tmp_path_factory.mktemp("resnet18")))
    with torch.no_grad():
        reference = net(x)
    return model, x, reference


def test_mlir_file_matches_numpy(tmp_path):
    model = aotc.compile(MATMUL, workdir=str(tmp_path))
    rng = np.random.default_rng(0)
    a, b = (rng.standard_normal(shape).astype(np.float32)
            for _, _, shape in model.inputs)
    (y,) = model(a, b)
    reference = a.astype(np.float64) @ b.astype(np.float64)
    assert y.dtype == np.float32 and y.shape == reference.shape
    assert np.abs(y - reference).max() <= 1e-4 * np.abs(reference).max()


def test_torch_module_matches_pytorch(resnet18):
    torch = pytest.importorskip("torch")
    model, x, reference = resnet18
    (y,) = model(x)
    assert isinstance(y, torch.Tensor) and y.shape == reference.shape
    error = (y - reference).abs().max().item()
    assert error <= 1e-3 * reference.abs().max().item(), error
    # NumPy in, NumPy out, one thread: the same numbers within rounding.
    model.num_threads = 1
    (z,) = model(x.numpy())
    assert isinstance(z, np.ndarray)
    assert np.abs(z - reference.numpy()).max() <= \
        1e-3 * reference.abs().max().item()


def test_inputs_are_checked(tmp_path):
    model = aotc.compile(MATMUL, workdir=str(tmp_path))
    (_, _, sa), (_, _, sb) = model.inputs
    a, b = np.zeros(sa, np.float32), np.zeros(sb, np.float32)
    with pytest.raises(ValueError, match="is f32, not float64"):
        model(a.astype(np.float64), b)
    with pytest.raises(ValueError, match="has shape"):
        model(a[:, :-1], b)
    with pytest.raises(ValueError, match="takes 2 inputs"):
        model(a)


def test_failing_call_raises_the_status_text(resnet18):
    model, x, _ = resnet18
    assert model.pool_bytes > 0
    full = model.pool_bytes
    model.pool_bytes = full - 1
    try:
        with pytest.raises(model.Error, match="AOT_ERROR_POOL_TOO_SMALL"):
            model(x)
    finally:
        model.pool_bytes = full


def test_compile_errors_carry_aotc_output(tmp_path):
    bad = tmp_path / "bad.mlir"
    bad.write_text("func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
                   "  return %y : tensor<4xf32>\n}\n")
    with pytest.raises(aotc.CompileError, match="bad.mlir:2"):
        aotc.compile(str(bad), workdir=str(tmp_path))
    with pytest.raises(aotc.CompileError, match="example_inputs"):
        torch = pytest.importorskip("torch")
        aotc.compile(torch.nn.ReLU(), workdir=str(tmp_path))


def test_emitted_loader_stands_alone(tmp_path):
    # `aotc --emit=python` and a link by hand, then the generated module
    # imported on its own (no aotc package involved).
    compiler = os.environ["AOTC"]
    subprocess.run([compiler, MATMUL, "--name=mm", "-o", str(tmp_path),
                    "--emit=obj,header,python"], check=True)
    subprocess.run(["clang-22", "-shared", "-o", str(tmp_path / "libmm.so"),
                    str(tmp_path / "mm.o"), "-Wl,--whole-archive",
                    os.environ["AOTC_RUNTIME"], "-Wl,--no-whole-archive",
                    "-L/usr/lib/llvm-22/lib", "-lomp",
                    "-Wl,-rpath,/usr/lib/llvm-22/lib"], check=True)
    spec = importlib.util.spec_from_file_location("mm", tmp_path / "mm.py")
    mm = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mm)
    assert mm.ENTRY_POINTS == ["mm"] and mm.LIBRARY == "libmm.so"
    model = mm.Model()  # libmm.so next to mm.py
    a = np.ones(model.inputs[0][2], np.float32)
    b = np.full(model.inputs[1][2], 2.0, np.float32)
    (y,) = model(a, b)
    np.testing.assert_array_equal(y, np.full(y.shape, 2.0 * a.shape[1]))
