#include "parallel.h"

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

namespace creditloop {

void parallel_for(size_t count, int jobs, const std::function<void(size_t)>& body) {
    std::atomic<size_t> next{0};
    auto worker = [&] {
        for (size_t i = next++; i < count; i = next++) body(i);
    };
    std::vector<std::thread> workers;
    const size_t threads = std::min(count, static_cast<size_t>(std::max(1, jobs)));
    for (size_t t = 1; t < threads; ++t) workers.emplace_back(worker);
    worker();
    for (auto& w : workers) w.join();
}

}  // namespace creditloop
