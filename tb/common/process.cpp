#include "process.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <thread>

#include "interrupt.h"

namespace creditloop {

namespace {

// The process groups of the children running now (each child leads its own group: CMake, make
// and the compilers under it), so a stop signal can end all of them, from the signal handler too.
constexpr size_t kMaxChildren = 64;
std::atomic<pid_t> g_children[kMaxChildren];

void track(pid_t pid) {
    for (auto& slot : g_children) {
        pid_t empty = 0;
        if (slot.compare_exchange_strong(empty, pid)) return;
    }
}

void untrack(pid_t pid) {
    for (auto& slot : g_children) {
        pid_t expected = pid;
        if (slot.compare_exchange_strong(expected, 0)) return;
    }
}

// fork and exec argv with stdout on `out_fd` and stderr on `err_fd`, in a process group of its
// own; the child's pid (tracked until it is waited for), or -1.
pid_t start(const std::vector<std::string>& argv, int out_fd, int err_fd) {
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    const pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0);
        dup2(out_fd, 1);
        dup2(err_fd, 2);
        execvp(args[0], args.data());
        _exit(127);
    }
    if (pid > 0) {
        setpgid(pid, pid);   // as the child does: whichever runs first, the group exists before kill()
        track(pid);
    }
    return pid;
}

int exit_status(int status) { return WIFEXITED(status) ? WEXITSTATUS(status) : -1; }

// Wait for `pid`, calling `poll` about five times a second. Once a stop signal has come (the
// handler has already sent the group SIGTERM), a group still alive after a second gets SIGKILL.
int wait_for(pid_t pid, const std::function<void()>& poll) {
    int status = 0;
    int ticks = 0, stopping_ticks = 0;
    for (;;) {
        const pid_t done = waitpid(pid, &status, WNOHANG);
        if (done == pid || done < 0) {
            untrack(pid);
            return done == pid ? exit_status(status) : -1;
        }
        if (interrupt_requested() && ++stopping_ticks == 20) ::kill(-pid, SIGKILL);
        if (poll && ++ticks % 4 == 0) poll();
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
}

}  // namespace

int run_to_log(const std::vector<std::string>& argv, const std::string& log, const std::function<void()>& poll) {
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) return -1;
    const pid_t pid = start(argv, fd, fd);
    close(fd);
    if (pid < 0) return -1;
    return wait_for(pid, poll);
}

void signal_children(int signal) {
    for (auto& slot : g_children) {
        const pid_t pid = slot.load();
        if (pid > 0) ::kill(-pid, signal);
    }
}

std::string exec_program(std::vector<std::string> argv) {
    std::vector<char*> raw;
    for (auto& a : argv) raw.push_back(a.data());
    raw.push_back(nullptr);
    std::cout.flush();
    setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 0);   // SystemC's banner, printed before sc_main
    execv(raw[0], raw.data());
    return "cannot start " + argv.front() + ": " + std::strerror(errno);
}

int run_capture(const std::vector<std::string>& argv, std::string& out) {
    int pipe_fds[2];
    if (pipe2(pipe_fds, O_CLOEXEC) != 0) return -1;
    const int null_fd = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
    const pid_t pid = start(argv, pipe_fds[1], null_fd >= 0 ? null_fd : pipe_fds[1]);
    close(pipe_fds[1]);
    if (null_fd >= 0) close(null_fd);
    if (pid < 0) {
        close(pipe_fds[0]);
        return -1;
    }
    char buffer[4096];
    for (ssize_t n; (n = read(pipe_fds[0], buffer, sizeof buffer)) > 0;) out.append(buffer, static_cast<size_t>(n));
    close(pipe_fds[0]);
    return wait_for(pid, {});
}

}  // namespace creditloop

namespace creditloop {

namespace {

// Standard output onto `fd` from now on; the descriptor it had, to restore (-1: unchanged).
int redirect_stdout(int fd) {
    std::fflush(stdout);
    std::cout.flush();
    const int saved = ::dup(1);
    if (saved >= 0) ::dup2(fd, 1);
    return saved;
}

}  // namespace

StdoutToStderr::StdoutToStderr(bool active, bool discard) {
    if (!active) return;
    if (!discard) {
        saved_ = redirect_stdout(2);
        return;
    }
    const int null = ::open("/dev/null", O_WRONLY);
    if (null < 0) return;
    saved_ = redirect_stdout(null);
    ::close(null);
}

StdoutToStderr::~StdoutToStderr() {
    if (saved_ < 0) return;
    std::fflush(stdout);
    std::cout.flush();
    ::dup2(saved_, 1);
    ::close(saved_);
}

}  // namespace creditloop
