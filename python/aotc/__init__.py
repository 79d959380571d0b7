"""aotc from Python: compile a model ahead of time and call it.

    import aotc, torch, torchvision
    net = torchvision.models.resnet18().eval()
    x = torch.randn(1, 3, 224, 224)
    model = aotc.compile(net, example_inputs=(x,))
    (y,) = model(x)                       # torch in, torch out

`compile` takes an MLIR or ONNX file or a torch.nn.Module (exported with
torch.onnx.export first, opset 13, which needs `example_inputs`), runs the
aotc compiler with `--emit=obj,header,python`, links the object into a
shared library with the runtime and LLVM's OpenMP runtime, and returns the
Model of the generated loader (`NAME.py`, see `aotc --emit=python`): it
takes NumPy arrays (or torch tensors, and then returns torch tensors),
checks their dtypes and shapes against the library's NAME_info(),
allocates the scratch pool once, runs with `num_threads` OpenMP threads
and raises AotcError with the runtime's status text when a call fails.

The tools are found through environment variables, else beside this
package's installation, else on PATH: AOTC (the compiler), AOTC_RUNTIME
(libaot_runtime.a), AOTC_CC (the linker driver, default clang-22, else
clang, else cc) and AOTC_OMP_DIR (the directory of libomp.so, default
/usr/lib/llvm-22/lib).
"""

import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile

__all__ = ["compile", "load", "CompileError"]
__version__ = "0.1.0"


class CompileError(RuntimeError):
    """aotc, the export or the link failed; the message holds its output."""


def _installed_prefix():
    # <prefix>/lib/python3/site-packages/aotc/__init__.py (cmake --install).
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.normpath(os.path.join(here, "..", "..", "..", ".."))


def _tool(variable, candidates, what):
    value = os.environ.get(variable)
    if value:
        return value
    for candidate in candidates:
        if os.path.isabs(candidate) and os.access(candidate, os.X_OK | os.R_OK):
            return candidate
        found = shutil.which(candidate) if not os.path.isabs(candidate) else None
        if found:
            return found
    raise CompileError(f"{what} not found: set {variable}")


def _compiler():
    prefix = _installed_prefix()
    return _tool("AOTC", [os.path.join(prefix, "bin", "aotc"), "aotc"],
                 "the aotc compiler")


def _runtime(compiler):
    value = os.environ.get("AOTC_RUNTIME")
    if value:
        return value
    bindir = os.path.dirname(os.path.realpath(compiler))
    for candidate in (
            os.path.join(bindir, "..", "lib", "libaot_runtime.a"),  # installed
            os.path.join(bindir, "..", "..", "..", "runtime",
                         "libaot_runtime.a")):  # build tree
        if os.path.exists(candidate):
            return os.path.normpath(candidate)
    raise CompileError("libaot_runtime.a not found next to "
                       f"{compiler}: set AOTC_RUNTIME")


def _run(command, what):
    result = subprocess.run(command, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    if result.returncode != 0:
        raise CompileError(f"{what} failed ({' '.join(command)}):\n"
                           f"{result.stdout}")
    return result.stdout


def _export(module, example_inputs, path):
    import torch
    if example_inputs is None:
        raise CompileError("a torch.nn.Module needs example_inputs (a tuple "
                           "of tensors) to be exported")
    if not isinstance(example_inputs, tuple):
        example_inputs = (example_inputs,)
    module = module.eval()
    with torch.no_grad():
        torch.onnx.export(module, example_inputs, path, opset_version=13,
                          do_constant_folding=True)


def _options(options):
    flags = []
    for key, value in sorted(options.items()):
        flag = "--" + key.replace("_", "-")
        values = value if isinstance(value, (list, tuple)) else [value]
        for v in values:
            if v is True:
                flags.append(flag)
            elif v is False:
                flags.append(flag + "=0")
            else:
                flags.append(f"{flag}={v}")
    return flags


def load(loader, library=None, entry=None, num_threads=0):
    """The Model of a generated loader file `loader` (NAME.py)."""
    name = os.path.splitext(os.path.basename(loader))[0]
    spec = importlib.util.spec_from_file_location(f"aotc_loaded_{name}",
                                                  loader)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.Model(library=library, entry=entry, num_threads=num_threads)


def compile(model, example_inputs=None, target="cpu", name=None,
            workdir=None, num_threads=0, entry=None, **options):
    """Compiles `model` (a .mlir or .onnx path, or a torch.nn.Module) and
    returns a callable Model. `options` become aotc flags (`mcpu="haswell"`
    -> `--mcpu=haswell`, `winograd=False` -> `--winograd=0`); the files
    (model, object, header, loader, library) go to `workdir` (default: a
    new temporary directory, kept while the process runs)."""
    if target != "cpu":
        raise NotImplementedError("aotc.compile links CPU objects; compile "
                                  "GPU targets with the aotc command")
    workdir = workdir or tempfile.mkdtemp(prefix="aotc-")
    os.makedirs(workdir, exist_ok=True)
    if isinstance(model, (str, os.PathLike)):
        source = os.fspath(model)
        default_name = os.path.splitext(os.path.basename(source))[0]
    else:
        default_name = type(model).__name__.lower()
        source = os.path.join(workdir, default_name + ".onnx")
        _export(model, example_inputs, source)
    name = name or "".join(c if c.isalnum() or c == "_" else "_"
                           for c in default_name)
    compiler = _compiler()
    _run([compiler, source, f"--name={name}", "-o", workdir,
          "--emit=obj,header,python", "--target=cpu"] + _options(options),
         "aotc")
    library = os.path.join(workdir, f"lib{name}.so")
    cc = _tool("AOTC_CC", ["clang-22", "clang", "cc"], "a C compiler")
    omp = os.environ.get("AOTC_OMP_DIR", "/usr/lib/llvm-22/lib")
    # The whole runtime: the loader calls aot_status_string from it.
    _run([cc, "-shared", "-o", library, os.path.join(workdir, name + ".o"),
          "-Wl,--whole-archive", _runtime(compiler), "-Wl,--no-whole-archive",
          f"-L{omp}", "-lomp", f"-Wl,-rpath,{omp}"], "linking")
    return load(os.path.join(workdir, name + ".py"), library, entry=entry,
                num_threads=num_threads)
