#include "credit_loop_model.h"

#include <cstring>

namespace creditloop {

CreditLoopModel::CreditLoopModel(const LinkConfig& config) : config_(config), model_(single_channel_config(config)) {
    inputs_.bytes[0] = 1;   // one-flit packets, one credit each
    reset();
}

void CreditLoopModel::reset() {
    model_.reset();
    std::memset(static_cast<void*>(&obs_), 0, sizeof obs_);   // padding too: lockstep compares the bytes first
}

const Observation& CreditLoopModel::evaluate(const LinkInputs& in) {
    inputs_.have = in.want_send ? 1u : 0u;
    inputs_.tag[0] = in.payload;
    inputs_.drain = in.drain ? 1u : 0u;
    inputs_.flush = in.flush ? 1u : 0u;
    inputs_.return_busy = in.return_busy ? 1u : 0u;
    inputs_.reset_tx = in.reset_tx;
    inputs_.reset_rx = in.reset_rx;
    inputs_.fault_drop = in.fault_drop ? 1u : 0u;
    inputs_.fault_corrupt = in.fault_add != 0 ? 1u : 0u;
    inputs_.fault_add = in.fault_add;
    const ChannelObservation& c = model_.evaluate(inputs_);

    Observation& o = obs_;
    o.cycle = c.cycle;
    echo_inputs(in, o);
    o.credits = c.credits[0];
    o.can_send = c.credits[0] != 0 || (config_.credits_on_arrival && c.credits_arriving[0] != 0);
    o.send = c.send != 0;
    o.send_payload = c.send_payload;
    o.credits_arriving = c.credits_arriving[0];
    o.update_refused = (c.update_refused & 1u) != 0;
    o.fwd_flits = c.fwd_flits[0];
    o.arrive = c.arrive != 0;
    o.occupancy = c.occupancy[0];
    o.pop = (c.pop & 1u) != 0;
    o.pop_payload = c.pop_payload[0];
    o.overflow = (c.overflow & 1u) != 0;
    o.slots_freeing = c.slots_freeing[0];
    o.pending_returns = c.pending_returns[0];
    o.policy_flush = (c.policy_flush & 1u) != 0;
    o.return_waiting = c.return_waiting[0];
    o.credits_returned = c.credits_returned[0];
    o.return_message = (c.return_message & 1u) != 0;
    o.return_flight = c.return_flight[0];
    o.credit_total = o.credits + o.fwd_flits + o.occupancy + o.slots_freeing + o.pending_returns + o.return_waiting +
                     o.return_flight;
    return o;
}

}  // namespace creditloop
