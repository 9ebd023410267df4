// SmallVector<T, N>: a vector whose first N elements live inside the object, so the short lists of every op
// (a shape, its strides, an iterator's operands) cost no heap allocation. ATen keeps the same lists in
// c10::SmallVector (DimVector holds 5 dims inline); without it x + y on 3 elements made 17 of its 22 mallocs
// inside TensorIter (issue 10). Past N elements it moves to the heap and behaves as std::vector.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace dc {

template <class T, size_t N>
class SmallVector {
  static_assert(N > 0, "SmallVector needs inline room for at least one element");
  static_assert(std::is_nothrow_move_constructible_v<T>, "elements are moved when the vector grows");

 public:
  using value_type = T;
  using size_type = size_t;
  using iterator = T*;
  using const_iterator = const T*;
  using reverse_iterator = std::reverse_iterator<T*>;
  using const_reverse_iterator = std::reverse_iterator<const T*>;

  // User-provided, so that value-initialisation (T(), emplace_back()) runs it rather than first zero-filling the
  // inline room: that `rep stos` was most of an iterator's set-up.
  SmallVector() noexcept {}
  explicit SmallVector(size_t n) { resize(n); }
  SmallVector(size_t n, const T& value) { assign(n, value); }
  SmallVector(std::initializer_list<T> list) { assign(list.begin(), list.end()); }
  template <class It, class = std::enable_if_t<!std::is_integral_v<It>>>
  SmallVector(It first, It last) { assign(first, last); }
  /// A std::vector converts both ways, implicitly: the two spell the same list, and code written against
  /// std::vector (broadcast_shapes' result, a saved shape) keeps working.
  SmallVector(const std::vector<T>& list) { assign(list.begin(), list.end()); }  // NOLINT: implicit
  operator std::vector<T>() const { return std::vector<T>(begin(), end()); }     // NOLINT: implicit
  SmallVector(const SmallVector& o) { assign(o.begin(), o.end()); }
  SmallVector(SmallVector&& o) noexcept { take(std::move(o)); }
  SmallVector& operator=(const SmallVector& o) {
    if (this != &o) assign(o.begin(), o.end());
    return *this;
  }
  SmallVector& operator=(SmallVector&& o) noexcept {
    if (this != &o) {
      clear();
      release_heap();
      take(std::move(o));
    }
    return *this;
  }
  ~SmallVector() {
    clear();
    release_heap();
  }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  size_t capacity() const { return capacity_; }
  T* data() { return data_; }
  const T* data() const { return data_; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  T& front() { return data_[0]; }
  const T& front() const { return data_[0]; }
  T& back() { return data_[size_ - 1]; }
  const T& back() const { return data_[size_ - 1]; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  reverse_iterator rbegin() { return reverse_iterator(end()); }
  reverse_iterator rend() { return reverse_iterator(begin()); }
  const_reverse_iterator rbegin() const { return const_reverse_iterator(end()); }
  const_reverse_iterator rend() const { return const_reverse_iterator(begin()); }

  void reserve(size_t n) {
    if (n > capacity_) grow_to(n);
  }
  void clear() {
    std::destroy(begin(), end());
    size_ = 0;
  }
  template <class... A>
  T& emplace_back(A&&... args) {
    if (size_ == capacity_) {
      T value(std::forward<A>(args)...);  // made first: the arguments may refer to this vector's elements
      grow_to(capacity_ * 2);
      return *::new (static_cast<void*>(data_ + size_++)) T(std::move(value));
    }
    return *::new (static_cast<void*>(data_ + size_++)) T(std::forward<A>(args)...);
  }
  void push_back(const T& v) { emplace_back(v); }
  void push_back(T&& v) { emplace_back(std::move(v)); }
  void pop_back() { std::destroy_at(data_ + --size_); }
  void resize(size_t n) { resize_with(n, [](T* p) { ::new (static_cast<void*>(p)) T(); }); }
  void resize(size_t n, const T& v) {
    const T value = v;  // v may be one of this vector's elements
    resize_with(n, [&](T* p) { ::new (static_cast<void*>(p)) T(value); });
  }
  void assign(size_t n, const T& v) {
    clear();
    resize(n, v);
  }
  template <class It, class = std::enable_if_t<!std::is_integral_v<It>>>
  void assign(It first, It last) {
    clear();
    reserve(size_t(std::distance(first, last)));
    for (; first != last; ++first) emplace_back(*first);
  }
  template <class It, class = std::enable_if_t<!std::is_integral_v<It>>>
  T* insert(const T* pos, It first, It last) {
    const size_t at = size_t(pos - data_), count = size_t(std::distance(first, last));
    SmallVector tail(std::make_move_iterator(begin() + at), std::make_move_iterator(end()));
    resize(at);
    reserve(at + count + tail.size());
    for (; first != last; ++first) emplace_back(*first);
    for (T& v : tail) emplace_back(std::move(v));
    return data_ + at;
  }
  T* insert(const T* pos, size_t count, const T& value) {
    const T copy = value;  // value may be one of this vector's elements
    const size_t at = size_t(pos - data_);
    SmallVector tail(std::make_move_iterator(begin() + at), std::make_move_iterator(end()));
    resize(at);
    resize(at + count, copy);
    for (T& v : tail) emplace_back(std::move(v));
    return data_ + at;
  }
  T* insert(const T* pos, const T& value) { return insert(pos, 1, value); }
  T* insert(const T* pos, std::initializer_list<T> list) { return insert(pos, list.begin(), list.end()); }
  T* erase(T* pos) {
    std::move(pos + 1, end(), pos);
    pop_back();
    return pos;
  }

  friend bool operator==(const SmallVector& a, const SmallVector& b) { return std::ranges::equal(a, b); }
  friend bool operator==(const SmallVector& a, const std::vector<T>& b) { return std::ranges::equal(a, b); }

 private:
  T* inline_data() { return std::launder(reinterpret_cast<T*>(inline_)); }
  bool on_heap() const { return data_ != reinterpret_cast<const T*>(inline_); }

  void grow_to(size_t n) {
    T* fresh = static_cast<T*>(::operator new(n * sizeof(T), std::align_val_t(alignof(T))));
    std::uninitialized_move(begin(), end(), fresh);
    std::destroy(begin(), end());
    release_heap();
    data_ = fresh;
    capacity_ = n;
  }
  void release_heap() {
    if (on_heap()) ::operator delete(data_, std::align_val_t(alignof(T)));
    data_ = inline_data();
    capacity_ = N;
  }
  /// Moves o's elements here (this is empty, inline); o is left empty.
  void take(SmallVector&& o) {
    if (o.on_heap()) {
      data_ = o.data_;
      capacity_ = o.capacity_;
      size_ = o.size_;
      o.data_ = o.inline_data();
      o.capacity_ = N;
      o.size_ = 0;
      return;
    }
    std::uninitialized_move(o.begin(), o.end(), data_);
    size_ = o.size_;
    o.clear();
  }
  template <class Make>
  void resize_with(size_t n, Make make) {
    if (n < size_) {
      std::destroy(begin() + n, end());
      size_ = n;
      return;
    }
    reserve(n);
    for (; size_ < n; ++size_) make(data_ + size_);
  }

  alignas(T) unsigned char inline_[N * sizeof(T)];
  T* data_ = inline_data();
  size_t size_ = 0;
  size_t capacity_ = N;
};

/// A list of dims (sizes, strides, a permutation): 5 inline, as ATen's DimVector.
using DimVector = SmallVector<int64_t, 5>;

}  // namespace dc
