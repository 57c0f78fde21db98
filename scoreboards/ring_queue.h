// A FIFO on one growable power-of-two ring, for the scoreboards' per-cycle queues (expected
// payloads, send cycles). std::deque would allocate and free a block every few hundred pushes
// even at a constant length; this allocates only when the queue outgrows every length it has
// had before, which on a correct link (at most B + L flits in flight) happens in the first
// cycles and never again.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace creditloop {

template <typename T>
class RingQueue {
public:
    bool empty() const { return size_ == 0; }
    size_t size() const { return size_; }

    // i = 0 is the oldest entry.
    T& operator[](size_t i) { return items_[(head_ + i) & mask_]; }
    const T& operator[](size_t i) const { return items_[(head_ + i) & mask_]; }
    T& front() { return items_[head_]; }
    const T& front() const { return items_[head_]; }

    void push_back(const T& value) {
        if (size_ == items_.size()) grow();
        items_[(head_ + size_) & mask_] = value;
        ++size_;
    }
    void pop_front() {
        head_ = (head_ + 1) & mask_;
        --size_;
    }
    // Remove entry i, keeping the order of the rest (only off the passing path: O(size)).
    void erase(size_t i) {
        for (; i + 1 < size_; ++i) (*this)[i] = (*this)[i + 1];
        --size_;
    }
    void clear() { head_ = size_ = 0; }

private:
    void grow() {
        std::vector<T> bigger(items_.empty() ? 16 : items_.size() * 2);
        for (size_t i = 0; i < size_; ++i) bigger[i] = (*this)[i];
        items_ = std::move(bigger);
        mask_ = items_.size() - 1;
        head_ = 0;
    }

    std::vector<T> items_;
    size_t mask_ = 0;
    size_t head_ = 0;
    size_t size_ = 0;
};

}  // namespace creditloop
