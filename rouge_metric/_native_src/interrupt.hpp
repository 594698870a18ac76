// Stopping native work early: Ctrl-C (and any Python signal handler that raises), and errors in
// batch threads.
//
// Ownership. An Interrupt is shared by the threads of one call: `stop` is atomic (set once, read by
// every thread at its check points) and the first error is stored under `mu`. A Poll belongs to one
// thread: only the thread that called from the host (`caller`) polls for signals (HOST.check_signals,
// host.hpp; in the module: PyErr_CheckSignals, taking the GIL when it does not hold it), at most every
// POLL_MS milliseconds.
//
// Check points: between examples, and inside the kernels whose single call can be long (the rows of
// the LCS kernels and the positions of ROUGE-S, spaced by their cost: check_every; every sentence
// pair of rougeLsum/rougeW), so a long batch or a single very long pair stops within a fraction of a
// second. A stopped kernel returns early with a meaningless result, which the batch discards: it
// raises instead.
#pragma once

#include <chrono>
#include <exception>
#include <mutex>

#include "common.hpp"
#include "host.hpp"

namespace rouge {
namespace {  // internal linkage: one translation unit, and inlining as for static functions

struct Interrupt {
    enum : int { RUNNING = 0, SIGNAL = 1, ERROR = 2 };
    std::atomic<int> stop{RUNNING};
    std::mutex mu;
    std::exception_ptr error;  // the first C++ exception of a worker (stop == ERROR)

    bool stopped() const { return stop.load(std::memory_order_relaxed) != RUNNING; }
    void fail(std::exception_ptr e) {
        std::lock_guard<std::mutex> g(mu);
        if (!error) error = e;
        stop.store(ERROR, std::memory_order_relaxed);
    }
    // After the threads have joined: rethrow the worker's error, or SignalRaised when a signal
    // handler raised (its error is pending in the host; the caller holds the host's lock again).
    void rethrow_if_stopped();
};

// The spacing of a kernel's check points: one every check_every(cost, most) rows (or positions) when
// each costs about `cost` word operations, so that about 2^16 of them (tens of microseconds; ten times
// that under a sanitizer) pass between two, and never more than `most` rows.
inline size_t check_every(size_t cost, size_t most) {
    const size_t n = ((size_t)1 << 16) / (cost ? cost : 1);
    return n < 1 ? 1 : n > most ? most : n;
}

// The check points of a loop that is not split into blocks of check_every rows: due() is true at the
// first call and then once every `every` calls.
struct CheckPoints {
    size_t every, left = 0;
    explicit CheckPoints(size_t every_) : every(every_) {}
    bool due() {
        if (left) {
            --left;
            return false;
        }
        left = every - 1;
        return true;
    }
};

struct Poll {
    static constexpr int POLL_MS = 50;
    Interrupt* in = nullptr;
    bool caller = false;    // the host's thread that called: it runs signal handlers
    bool gil_held = false;  // it holds the host's lock while working (one example) or let go of it (a batch)
    // The caller reads the clock every `stride` calls: the stride doubles (up to STRIDE_MAX) while two
    // reads are less than TICK_US microseconds apart and halves (down to 1) when they are more, so the
    // clock is read about every TICK_US whether the check points are a microsecond apart (short
    // examples: one read of the clock costs as much as several of them) or milliseconds (long
    // documents). Holding the host's lock (one example), the caller reads no clock until STRIDE_START
    // calls, and then asks the host at once (a cheap look at a flag with the lock held): one short
    // example reads no clock at all, and a long one is polled as soon as it is known to be long. A
    // batch (the lock let go of: asking means taking it again) starts its POLL_MS period when it starts.
    static constexpr uint32_t STRIDE_START = 8, STRIDE_MAX = 32;
    static constexpr int TICK_US = 200;
    uint32_t countdown = STRIDE_START, stride = STRIDE_START;
    bool started = false;
    std::chrono::steady_clock::time_point next_poll{}, last_tick{};

    Poll() = default;
    Poll(Interrupt* i, bool is_caller, bool holds_gil) : in(i), caller(is_caller), gil_held(holds_gil) {
        if (caller && !gil_held) {
            started = true;
            last_tick = std::chrono::steady_clock::now();
            next_poll = last_tick + std::chrono::milliseconds(POLL_MS);
        }
    }

    // True when the work must stop. Cheap: the caller reads the clock every `stride` calls and asks
    // the host at most every POLL_MS milliseconds; the other threads only read `stop`.
    ROUGE_FORCE_INLINE bool stopped() {
        if (!in) return false;
        if (caller && --countdown == 0) tick();
        return in->stopped();
    }

    ROUGE_NOINLINE void tick() {
        const auto now = std::chrono::steady_clock::now();
        if (!started) {
            started = true;
            next_poll = now;  // poll now
        } else if (now - last_tick < std::chrono::microseconds(TICK_US)) {
            stride = stride < STRIDE_MAX ? stride * 2 : STRIDE_MAX;
        } else {
            stride = stride > 1 ? stride / 2 : 1;
        }
        countdown = stride;
        last_tick = now;
        if (now >= next_poll) {
            next_poll = now + std::chrono::milliseconds(POLL_MS);
            poll_signals();
        }
    }

    void poll_signals() {
        if (in->stopped() || !HOST.check_signals) return;
        if (HOST.check_signals(gil_held) < 0) in->stop.store(Interrupt::SIGNAL, std::memory_order_relaxed);
    }
};

inline void Interrupt::rethrow_if_stopped() {
    int s = stop.load();
    if (s == ERROR && error) std::rethrow_exception(error);
    if (s == SIGNAL) throw SignalRaised();
}

}  // namespace
}  // namespace rouge
