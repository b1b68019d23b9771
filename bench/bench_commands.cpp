#include "bench_commands.hpp"

#include "bench_scan.hpp"
#include "bench_life.hpp"
#include "bench_boids.hpp"

namespace flocklife::bench {

void addBenchCommand(CLI::App& app) {
  auto* bench = app.add_subcommand("bench", "Benchmarks: sweeps written as CSV plus a table on the terminal");
  bench->require_subcommand(1);
  addScanBench(*bench);
  addLifeBenchCommand(*bench);
  addBoidsBench(*bench);
}

}  // namespace flocklife::bench
