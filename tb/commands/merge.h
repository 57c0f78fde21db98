// `creditloop merge`: one regression spread over a cluster (creditloop regress --shard I/N, each
// shard a job of a Slurm job array, docs/slurm.md) back into one JUnit file and one coverage file,
// the same as the unsharded run's but for wall times.
#pragma once

#include "cli.h"

namespace creditloop {

// 0: every test passed; 1: one failed (or was interrupted, or never ran); 2: bad input (a shard
// missing, twice, or of another run), with one line naming it.
int run_merge(const MergeCommand& command);

}  // namespace creditloop
