// flocklife: Reynolds boids and Life-like cellular automata on the GPU.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <iterator>
#include <new>
#include <sstream>
#include <string>
#include <vector>

#include "app/cli_checks.hpp"
#include "app/commands.hpp"
#include "bench_commands.hpp"
#include "common/errors.hpp"

int main(int argc, char** argv) {
  CLI::App app{"flocklife: Reynolds boids and Life-like cellular automata on the GPU"};
  app.require_subcommand(1);
  // Usage errors start as every other error does ("flocklife: error: ..."), then CLI11's hint.
  // CLI11 2.1 words a flag given twice "--gens: At Most 1 required but received 2": said plainly.
  // It lists unexpected words last first (ExtrasError joins them with rjoin): put back in order.
  // Its closing "Run with --help" names the command whose --help lists the options meant.
  app.failure_message([&app, argc, argv](const CLI::App* a, const CLI::Error& e) {
    std::string message = CLI::FailureMessage::simple(a, e);
    for (const std::string lead :
         {"The following arguments were not expected: ", "The following argument was not expected: "}) {
      const std::size_t at = message.find(lead);
      if (at == std::string::npos) continue;
      const std::size_t start = at + lead.size(), end = std::min(message.find('\n', start), message.size());
      std::istringstream words(message.substr(start, end - start));
      std::vector<std::string> given{std::istream_iterator<std::string>(words), {}};
      std::string inOrder;
      for (auto w = given.rbegin(); w != given.rend(); ++w) inOrder += (inOrder.empty() ? "" : " ") + *w;
      message.replace(start, end - start, inOrder);
    }
    const std::string atMostOnce = "At Most 1 required but received ";
    if (const std::size_t at = message.find(atMostOnce); at != std::string::npos) {
      const std::size_t end = message.find_first_not_of("0123456789", at + atMostOnce.size());
      message.replace(at, end - at,
                      "given " + message.substr(at + atMostOnce.size(), end - at - atMostOnce.size()) +
                          " times; expected it once");
    }
    const flocklife::app::CommandPath path = flocklife::app::commandPath(app, argc, argv);
    std::string command = "flocklife";
    for (int i = 1; i < path.next; ++i) command += std::string(" ") + argv[i];
    const std::string runWith = "Run with --help for more information.";
    if (const std::size_t at = message.find(runWith); at != std::string::npos)
      message.replace(at, runWith.size(), "Run '" + command + " --help' to list its options.");
    return "flocklife: error: " + message;
  });
  flocklife::app::addLifeCommand(app);
  flocklife::app::addScanTestCommand(app);
  flocklife::app::addBoidsCommand(app);
  flocklife::bench::addBenchCommand(app);
  flocklife::app::addFpsBench(*app.get_subcommand("bench"));
  flocklife::app::decimalIntegers(app);
  // Runs once every option is read, before the subcommand's callback runs the command.
  app.parse_complete_callback([&app] { flocklife::app::refuseRepeatedListItems(app); });
  try {
    flocklife::app::refuseUnknownCommand(app, argc, argv);
    flocklife::app::refuseEmptyValuesAfterEquals(argc, argv);
    flocklife::app::refuseEmptyListItems(app, argc, argv);
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int status = app.exit(e);  // prints help, or the error naming the option
    return status == 0 ? 0 : 2;      // every usage error exits 2, as InputError does
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
    std::fprintf(stderr, "flocklife: error: out of memory (%s); try fewer boids or a smaller world\n", e.what());
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
