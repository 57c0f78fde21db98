#include "noc_model.h"


namespace creditloop {

int NocConfig::next(int n, int port) const {
    const int count = nodes();
    if (topo != 2) return port == 1 ? (n + 1) % count : (n + count - 1) % count;
    const int x = n % nx, y = n / nx;
    switch (port) {
    case 1: return x < nx - 1 ? n + 1 : -1;
    case 2: return x > 0 ? n - 1 : -1;
    case 3: return y < ny - 1 ? n + nx : -1;
    default: return y > 0 ? n - nx : -1;
    }
}

NocRoute noc_route(const NocConfig& c, int here, int dest, int in_port, int in_vc) {
    const unsigned all = (1u << c.v) - 1;
    if (dest == here) return {0, all};
    if (c.topo == 2) {
        const int hx = here % c.nx, hy = here / c.nx, dx = dest % c.nx, dy = dest / c.nx;
        // Dimension order: x until the column is right, then y.
        NocRoute r{dx > hx ? 1 : dx < hx ? 2 : dy > hy ? 3 : 4, all};
        // Adaptive: the adaptive VCs (all but the escape VC 0) on the other productive direction
        // too, when the packet still has to move in both x and y.
        if (c.routing == 1 && dx != hx && dy != hy) {
            r.alt_port = dy > hy ? 3 : 4;
            r.alt_mask = all & ~1u;
        }
        return r;
    }
    const int n = c.nodes();
    const int forward = (dest - here + n) % n;
    const bool plus = c.topo == 0 || forward <= n - forward;
    if (c.routing != 1) return {plus ? 1 : 2, all};
    // The dateline: the lower half of the VCs before the hop from node N - 1 to node 0 (going +;
    // from 0 to N - 1 going -), the upper half from that hop on.
    const unsigned low = (1u << (c.v / 2)) - 1;
    const bool upper = (in_port != 0 && in_vc >= c.v / 2) || (plus ? here == n - 1 : here == 0);
    return {plus ? 1 : 2, upper ? all & ~low : low};
}

NocModel::NocModel(const NocConfig& config) : c_(config) {
    const int q = c_.ports() * c_.v;
    routers_.resize(c_.nodes());
    for (auto& r : routers_) {
        r.in.resize(q);
        r.credits.assign(q, c_.b);
        r.busy.assign(q, false);
        r.in_next.assign(c_.ports(), 0);
        r.out_next.assign(c_.ports(), 0);
    }
    inject_credits_.assign(c_.nodes(), std::vector<int>(c_.v, c_.b));
    waits_.assign(size_t(c_.nodes()) * q, {});
    moved_.assign(size_t(c_.nodes()) * q, false);
    links_.assign(c_.nodes(), std::vector<std::vector<LinkStage>>(c_.ports()));
    for (auto& node : links_)
        for (auto& link : node) link.assign(c_.l, LinkStage{false, {}, std::vector<int>(c_.v, 0)});
}

NocModel::Outputs NocModel::step(const Inputs& in) {
    const int nodes = c_.nodes(), ports = c_.ports(), v = c_.v, q_count = ports * v;
    Outputs out;
    out.inj_accept.assign(nodes, false);
    out.ej_valid.assign(nodes, false);
    out.ej_flit.assign(nodes, {});

    // What arrives this cycle: the last stage of every link.
    std::vector<std::vector<bool>> in_valid(nodes, std::vector<bool>(ports, false));
    std::vector<std::vector<NocFlit>> in_flit(nodes, std::vector<NocFlit>(ports));
    std::vector<std::vector<int>> credit_in(nodes, std::vector<int>(q_count, 0));
    for (int n = 0; n < nodes; ++n)
        for (int k = 1; k < ports; ++k) {
            const int m = c_.next(n, k);
            if (m < 0) continue;
            const LinkStage& last = links_[n][k].back();
            in_valid[m][k] = last.valid;
            in_flit[m][k] = last.flit;
            for (int w = 0; w < v; ++w) credit_in[n][k * v + w] = last.credits[w];
        }
    for (int n = 0; n < nodes; ++n) {
        const int vc = in.inj_flit[n].vc;
        out.inj_accept[n] = in.inj_valid[n] && inject_credits_[n][vc] != 0;
        in_valid[n][0] = out.inj_accept[n];
        in_flit[n][0] = in.inj_flit[n];
    }

    // Each router's decisions, from its state at the start of the cycle.
    struct Decision {
        std::vector<NocRoute> route;
        std::vector<bool> va_grant, leave, take, offers, grant_valid;
        std::vector<int> va_port, va_vc, want_port, want_vc, choice, grant;
        bool va_any = false;
        int va_first = 0;
        std::vector<bool> out_valid;
        std::vector<NocFlit> out_flit;
    };
    std::vector<Decision> d(nodes);
    for (int n = 0; n < nodes; ++n) {
        Router& r = routers_[n];
        Decision& x = d[n];
        x.route.resize(q_count);
        for (int q = 0; q < q_count; ++q)
            if (r.in[q].head_valid) x.route[q] = noc_route(c_, n, r.in[q].head.dest, q / v, q % v);
        // VC allocation, round robin from va_next.
        x.va_grant.assign(q_count, false);
        x.va_port.assign(q_count, 0);
        x.va_vc.assign(q_count, 0);
        std::vector<bool> claimed = r.busy;
        x.va_first = r.va_next;
        for (int k = 0; k < q_count; ++k) {
            const int q = (r.va_next + k) % q_count;
            const InputVc& iv = r.in[q];
            if (!iv.head_valid || !iv.head.head || iv.held) continue;
            // The route's port first, then its second port (adaptive routing), each VC in order.
            const NocRoute& route = x.route[q];
            const int candidate_port[2] = {route.port, route.alt_port};
            const unsigned candidate_mask[2] = {route.mask, route.alt_mask};
            for (int k = 0; k < 2 * v && !x.va_grant[q]; ++k) {
                const int port = candidate_port[k / v], w = k % v, o = port * v + w;
                if (((candidate_mask[k / v] >> w) & 1u) && !claimed[o] && (port == 0 || r.credits[o] == c_.b)) {
                    x.va_grant[q] = true;
                    x.va_port[q] = port;
                    x.va_vc[q] = w;
                    claimed[o] = true;
                    if (!x.va_any) x.va_first = q;
                    x.va_any = true;
                    if (k >= v) ++alt_grants_;
                }
            }
        }
        // Switch allocation: one VC per input port, then one input per output port.
        const auto credit = [&](int o) { return o / v == 0 ? (in.ej_ready[n] ? 1 : 0) : r.credits[o]; };
        x.want_port.assign(q_count, 0);
        x.want_vc.assign(q_count, 0);
        std::vector<bool> eligible(q_count, false);
        for (int q = 0; q < q_count; ++q) {
            const InputVc& iv = r.in[q];
            x.want_port[q] = iv.held ? iv.held_port : x.va_grant[q] ? x.va_port[q] : x.route[q].port;
            x.want_vc[q] = iv.held ? iv.held_vc : x.va_vc[q];
            eligible[q] = iv.head_valid && (iv.held || x.va_grant[q]) && credit(x.want_port[q] * v + x.want_vc[q]) != 0;
        }
        x.offers.assign(ports, false);
        x.choice.assign(ports, 0);
        for (int p = 0; p < ports; ++p)
            for (int k = 0; k < v && !x.offers[p]; ++k) {
                const int w = (r.in_next[p] + k) % v;
                if (eligible[p * v + w]) {
                    x.offers[p] = true;
                    x.choice[p] = w;
                }
            }
        x.grant_valid.assign(ports, false);
        x.grant.assign(ports, 0);
        for (int o = 0; o < ports; ++o)
            for (int k = 0; k < ports && !x.grant_valid[o]; ++k) {
                const int p = (r.out_next[o] + k) % ports;
                if (x.offers[p] && x.want_port[p * v + x.choice[p]] == o) {
                    x.grant_valid[o] = true;
                    x.grant[o] = p;
                }
            }
        // Traversal.
        x.leave.assign(q_count, false);
        x.take.assign(q_count, false);
        x.out_valid.assign(ports, false);
        x.out_flit.assign(ports, {});
        for (int o = 0; o < ports; ++o) {
            if (!x.grant_valid[o]) continue;
            const int q = x.grant[o] * v + x.choice[x.grant[o]];
            x.leave[q] = true;
            if (o != 0) x.take[o * v + x.want_vc[q]] = true;
            x.out_valid[o] = true;
            x.out_flit[o] = r.in[q].head;
            x.out_flit[o].vc = x.want_vc[q];
        }
        out.ej_valid[n] = x.out_valid[0];
        out.ej_flit[n] = x.out_flit[0];

        // Who waits for which buffer this cycle.
        for (int q = 0; q < q_count; ++q) {
            const int self = n * q_count + q;
            auto& waits = waits_[self];
            waits.clear();
            moved_[self] = x.leave[q];
            const InputVc& iv = r.in[q];
            if (!iv.head_valid || x.leave[q]) continue;
            const int port = x.want_port[q];
            if (port == 0) continue;   // the sink, not a buffer
            if (iv.held || x.va_grant[q]) {
                if (credit(port * v + x.want_vc[q]) == 0)
                    waits.push_back(c_.next(n, port) * q_count + port * v + x.want_vc[q]);
            } else if (iv.head.head) {
                // Refused a VC: it waits for every VC its route allows, on both of its ports.
                const NocRoute& route = x.route[q];
                for (int w = 0; w < v; ++w)
                    if ((route.mask >> w) & 1u) waits.push_back(c_.next(n, route.port) * q_count + route.port * v + w);
                for (int w = 0; w < v; ++w)
                    if ((route.alt_mask >> w) & 1u)
                        waits.push_back(c_.next(n, route.alt_port) * q_count + route.alt_port * v + w);
            }
        }
    }

    // The clock edge.
    for (int n = 0; n < nodes; ++n) {
        Router& r = routers_[n];
        const Decision& x = d[n];
        for (int q = 0; q < q_count; ++q) {
            InputVc& iv = r.in[q];
            const NocFlit leaving = iv.head;
            const bool fill = !iv.head_valid || x.leave[q];
            const bool pop = fill && !iv.buffer.empty();
            NocFlit popped;
            if (pop) {
                popped = iv.buffer.front();
                iv.buffer.pop_front();
            }
            const int p = q / v;
            if (in_valid[n][p] && in_flit[n][p].vc == q % v && int(iv.buffer.size()) < c_.b - 1)
                iv.buffer.push_back(in_flit[n][p]);
            if (fill) {
                iv.head_valid = pop;
                iv.head = pop ? popped : NocFlit{};
            }
            if (x.va_grant[q]) {
                iv.held = true;
                iv.held_port = x.va_port[q];
                iv.held_vc = x.va_vc[q];
                r.busy[x.va_port[q] * v + x.va_vc[q]] = true;
            }
            if (x.leave[q] && leaving.tail) {
                iv.held = false;
                r.busy[x.want_port[q] * v + x.want_vc[q]] = false;
            }
        }
        if (x.va_any) r.va_next = (x.va_first + 1) % q_count;
        for (int p = 0; p < ports; ++p)
            if (x.offers[p] && x.leave[p * v + x.choice[p]]) r.in_next[p] = (x.choice[p] + 1) % v;
        for (int o = 0; o < ports; ++o)
            if (x.grant_valid[o]) r.out_next[o] = (x.grant[o] + 1) % ports;
        for (int o = v; o < q_count; ++o) r.credits[o] += credit_in[n][o] - (x.take[o] ? 1 : 0);
        for (int w = 0; w < v; ++w)
            inject_credits_[n][w] += (x.leave[w] ? 1 : 0) - (out.inj_accept[n] && in.inj_flit[n].vc == w ? 1 : 0);
    }
    // The links shift: flits forward from each output, credits back from the input they feed.
    for (int n = 0; n < nodes; ++n)
        for (int k = 1; k < ports; ++k) {
            const int m = c_.next(n, k);
            if (m < 0) continue;
            auto& link = links_[n][k];
            for (int s = c_.l - 1; s > 0; --s) link[s] = link[s - 1];
            link[0].valid = d[n].out_valid[k];
            link[0].flit = d[n].out_valid[k] ? d[n].out_flit[k] : NocFlit{};
            for (int w = 0; w < v; ++w) link[0].credits[w] = d[m].leave[k * v + w] ? 1 : 0;
        }
    return out;
}

}  // namespace creditloop
