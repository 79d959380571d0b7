# -*- Python -*- lit configuration for aotc's FileCheck tests.
import os
import shutil
import lit.formats

config.name = "aotc"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.aotc_obj_root, "tests", "lit")
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py"]

path = [os.path.join(config.aotc_tools_dir, "aotc"),
        os.path.join(config.aotc_tools_dir, "aotc-opt"),
        config.llvm_tools_dir]
config.environment["PATH"] = os.pathsep.join(path + [config.environment.get("PATH", os.environ["PATH"])])
config.substitutions.append(("%cc", config.c_compiler))
config.substitutions.append(("%aotc_include", os.path.join(config.aotc_src_root, "include")))
config.substitutions.append(("%aotc_runtime", os.path.join(config.aotc_obj_root, "runtime")))
# LLVM's libraries (libomp for linking objects that use OpenMP).
config.substitutions.append(("%llvm_libdir", os.path.join(os.path.dirname(config.llvm_tools_dir), "lib")))
config.substitutions.append(("%python", config.python))
# aotc by its path, for runs with another PATH.
config.substitutions.append(("%aotc_path", os.path.join(config.aotc_tools_dir, "aotc", "aotc")))

# librsvg's rsvg-convert, which renders --memory-plot=FILE.png.
if shutil.which("rsvg-convert", path=config.environment["PATH"]):
    config.available_features.add("rsvg")

# The CUDA toolkit (ptxas, fatbinary) for the --target=cuda tests.
cuda_path = os.environ.get("AOTC_CUDA_PATH", "/usr/local/cuda")
if all(os.access(os.path.join(cuda_path, "bin", tool), os.X_OK)
       for tool in ("ptxas", "fatbinary")):
    config.available_features.add("cuda")

# The ROCm device libraries (Debian's rocm-device-libs) for --target=hip.
rocm_libs = os.environ.get("AOTC_ROCM_DEVICE_LIBS",
                           "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode")
if os.path.exists(os.path.join(rocm_libs, "ocml.bc")):
    config.available_features.add("rocm")
