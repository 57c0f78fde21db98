// The golden model of a credit network (rtl/noc/): routers of credit links in a ring or a mesh,
// cycle-exact against noc_network, with a routing function of its own (written from the
// routing's definition, not from the RTL's route block, so that a routing bug shows as a
// difference). docs/network.md describes the router's cycle; this model follows it step by step.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <vector>

namespace creditloop {

struct NocConfig {
    int topo = 0;      // 0 one-way ring, 1 two-way ring, 2 mesh
    int nx = 4, ny = 1;
    int routing = 0;   // ring: 0 minimal, 1 minimal with a dateline; mesh: 0 dimension order,
                       // 1 minimal adaptive with VC 0 a dimension-order escape VC (Duato)
    int v = 2;         // VCs per port
    int b = 4;         // slots per VC (B - 1 in the buffer, one at its head)
    int l = 1;         // link stages each way
    int nodes() const { return nx * ny; }
    int ports() const { return topo == 0 ? 2 : topo == 1 ? 3 : 5; }
    // The node output `port` of node n leads to (-1: off a mesh's edge).
    int next(int n, int port) const;
};

struct NocFlit {
    bool head = false, tail = false;
    int vc = 0, dest = 0, src = 0, id = 0, seq = 0;
    bool operator==(const NocFlit& o) const {
        return head == o.head && tail == o.tail && vc == o.vc && dest == o.dest && src == o.src && id == o.id &&
               seq == o.seq;
    }
};

struct NocRoute {
    int port = 0;
    unsigned mask = 0;
    int alt_port = 0;        // adaptive routing's second port (0: none)
    unsigned alt_mask = 0;   // the VCs allowed there
};

// The routing function: output port and the output VCs allowed, for a head flit at node
// `here` bound for `dest` that is in input port `in_port`, VC `in_vc`; under adaptive routing,
// `port` is the dimension-order port and `alt_port` the other productive one. A head is given
// the first free VC of `port`'s allowed ones (in increasing order), else of `alt_port`'s.
NocRoute noc_route(const NocConfig& c, int here, int dest, int in_port, int in_vc);

class NocModel {
public:
    explicit NocModel(const NocConfig& config);

    // One cycle. Inputs: per node, a flit offered for injection (valid, flit) and the sink's
    // ready. Outputs of the cycle: which offers were taken, and the flits delivered.
    struct Inputs {
        std::vector<bool> inj_valid;
        std::vector<NocFlit> inj_flit;
        std::vector<bool> ej_ready;
    };
    struct Outputs {
        std::vector<bool> inj_accept;
        std::vector<bool> ej_valid;
        std::vector<NocFlit> ej_flit;
    };
    Outputs step(const Inputs& in);

    // The state the RTL shows (noc_router's obs_fill and obs_credits), at the start of the next
    // step: the flits input VC q (port * V + vc) of node n holds, and output VC q's credits
    // (0 for the sink's port).
    int fill(int n, int q) const {
        const InputVc& iv = routers_[size_t(n)].in[size_t(q)];
        return int(iv.buffer.size()) + (iv.head_valid ? 1 : 0);
    }
    int credits(int n, int q) const { return q < c_.v ? 0 : routers_[size_t(n)].credits[size_t(q)]; }

    // The wait-for graph of the last step, over the input VC buffers (id: (node * ports + port)
    // * V + vc). A buffer whose head flit could not leave because it lacked a credit, or was
    // refused an output VC, waits for the buffer(s) downstream that hold those slots: the one of
    // its output VC, or every one of the VCs its route allows (on both of its ports under
    // adaptive routing). A head waiting for the switch or for the sink waits for no buffer.
    const std::vector<std::vector<int>>& waits() const { return waits_; }
    // Whether each buffer's head flit left in the last step.
    const std::vector<bool>& moved() const { return moved_; }
    // Head flits given a VC on their route's second port (adaptive routing), since construction.
    uint64_t alt_grants() const { return alt_grants_; }

private:
    struct InputVc {
        std::deque<NocFlit> buffer;   // at most B - 1
        bool head_valid = false;
        NocFlit head;
        bool held = false;
        int held_port = 0, held_vc = 0;
    };
    struct Router {
        std::vector<InputVc> in;      // port * V + vc
        std::vector<int> credits;     // per output VC (port >= 1)
        std::vector<bool> busy;       // per output VC
        int va_next = 0;
        std::vector<int> in_next, out_next;
    };
    struct LinkStage {
        bool valid = false;
        NocFlit flit;
        std::vector<int> credits;     // per VC, travelling back
    };

    NocConfig c_;
    std::vector<Router> routers_;
    std::vector<std::vector<int>> inject_credits_;   // node, VC
    // links_[node][port]: the pipeline from node's output `port` (flits) and back (credits);
    // stage 0 is the newest.
    std::vector<std::vector<std::vector<LinkStage>>> links_;
    std::vector<std::vector<int>> waits_;
    std::vector<bool> moved_;
    uint64_t alt_grants_ = 0;
};

}  // namespace creditloop
