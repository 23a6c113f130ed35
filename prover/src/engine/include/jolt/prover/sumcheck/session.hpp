// ProofSession: typed state carried between pipeline stages (Jolt's ProofSession).
//
//   session.park(Stage1Openings{...});
//   auto& s1 = session.get<Stage1Openings>();      // throws if absent
//   auto taken = session.take<Stage1Openings>();   // moves it out
//
// One value per type. Not thread-safe; owned by one prove() call.
#pragma once
#include <any>
#include <stdexcept>
#include <string>
#include <typeindex>
#include <unordered_map>

namespace jolt::prover {

class ProofSession {
 public:
  template <class T>
  void park(T value) {
    slots_[std::type_index(typeid(T))] = std::move(value);
  }
  template <class T>
  T& get() {
    auto it = slots_.find(std::type_index(typeid(T)));
    if (it == slots_.end())
      throw std::logic_error(std::string("ProofSession: missing ") + typeid(T).name());
    return std::any_cast<T&>(it->second);
  }
  template <class T>
  T take() {
    T v = std::move(get<T>());
    slots_.erase(std::type_index(typeid(T)));
    return v;
  }
  template <class T>
  bool has() const {
    return slots_.count(std::type_index(typeid(T))) != 0;
  }

 private:
  std::unordered_map<std::type_index, std::any> slots_;
};

}  // namespace jolt::prover
