// Linked into every test binary: SIGINT and SIGTERM start at their default action, whatever the
// process that ran the tests left them at. flocklife keeps a signal it inherits as ignored (a
// background job of a shell script inherits SIGINT so), and the tests that stop a run, a
// child's or an InterruptFlag in this process, send SIGINT and SIGTERM expecting them caught.
#include <csignal>

namespace {

const bool kDefaultStopSignals = [] {
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  return true;
}();

}  // namespace
