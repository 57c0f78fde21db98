// The golden model of a credit link of one channel (seeds 000 and 001, cycle for cycle): the
// multi-channel link's one model, ChannelModel, on one channel of one-flit packets and one-credit
// flits, seen through the single link's plain structs. There is no second model: every feature
// (the policies, flush, reverse traffic, SYNC, FREE_DELAY, one-sided resets, faults, recovery) is
// ChannelModel's, for pool 0 and lane 0.
//
// As ChannelModel: evaluate() computes this cycle's events from the state and the inputs and
// returns the cycle's Observation; update() is the rising edge.
#pragma once

#include <cstdint>

#include "channel_model.h"
#include "link_config.h"
#include "link_inputs.h"
#include "observation.h"

namespace creditloop {

class CreditLoopModel {
public:
    explicit CreditLoopModel(const LinkConfig& config);

    void reset();                                        // state right after reset: credits = B
    const Observation& evaluate(const LinkInputs& in);   // this cycle's events
    void update() { model_.update(); }                   // the rising edge

    const LinkConfig& config() const { return config_; }

private:
    LinkConfig config_;
    ChannelModel model_;
    ChannelInputs inputs_;   // channel 0 and pool 0 of the one model's inputs
    Observation obs_;
};

}  // namespace creditloop
