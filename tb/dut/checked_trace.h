// The plugins' waveform writer, made to tell a failed write (a full disk, a file-size limit):
// Verilator's own VCD file aborts the process on the first failed write(2), which would take the
// whole regression and its report down. Here the failure is recorded, the rest of the trace is
// dropped, and close_trace() names it; the harness then deletes the partial file and says so.
// The FST writer gives no such hook: its file is checked after closing (docs/cli.md).
#pragma once

#include <cerrno>
#include <cstring>
#include <memory>
#include <string>

#include <sys/statvfs.h>
#include <unistd.h>

#if CL_TRACE_FST
#include <verilated_fst_c.h>
#else
#include <verilated_vcd_c.h>
#endif

namespace creditloop {

#if !CL_TRACE_FST
class CheckedVcdFile final : public VerilatedVcdFile {
public:
    ssize_t write(const char* data, ssize_t length) override {
        if (error_ != 0) return length;   // already failed: drop the rest
        ssize_t done = 0;
        while (done < length) {
            const ssize_t got = VerilatedVcdFile::write(data + done, length - done);
            if (got > 0) {
                done += got;
            } else if (got < 0 && errno != EINTR && errno != EAGAIN) {
                error_ = errno;
                return length;
            }
        }
        return length;
    }
    int error() const { return error_; }

private:
    int error_ = 0;
};
#endif

// One open waveform: VCD through CheckedVcdFile, or FST.
class CheckedTrace {
public:
#if CL_TRACE_FST
    using Tracer = VerilatedFstC;
    CheckedTrace() : tracer_(std::make_unique<Tracer>()) {}
#else
    using Tracer = VerilatedVcdC;
    CheckedTrace() : file_(std::make_unique<CheckedVcdFile>()), tracer_(std::make_unique<Tracer>(file_.get())) {}
#endif
    Tracer* operator->() { return tracer_.get(); }
    Tracer* get() { return tracer_.get(); }

    // Flush and close: "" when every byte reached the file, else what went wrong.
    std::string close(const std::string& path) {
        tracer_->flush();
        tracer_->close();
#if CL_TRACE_FST
        // No write errors come back from the FST writer: a disk left with no free block is
        // taken as one that filled up under it.
        struct statvfs fs {};
        const std::string dir = path.find('/') == std::string::npos ? "." : path.substr(0, path.rfind('/') + 1);
        if (::statvfs(dir.c_str(), &fs) == 0 && fs.f_bavail == 0) return "cannot write " + path + ": the disk is full";
        return {};
#else
        if (file_->error() != 0) return "cannot write " + path + ": " + std::strerror(file_->error());
        return {};
#endif
    }

private:
#if !CL_TRACE_FST
    std::unique_ptr<CheckedVcdFile> file_;   // outlives the tracer, which writes through it
#endif
    std::unique_ptr<Tracer> tracer_;
};

}  // namespace creditloop
