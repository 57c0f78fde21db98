#include "observation.h"

namespace creditloop {

const char* signal_name(Signal signal) {
    switch (signal) {
        case Signal::want_send: return "link.want_send";
        case Signal::drain: return "link.drain";
        case Signal::flush: return "link.flush";
        case Signal::return_busy: return "link.return_busy";
        case Signal::reset_tx: return "link.reset_tx";
        case Signal::reset_rx: return "link.reset_rx";
        case Signal::credits: return "link.sender.credits";
        case Signal::can_send: return "link.sender.can_send";
        case Signal::send: return "link.sender.send";
        case Signal::send_payload: return "link.sender.send_payload";
        case Signal::credits_arriving: return "link.sender.credits_arriving";
        case Signal::fwd_flits: return "link.fwd.flits";
        case Signal::arrive: return "link.fwd.arrive";
        case Signal::occupancy: return "link.rx.occupancy";
        case Signal::pop: return "link.rx.pop";
        case Signal::pop_payload: return "link.rx.pop_payload";
        case Signal::overflow: return "link.rx.overflow";
        case Signal::slots_freeing: return "link.rx.slots_freeing";
        case Signal::pending_returns: return "link.ret.pending_returns";
        case Signal::policy_flush: return "link.ret.policy_flush";
        case Signal::return_waiting: return "link.ret.return_waiting";
        case Signal::credits_returned: return "link.ret.credits_returned";
        case Signal::return_flight: return "link.ret.return_flight";
        case Signal::credit_total: return "link.credit_total";
    }
    return "?";
}

uint64_t signal_value(const Observation& o, Signal signal) {
    switch (signal) {
        case Signal::want_send: return o.want_send;
        case Signal::drain: return o.drain;
        case Signal::flush: return o.flush;
        case Signal::return_busy: return o.return_busy;
        case Signal::reset_tx: return o.reset_tx;
        case Signal::reset_rx: return o.reset_rx;
        case Signal::credits: return o.credits;
        case Signal::can_send: return o.can_send;
        case Signal::send: return o.send;
        case Signal::send_payload: return o.send_payload;
        case Signal::credits_arriving: return o.credits_arriving;
        case Signal::fwd_flits: return o.fwd_flits;
        case Signal::arrive: return o.arrive;
        case Signal::occupancy: return o.occupancy;
        case Signal::pop: return o.pop;
        case Signal::pop_payload: return o.pop_payload;
        case Signal::overflow: return o.overflow;
        case Signal::slots_freeing: return o.slots_freeing;
        case Signal::pending_returns: return o.pending_returns;
        case Signal::policy_flush: return o.policy_flush;
        case Signal::return_waiting: return o.return_waiting;
        case Signal::credits_returned: return o.credits_returned;
        case Signal::return_flight: return o.return_flight;
        case Signal::credit_total: return o.credit_total;
    }
    return 0;
}

}  // namespace creditloop
