// Inside `creditloop regress` (regression.h): what its files share.
//   regression.cpp          the selection, the builds, the tests run in parallel
//   regression_case.cpp     one test: run, judged, its waves replayed around a failure
//   regression_report.cpp   the summary table, the failures, coverage, the JUnit file, the verdict
// Not for use outside those files.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "channel_run.h"
#include "dut_library.h"
#include "link_run.h"
#include "regression.h"

namespace creditloop::regression_detail {

struct CaseOutcome {
    RunResult result;
    std::optional<ChannelRunResult> channels;   // a multi-channel case's result
    bool caught_as_expected = false;             // a case that must be caught was, by its checks
    std::string caught_by;                       // or by the design's own assertion: which, where
    std::string seed_check_failure;   // the seed prints another number
    std::string waves;                // path, when written
    std::string gtkw;                 // its GTKWave save file
    std::string error;                // could not run at all
    double seconds = 0.0;
    // Ctrl-C or SIGTERM (interrupt.h): a test stopped mid-run, or never started. Neither is a verdict.
    enum class Ending { finished, interrupted, not_run } ending = Ending::finished;
    bool disk_error = false;          // its waves could not be written (error says why)
    bool finished() const { return ending == Ending::finished; }
    bool passed() const {
        return finished() && error.empty() && ((channels ? channels->passed : result.passed) || caught_as_expected) &&
               seed_check_failure.empty();
    }
    const Violation* first_violation() const { return channels ? channels->first_violation() : result.first_violation(); }
};

// Loaded plugins, shared by the worker threads.
class LibraryCache {
public:
    explicit LibraryCache(DutSources sources) : sources_(std::move(sources)) {}
    const DutLibrary* get(const LinkConfig& config, std::string& error) {
        std::lock_guard<std::mutex> guard(mutex_);
        auto& slot = libraries_[config.key()];
        if (!slot) slot = DutLibrary::load(config, sources_, error);
        return slot.get();
    }
    const DutSources& sources() const { return sources_; }

private:
    DutSources sources_;
    std::mutex mutex_;
    std::map<std::string, std::unique_ptr<DutLibrary>> libraries_;
};

// ---- regression_case.cpp
// Runs test `c` on its configuration's loaded plugin (a multi-channel one on its channel bank),
// with waves as `command` asks (`extension`: .vcd or .fst).
CaseOutcome run_case(const RegressionCase& c, LibraryCache& libraries, const RegressCommand& command,
                     const std::string& extension);

// ---- regression_report.cpp
// After the tests: the summary table, each failure with its rerun line, the functional coverage,
// the JUnit and coverage files, and the verdict. `indices` are the tests' places among the
// `selected` (unsharded) ones. Returns the exit code.
int report_regression(const std::vector<RegressionCase>& cases, const std::vector<size_t>& indices, size_t selected,
                      const std::vector<CaseOutcome>& outcomes, const RegressCommand& command, const std::string& program);

}  // namespace creditloop::regression_detail
