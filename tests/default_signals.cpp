// Linked into every test binary: SIGINT, SIGTERM and SIGPIPE start at their default action,
// whatever the process that ran the tests left them at. flocklife keeps a signal it inherits as
// ignored (a background job of a shell script inherits SIGINT so), and handles SIGPIPE only at its
// default action; the tests that stop a run, a child's or an InterruptFlag in this process, send
// SIGINT and SIGTERM expecting them caught, and one breaks a run's pipe expecting SIGPIPE.
#include <csignal>

namespace {

const bool kDefaultStopSignals = [] {
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  std::signal(SIGPIPE, SIG_DFL);
  return true;
}();

}  // namespace
