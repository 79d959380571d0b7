#!/usr/bin/env python3
#===- npz_fixtures.py - .npz/.npy fixtures for NpzTest ---------------------===#
#
# Writes, with NumPy (the oracle), the files NpzTest.cpp reads:
#   python3 npz_fixtures.py OUTDIR
# Every array's values follow a formula that NpzTest.cpp recomputes, so the
# test does not depend on any file checked into the repository.
# Deterministic: no randomness; the stamp file is written last.
#
#===------------------------------------------------------------------------===#

import io
import os
import struct
import sys
import zipfile
import zlib

import numpy as np


def npy_bytes(array, version=None):
    buf = io.BytesIO()
    np.lib.format.write_array(buf, array, version=version, allow_pickle=True)
    return buf.getvalue()


def write_zip(path, members, comment=b""):
    """An uncompressed zip of name -> bytes, like numpy.savez but by hand."""
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_STORED) as z:
        z.comment = comment
        for name, data in members.items():
            z.writestr(name, data)


def write_zip64(path, members):
    """A stored zip whose every size and offset sits in zip64 records, as
    archives over 4 GiB have them (PKWARE APPNOTE 4.3.14-4.5.3)."""
    body, central = b"", b""
    for name, data in members.items():
        name = name.encode()
        crc = zlib.crc32(data)
        offset = len(body)
        body += struct.pack("<IHHHHHIIIHH", 0x04034B50, 45, 0, 0, 0, 0x21, crc,
                            0xFFFFFFFF, 0xFFFFFFFF, len(name), 20)
        body += name + struct.pack("<HHQQ", 1, 16, len(data), len(data)) + data
        central += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 45, 45, 0, 0,
                               0, 0x21, crc, 0xFFFFFFFF, 0xFFFFFFFF, len(name),
                               28, 0, 0, 0, 0, 0xFFFFFFFF)
        central += name + struct.pack("<HHQQQ", 1, 24, len(data), len(data),
                                      offset)
    n, cd_offset, z64_offset = len(members), len(body), len(body) + len(central)
    end = struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 45, 45, 0, 0, n, n,
                      len(central), cd_offset)
    end += struct.pack("<IIQI", 0x07064B50, 0, z64_offset, 1)
    end += struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 0xFFFF, 0xFFFF,
                       0xFFFFFFFF, 0xFFFFFFFF, 0)
    with open(path, "wb") as f:
        f.write(body + central + end)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    p = lambda name: os.path.join(out, name)
    i6 = np.arange(6)

    # Every supported dtype, shape (2, 3), in one archive.
    arrays = {
        "f4": ((i6 - 2.5) * 0.5).astype("<f4"),
        "f8": (i6 / 3.0).astype("<f8"),
        "f2": ((i6 - 2) * 0.25).astype("<f2"),
        "i1": np.array([-128, -1, 0, 1, 127, 5], "|i1"),
        "u1": np.array([0, 1, 2, 128, 254, 255], "|u1"),
        "i2": np.array([-32768, -1, 0, 1, 32767, 300], "<i2"),
        "u2": np.array([0, 1, 0x3FC0, 0x8000, 0xFFFE, 0xFFFF], "<u2"),
        "i4": np.array([-2**31, -1, 0, 1, 2**31 - 1, 70000], "<i4"),
        "i8": np.array([-2**63, -1, 0, 1, 2**63 - 1, 2**40 + 3], "<i8"),
        "b1": np.array([True, False, True, True, False, False]),
    }
    np.savez(p("dtypes.npz"), **{k: v.reshape(2, 3) for k, v in arrays.items()})

    # Rank 0, rank 6 and an empty array.
    np.savez(p("rank0.npz"), f8=np.array(3.25), i4=np.array(-7, np.int32),
             b1=np.array(True))
    np.savez(p("rank6.npz"),
             a=np.arange(24, dtype=np.float32).reshape(1, 2, 3, 1, 2, 2),
             empty=np.zeros((0, 3), np.float32))

    # .npy format versions 2.0 and 3.0 inside a hand-made archive, and a
    # standalone .npy.
    v = np.arange(5, dtype=np.int16)
    write_zip(p("versions.npz"), {"v2.npy": npy_bytes(v, (2, 0)),
                                  "v3.npy": npy_bytes(v, (3, 0))},
              comment=b"an archive comment the reader must skip")
    # zip64 central directory and end records; checked with Python's reader.
    write_zip64(p("zip64.npz"), {"a.npy": npy_bytes(v), "b.npy": npy_bytes(v)})
    with np.load(p("zip64.npz")) as check:
        assert (check["b"] == v).all()
    np.save(p("plain.npy"), np.arange(4, dtype=np.float64))

    # Errors.
    np.savez_compressed(p("compressed.npz"), a=np.arange(100.0))
    whole = open(p("dtypes.npz"), "rb").read()
    open(p("truncated.npz"), "wb").write(whole[: len(whole) // 2])
    full = npy_bytes(np.arange(10, dtype=np.float32))
    write_zip(p("truncated_member.npz"), {"a.npy": full[:-8]})
    write_zip(p("trailing_bytes.npz"), {"a.npy": full + b"\0\0\0\0"})
    # Corrupt one data byte of a member without touching the zip records.
    marker = np.full(16, 0x5A, np.uint8)
    np.savez(p("crc.npz"), a=marker)
    data = bytearray(open(p("crc.npz"), "rb").read())
    at = data.find(marker.tobytes())
    data[at + 3] ^= 0xFF
    open(p("crc.npz"), "wb").write(bytes(data))
    np.savez(p("fortran.npz"),
             a=np.asfortranarray(np.arange(6, dtype=np.float32).reshape(2, 3)))
    np.savez(p("bigendian.npz"), a=np.arange(3, dtype=">f4"))
    np.savez(p("complex.npz"), a=np.zeros(3, np.complex64))
    np.savez(p("object.npz"), a=np.array([{"x": 1}, None], dtype=object))
    np.savez(p("structured.npz"),
             a=np.zeros(2, dtype=[("x", "<f4"), ("y", "<i4")]))
    write_zip(p("not_npy.npz"), {"readme.txt": b"hello"})
    open(p("not_a_zip.npz"), "wb").write(b"this is not a zip archive\n" * 4)
    open(p("empty.npz"), "wb").write(b"")

    open(p("fixtures.stamp"), "w").write("ok\n")


if __name__ == "__main__":
    main()
