"""Python loader of the aotc-compiled model @@NAME@@ (`aotc --emit=python`).

Standalone (ctypes and NumPy only): load the shared library built from
@@NAME@@.o, e.g.

    clang -shared -o lib@@NAME@@.so @@NAME@@.o \
        -Wl,--whole-archive libaot_runtime.a -Wl,--no-whole-archive \
        -L/usr/lib/llvm-22/lib -lomp -Wl,-rpath,/usr/lib/llvm-22/lib

and call an entry point with NumPy arrays (or torch tensors):

    import @@NAME@@
    model = @@NAME@@.Model()              # lib@@NAME@@.so next to this file
    outputs = model(x)                   # a tuple of arrays, one per output

The library describes itself (NAME_info()): each call checks the inputs'
dtypes and shapes against it, the scratch pool is allocated once per Model,
`num_threads` sets the OpenMP threads of each call (0: OpenMP's default), and
a failing call raises AotcError (Model.Error) with aot_status_string()'s
text.
"""

import ctypes
import os

import numpy as np

#: The entry points of the library, in the order of its header.
ENTRY_POINTS = @@ENTRY_POINTS@@
#: The library's default file name, next to this file.
LIBRARY = "@@LIBRARY@@"

_DTYPES = {1: np.float32, 2: np.float64, 3: np.float16, 5: np.int8,
           6: np.uint8, 7: np.int16, 8: np.int32, 9: np.int64, 10: np.bool_}
_DTYPE_NAMES = {1: "f32", 2: "f64", 3: "f16", 4: "bf16", 5: "i8", 6: "u8",
                7: "i16", 8: "i32", 9: "i64", 10: "bool"}


class AotcError(RuntimeError):
    """A call of the model returned a status other than AOT_OK."""

    def __init__(self, entry, status, text):
        super().__init__(f"{entry}: {text} (status {status})")
        self.status = status


class _TensorInfo(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("dtype", ctypes.c_int32),
                ("rank", ctypes.c_int32),
                ("shape", ctypes.POINTER(ctypes.c_int64))]


class _ModelInfo(ctypes.Structure):
    _fields_ = [("abi_version", ctypes.c_uint32), ("name", ctypes.c_char_p),
                ("target", ctypes.c_char_p), ("num_inputs", ctypes.c_int32),
                ("num_outputs", ctypes.c_int32),
                ("inputs", ctypes.POINTER(_TensorInfo)),
                ("outputs", ctypes.POINTER(_TensorInfo)),
                ("pool_bytes", ctypes.c_uint64),
                ("pool_alignment", ctypes.c_uint32)]


class _CpuStream(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_uint32),
                ("num_threads", ctypes.c_int32)]


def _tensors(array, count):
    return [(array[i].name.decode(), array[i].dtype,
             tuple(array[i].shape[d] for d in range(array[i].rank)))
            for i in range(count)]


class Model:
    """One entry point of the library, ready to call (`Model.Error` is the
    exception a failing call raises)."""

    Error = AotcError

    def __init__(self, library=None, entry=None, num_threads=0):
        if library is None:
            library = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                   LIBRARY)
        if entry is None:
            if len(ENTRY_POINTS) != 1:
                raise ValueError(f"name the entry point: one of {ENTRY_POINTS}")
            entry = ENTRY_POINTS[0]
        if entry not in ENTRY_POINTS:
            raise ValueError(f"no entry point {entry!r}: {ENTRY_POINTS}")
        self.entry = entry
        self.num_threads = num_threads
        self._library = ctypes.CDLL(library)
        info_fn = getattr(self._library, entry + "_info")
        info_fn.restype = ctypes.POINTER(_ModelInfo)
        info = info_fn().contents
        self.target = info.target.decode()
        self.inputs = _tensors(info.inputs, info.num_inputs)
        self.outputs = _tensors(info.outputs, info.num_outputs)
        for name, dtype, shape in self.inputs + self.outputs:
            if any(d < 0 for d in shape):
                raise NotImplementedError(
                    f"{entry}: tensor {name!r} has a symbolic dimension; the "
                    "Python loader calls static entry points only")
            if dtype not in _DTYPES:
                raise NotImplementedError(
                    f"{entry}: tensor {name!r} is {_DTYPE_NAMES[dtype]}, "
                    "which NumPy has no type for")
        if self.target != "cpu":
            raise NotImplementedError(
                f"{entry}: compiled for {self.target}; the Python loader "
                "calls CPU objects")
        # The pool, once: aligned as the library asks (and to 64 bytes).
        self.pool_bytes = int(info.pool_bytes)
        alignment = max(int(info.pool_alignment), 64)
        self._pool_storage = np.empty(self.pool_bytes + alignment, np.uint8)
        skip = -self._pool_storage.ctypes.data % alignment
        self._pool = self._pool_storage[skip:skip + self.pool_bytes]
        self._function = getattr(self._library, entry)
        self._function.restype = ctypes.c_int32
        self._function.argtypes = (
            [ctypes.c_void_p] * (len(self.inputs) + len(self.outputs) + 1) +
            [ctypes.c_size_t, ctypes.c_void_p])
        status_string = self._library.aot_status_string
        status_string.restype = ctypes.c_char_p
        status_string.argtypes = [ctypes.c_int32]
        self._status_string = status_string

    def __call__(self, *inputs):
        torch_device = None
        arrays = []
        if len(inputs) != len(self.inputs):
            raise ValueError(f"{self.entry} takes {len(self.inputs)} inputs, "
                             f"not {len(inputs)}")
        for value, (name, dtype, shape) in zip(inputs, self.inputs):
            if type(value).__module__.startswith("torch"):
                torch_device = value.device
                value = value.detach().cpu().numpy()
            array = np.ascontiguousarray(value)
            if array.dtype != _DTYPES[dtype]:
                raise ValueError(f"{self.entry}: input {name!r} is "
                                 f"{_DTYPE_NAMES[dtype]}, not {array.dtype}")
            if array.shape != shape:
                raise ValueError(f"{self.entry}: input {name!r} has shape "
                                 f"{list(shape)}, not {list(array.shape)}")
            arrays.append(array)
        results = [np.empty(shape, _DTYPES[dtype])
                   for _, dtype, shape in self.outputs]
        stream = _CpuStream(ctypes.sizeof(_CpuStream), self.num_threads)
        status = self._function(
            *[a.ctypes.data for a in arrays + results], self._pool.ctypes.data,
            self.pool_bytes, ctypes.addressof(stream))
        if status != 0:
            raise AotcError(self.entry, status,
                            self._status_string(status).decode())
        if torch_device is not None:
            import torch
            results = [torch.from_numpy(r).to(torch_device) for r in results]
        return tuple(results)
