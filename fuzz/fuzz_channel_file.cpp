// libFuzzer target: a link described in a JSON file (`run --channels FILE`, docs/channels.md),
// parse_channel_description() of tb/commands/channels_command.h over an empty link and over a
// preset, then the same checks a run makes before it builds anything (validate, the layout).
//
// The input is the file's text. It must be read or refused with an error line.
#include <cstdint>

#include "channel_config.h"
#include "channels_command.h"
#include "fuzz_support.h"

using namespace creditloop;
using namespace creditloop::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text = text_of(data, size);
    for (const char* preset : {"", "pcie"}) {
        ChannelLinkConfig config = channel_preset(preset).value_or(ChannelLinkConfig{});
        if (const auto problem = parse_channel_description(text, "link.json", config)) {
            expect_error(*problem, "parse_channel_description");
            continue;
        }
        if (auto invalid = validate(config)) {
            expect_error(*invalid, "validate(ChannelLinkConfig)");
            continue;
        }
        const ChannelLayout l = layout(config);
        expect(l.lanes <= kMaxLanes && l.pools <= kMaxPools, "layout", "a valid link does not fit: " + config.key());
    }
    return 0;
}
