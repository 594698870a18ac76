// What the core asks of the program that embeds it: an interpreter lock to let go of while threads
// run or while it waits, and the running of signal handlers (Ctrl-C). The Python module
// (bindings.cpp) sets them to the GIL and PyErr_CheckSignals when it is imported; a plain C++
// program leaves them unset (no lock, no signals), which is what tests/cpp/kernels_check.cpp does.
//
// Ownership: HOST is written once, before any call into the core, and only read afterwards.
#pragma once

#include "common.hpp"

namespace rouge {
namespace {  // internal linkage: one translation unit, and inlining as for static functions

struct Host {
    // Let go of the calling thread's interpreter lock; returns what acquire() needs to take it back.
    void* (*release)() = nullptr;
    void (*acquire)(void* state) = nullptr;
    // Run the pending signal handlers; < 0 when one raised (its error is then pending in the host,
    // and the work stops). holds_lock: whether the calling thread holds the interpreter lock now.
    int (*check_signals)(bool holds_lock) = nullptr;
};
inline Host HOST;

// The host's interpreter lock let go for the scope (taken back at its end); nothing without a host.
struct Unlocked {
    void* state = nullptr;
    Unlocked() {
        if (HOST.release) state = HOST.release();
    }
    ~Unlocked() {
        if (HOST.acquire) HOST.acquire(state);
    }
    Unlocked(const Unlocked&) = delete;
    Unlocked& operator=(const Unlocked&) = delete;
};

// A signal handler of the host raised while the core worked: the host's error is pending (the
// module raises it: KeyboardInterrupt for Ctrl-C).
struct SignalRaised : std::exception {
    const char* what() const noexcept override { return "a signal handler of the host raised"; }
};

}  // namespace
}  // namespace rouge
