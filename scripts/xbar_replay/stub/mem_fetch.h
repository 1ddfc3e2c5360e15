// Stand-in for gpgpu-sim's mem_fetch.h: interconnect_interface.cpp only asks
// a packet for its type (booksim_replay.cpp).
#pragma once
enum mf_type { READ_REQUEST = 0, WRITE_REQUEST, READ_REPLY, WRITE_ACK };
struct mem_fetch {
  int type;
  mf_type get_type() const { return (mf_type)type; }
};
