// flocklife: Reynolds boids and Life-like cellular automata on the GPU.
#include <CLI/CLI.hpp>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <new>
#include <string>

#include "app/cli_checks.hpp"
#include "app/commands.hpp"
#include "bench_commands.hpp"
#include "common/errors.hpp"
#include "git_commit.hpp"

int main(int argc, char** argv) {
  // A file-size limit (ulimit -f) reached by a write then fails it with EFBIG, which the output's
  // own check reports ("--out a.rle: write failed: File too large"), instead of SIGXFSZ ending the
  // process without a word and leaving its temporary file behind (found by a review).
  std::signal(SIGXFSZ, SIG_IGN);
  CLI::App app{"flocklife: Reynolds boids and Life-like cellular automata on the GPU"};
  app.require_subcommand(1);
  app.set_version_flag("--version",
                       "flocklife " FLOCKLIFE_VERSION " (commit " FLOCKLIFE_GIT_COMMIT ", " FLOCKLIFE_BUILD ")");
  // Usage errors start as every other error does ("flocklife: error: ..."), in plainer words than
  // CLI11 2.1's (rewordCli11Error).
  app.failure_message([&app, argc, argv](const CLI::App* a, const CLI::Error& e) {
    return "flocklife: error: " + flocklife::app::rewordCli11Error(CLI::FailureMessage::simple(a, e),
                                                                   flocklife::app::commandPath(app, argc, argv), argv);
  });
  flocklife::app::addLifeCommand(app);
  flocklife::app::addScanTestCommand(app);
  flocklife::app::addBoidsCommand(app);
  flocklife::bench::addBenchCommand(app);
  flocklife::app::addFpsBench(*app.get_subcommand("bench"));
  flocklife::app::decimalIntegers(app);
  flocklife::app::decimalFloats(app);
  flocklife::app::plainFlags(app);
  // Runs once every option is read, before the subcommand's callback runs the command.
  app.parse_complete_callback([&app] { flocklife::app::refuseRepeatedListItems(app); });
  try {
    flocklife::app::refuseUnknownCommand(app, argc, argv);
    flocklife::app::refuseEmptyValuesAfterEquals(argc, argv);
    flocklife::app::refuseEmptyListItems(app, argc, argv);
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // Prints the help (then checked as every output on stdout is, below), or the error naming the
    // option: every usage error exits 2, as InputError does.
    if (app.exit(e) != 0) return 2;
  } catch (const flocklife::InputError& e) {
    std::fprintf(stderr, "flocklife: error: %s\n", e.what());
    return 2;
  } catch (const flocklife::OutOfMemoryError& e) {
    std::fprintf(stderr, "flocklife: error: %s\n", e.what());
    return 3;
  } catch (const flocklife::Interrupted& e) {
    std::fprintf(stderr, "flocklife: %s\n", e.what());
    return 128 + e.signal;
  } catch (const std::bad_alloc& e) {
    // The up-front checks (requireHostMemory, requireDeviceMemory) count the largest arrays, not
    // every copy a run holds. Thrust's device allocation failures derive from std::bad_alloc too.
    // What to make smaller, by command ("bench fps life" is life's): "fewer boids" was said to a
    // Life run (a tester).
    const std::string command = flocklife::app::commandPath(app, argc, argv).apps.back()->get_name();
    const char* smaller = command == "life"    ? "a smaller world, pattern or window"
                          : command == "boids" ? "fewer boids or a smaller window"
                                               : "smaller sizes";
    std::fprintf(stderr, "flocklife: error: out of memory (%s); try %s\n", e.what(), smaller);
    return 3;
  } catch (const flocklife::CudaError& e) {
    std::fprintf(stderr, "flocklife: CUDA error: %s\n", e.what());
    return 4;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "flocklife: error: %s\n", e.what());
    return 1;
  }
  // Tables, JSON lines and CSV on stdout are results too: a full disk is an error (a closed pipe ends
  // the process with SIGPIPE first, as it does any Unix tool).
  errno = 0;
  std::cout.flush();
  const bool failed = std::cout.fail();
  if (failed | (std::fflush(stdout) != 0) | (std::ferror(stdout) != 0)) {
    std::fprintf(stderr, "flocklife: error: cannot write the standard output: %s\n",
                 errno ? std::strerror(errno) : "write error");
    return 2;
  }
  return 0;
}
