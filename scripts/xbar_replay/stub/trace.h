// Stand-in for gpgpu-sim's trace.h: no debug printing (booksim_replay.cpp).
#pragma once
#define DPRINTF(...) do {} while (0)
