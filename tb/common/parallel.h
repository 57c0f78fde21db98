// One worker pool for the whole program: the regression's tests, the mutants, a sweep's points.
#pragma once

#include <cstddef>
#include <functional>

namespace creditloop {

// body(i) for every i in [0, count), on up to `jobs` threads (the caller's among them); each
// index once, taken in order as threads come free. Returns when all are done.
void parallel_for(size_t count, int jobs, const std::function<void(size_t)>& body);

}  // namespace creditloop
