// booksim_replay.cpp - replays a dumped reply stream ("ready in out flits"
// per packet, sorted by ready; dump.patch) through GPGPU-Sim 4.2's own
// intersim2 (booksim) objects, driven as gpu-sim.cc drives them: each L2
// sub-partition pushes at most one packet per cycle when icnt_has_buffer
// says so, then icnt_transfer, then each cluster pops one packet (its
// icnt_cycle).  Prints when the last packet is popped and the mean time from
// ready to pop.  Usage: booksim_replay ICNT_FILE STREAM
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <deque>
#include <iostream>
#include "interconnect_interface.hpp"
#include "mem_fetch.h"
InterconnectInterface *g_icnt_interface;
int GetSimTime() { return g_icnt_interface->GetIcntTime(); }
class Stats;
Stats *GetStats(const std::string &name) { return g_icnt_interface->GetIcntStats(name); }
bool gPrintActivity; int gK, gN, gC, gNodes; bool gTrace; std::ostream *gWatchOut;
struct P { long ready; int in, out, flits; long id; };
int main(int argc, char **argv) {
  const unsigned NS = 15, NM = 12;
  g_icnt_interface = InterconnectInterface::New(argv[1]);
  g_icnt_interface->CreateInterconnect(NS, NM);
  g_icnt_interface->Init();
  std::vector<P> all; P p; long id = 0;
  FILE *f = fopen(argv[2], "r");
  while (fscanf(f, "%ld %d %d %d", &p.ready, &p.in, &p.out, &p.flits) == 4) { p.id = id++; all.push_back(p); }
  std::vector<std::deque<P*>> q(NM);
  size_t next = 0, done = 0; long cyc = 0; double lat = 0; long last = 0;
  std::vector<mem_fetch> mfs(all.size());
  while (done < all.size()) {
    while (next < all.size() && all[next].ready <= cyc) { q[all[next].in].push_back(&all[next]); next++; }
    for (unsigned i = 0; i < NM; i++) {  // one packet per sub-partition per cycle
      if (q[i].empty()) continue;
      P *h = q[i].front();
      unsigned size = h->flits * 40;
      if (!g_icnt_interface->HasBuffer(NS + i, size)) continue;
      mfs[h->id].type = READ_REPLY;
      g_icnt_interface->Push(NS + i, h->out, &mfs[h->id], size);
      q[i].pop_front();
    }
    g_icnt_interface->Advance();
    for (unsigned s = 0; s < NS; s++) {  // the cluster's icnt_cycle: one pop
      mem_fetch *m = (mem_fetch *)g_icnt_interface->Pop(s);
      if (!m) continue;
      long k = m - &mfs[0];
      lat += cyc - all[k].ready; done++; last = cyc;
    }
    cyc++;
  }
  printf("booksim: packets %zu last %ld avg latency %.1f\n", all.size(), last, lat / all.size());
}
