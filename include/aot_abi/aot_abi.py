"""The aot_abi.h ABI as seen from Python ctypes (AOT_ABI_VERSION 1).

Mirrors, field for field, the structs and codes of include/aot_abi/aot_abi.h
for tools that load aotc-compiled shared libraries with ctypes (the ONNX
conformance runner, the model benchmarks, the symbolic-dimension test). Add
fields only at the end, as the header does.
"""

import ctypes

AOT_ABI_VERSION = 1

AOT_OK = 0
AOT_ERROR_INVALID_ARGUMENT = 1
AOT_ERROR_POOL_TOO_SMALL = 2
AOT_ERROR_SHAPE = 3
AOT_ERROR_NO_DEVICE = 4
AOT_ERROR_DEVICE = 5
AOT_ERROR_INTERNAL = 6

AOT_DTYPE_F32 = 1
AOT_DTYPE_F64 = 2
AOT_DTYPE_F16 = 3
AOT_DTYPE_BF16 = 4
AOT_DTYPE_I8 = 5
AOT_DTYPE_U8 = 6
AOT_DTYPE_I16 = 7
AOT_DTYPE_I32 = 8
AOT_DTYPE_I64 = 9
AOT_DTYPE_BOOL = 10


class TensorInfo(ctypes.Structure):
    """aot_tensor_info_t; shape holds -1 for a symbolic dimension."""
    _fields_ = [("name", ctypes.c_char_p), ("dtype", ctypes.c_int32),
                ("rank", ctypes.c_int32),
                ("shape", ctypes.POINTER(ctypes.c_int64))]


class ModelInfo(ctypes.Structure):
    """aot_model_info_t; pool_bytes is at the bounds of symbolic dims."""
    _fields_ = [("abi_version", ctypes.c_uint32), ("name", ctypes.c_char_p),
                ("target", ctypes.c_char_p), ("num_inputs", ctypes.c_int32),
                ("num_outputs", ctypes.c_int32),
                ("inputs", ctypes.POINTER(TensorInfo)),
                ("outputs", ctypes.POINTER(TensorInfo)),
                ("pool_bytes", ctypes.c_uint64),
                ("pool_alignment", ctypes.c_uint32)]


class CpuStream(ctypes.Structure):
    """aot_cpu_stream_t."""
    _fields_ = [("struct_size", ctypes.c_uint32),
                ("num_threads", ctypes.c_int32)]
