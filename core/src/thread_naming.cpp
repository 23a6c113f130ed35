// TBB worker naming for trace thread tracks.
#include "jolt/core/thread_naming.hpp"

#include <string>

#include <jolt/instrument.hpp>

namespace jolt::core {

TbbThreadNamer::TbbThreadNamer() {
  observe(true);
}
TbbThreadNamer::~TbbThreadNamer() {
  observe(false);
}

void TbbThreadNamer::on_scheduler_entry(bool is_worker) {
  if (!is_worker) return;
  thread_local bool named = false;
  if (named) return;
  named = true;
  jolt::set_current_thread_name("tbb-worker-" + std::to_string(next_.fetch_add(1)));
}

}  // namespace jolt::core
