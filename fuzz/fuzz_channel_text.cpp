// libFuzzer target: channel descriptions as --channel takes them (cpp_models/channel_config.h's
// apply_channel_text), over a preset, then the checks (validate) and, for a link that passes
// them, everything derived from it without a run: its layout of lanes and pools, every packet's
// cost, its bank key.
//
// The input: the first line names the preset to start from (chi, pcie, ib, or anything else for
// none), each further line is one --channel text ("name=REQ,credits=8,bytes=1-64"). As
// `run --channel` does, a name the link has changes that channel, a new one adds a channel.
// A text must be applied or refused with one error line; a link validate() passes must lay out
// within the RTL's fixed widths.
#include <algorithm>
#include <cstdint>

#include "channel_config.h"
#include "fuzz_support.h"

using namespace creditloop;
using namespace creditloop::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::vector<std::string> lines = lines_of(text_of(data, size));
    if (lines.empty()) return 0;
    ChannelLinkConfig config = channel_preset(lines.front()).value_or(ChannelLinkConfig{});
    for (size_t i = 1; i < lines.size(); ++i) {
        ChannelSpec scratch;
        const std::string problem = apply_channel_text(scratch, lines[i]);
        if (!problem.empty()) {
            expect_one_line(problem, "apply_channel_text");
            return 0;
        }
        auto it = std::find_if(config.channels.begin(), config.channels.end(),
                               [&](const ChannelSpec& c) { return !scratch.name.empty() && c.name == scratch.name; });
        if (it != config.channels.end()) {
            expect(apply_channel_text(*it, lines[i]).empty(), "apply_channel_text", "applies to a new channel, not to " + it->name);
        } else {
            if (scratch.name.empty()) scratch.name = "C" + std::to_string(config.channels.size());
            config.channels.push_back(scratch);
        }
    }
    if (auto problem = validate(config)) {
        expect_one_line(*problem, "validate(ChannelLinkConfig)");
        return 0;
    }
    const ChannelLayout l = layout(config);
    expect(l.channels == static_cast<int>(config.channels.size()) && l.lanes <= kMaxLanes && l.pools <= kMaxPools,
           "layout", "a valid link does not fit the RTL's widths: " + config.key());
    for (int p = 0; p < l.pools; ++p)
        expect(l.pool_credits[p] >= 1 && l.pool_batch[p] >= 1 && l.pool_batch[p] <= l.pool_credits[p], "layout",
               "pool " + std::to_string(p) + " of a valid link has no credits or a batch beyond them: " + config.key());
    for (const ChannelSpec& c : config.channels)
        for (int bytes : {c.traffic.min_bytes, c.traffic.max_bytes}) {
            const PacketCost cost = packet_cost(c, bytes);
            expect(cost.flits >= 1 && cost.header_credits >= 0 && cost.data_credits >= 0, "packet_cost",
                   c.name + ": " + std::to_string(bytes) + " bytes");
        }
    config.key();
    return 0;
}
