"""The C allocator set for a table that runs all day: large blocks go back to the system when freed.

glibc serves a block of 128 KiB or more by mmap and unmaps it when it is freed, but after such a block is freed
it raises that threshold to the block's size (up to 32 MiB). The camera's frames are such blocks (2 to 25 MB
of numpy and OpenCV buffers at 1920 x 1080, made and freed several times a second on the camera's thread and
the workers): after the first is freed, the rest come from the heaps of the threads' arenas, which grow by the
largest burst and keep it, fragmented. The booth's demo grew so from 229 MB to 321 MB over its first seven
games (bench/bench_booth_memory.py). A fixed threshold keeps every large block mmapped (returned to the
system as soon as it is freed), and two arenas bound what the threads' small blocks can scatter.
"""

from __future__ import annotations

import ctypes
import sys

M_MMAP_THRESHOLD = -3  # glibc's mallopt parameters (malloc.h)
M_ARENA_MAX = -8
LARGE_BLOCK = 256 * 1024  # bytes: a block this big or bigger is mmapped, and unmapped when freed
ARENAS = 2


def return_large_blocks() -> bool:
    """Set glibc's allocator for a long run (above); False where the C library is not glibc (nothing to set)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL("libc.so.6")
    except OSError:
        return False
    mallopt = getattr(libc, "mallopt", None)
    if mallopt is None:  # another C library (musl has no mallopt)
        return False
    return bool(mallopt(M_MMAP_THRESHOLD, LARGE_BLOCK)) and bool(mallopt(M_ARENA_MAX, ARENAS))
