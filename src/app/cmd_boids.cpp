// `flocklife boids`: run a boids simulation with any method, optionally from / to a CSV state.
#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>

#include "app/commands.hpp"
#include "app/window_options.hpp"
#ifdef FLOCKLIFE_HAVE_WINDOW
#include "app/window_boids_sim.hpp"
#endif
#include "boids/boids.hpp"
#include "common/device.hpp"
#include "common/errors.hpp"
#include "common/timer.hpp"

namespace flocklife::app {

namespace {

struct BoidsOptions {
  long long n = 5000;
  std::string method;
  std::uint64_t steps = 100;
  std::uint64_t seed = 1;
  std::string backend;
  bool json = false;
  std::string out, in;
  boids::Params params;
  boids::Tuning tuning;
  const CLI::Option* nOption = nullptr;
  WindowOptions window;
};

void runBoids(const BoidsOptions& o) {
  boids::validate(o.params);
  boids::validate(o.tuning);
  if (o.in.empty()) boids::validateCount(o.n);
  else if (o.nOption->count())
    throw InputError("--n and --in: give one of them (the number of boids comes from the file)");

  std::string why;
  const auto dev = usableDevice(&why);
  std::string backend = o.backend;
  if (backend.empty() && !o.method.empty()) {
    for (const auto& m : boids::availableMethods())
      if (m.name == o.method) backend = m.backend == boids::Backend::Cuda ? "cuda" : "cpu";
  }
  if (backend.empty()) {
    backend = dev ? "cuda" : "cpu";
    if (!dev) std::fprintf(stderr, "flocklife: note: %s; using the CPU backend\n", why.c_str());
  }
  if (backend == "cuda" && !dev)
    throw InputError((o.backend.empty() ? "--method " + o.method + " needs a CUDA device: " : "--backend cuda: ") + why);
  const std::string method = o.method.empty() ? (backend == "cuda" ? "counting" : "cpu-grid") : o.method;
  auto sim = boids::makeSimulation(method, o.params, o.tuning);
  const bool methodOnCuda = sim->info().backend == boids::Backend::Cuda;
  if (methodOnCuda != (backend == "cuda"))
    throw InputError("--method " + method + " runs on " + (methodOnCuda ? "cuda" : "cpu") + ", but --backend is " +
                     backend);

  boids::State start;
  if (o.in.empty()) {
    start = boids::randomState(std::size_t(o.n), o.params, o.seed);
  } else {
    start = boids::readCsv(o.in);
    boids::checkFits(start, o.params, "--in " + o.in);
  }
  validateWindowOptions(o.window);
#ifdef FLOCKLIFE_HAVE_WINDOW
  if (o.window.enabled()) {
    SimulationBoidsSource source(method, o.params, o.tuning, start, o.seed);
    runBoidsWindow(o.window, source, methodOnCuda && dev ? dev->index : -1);
    return;
  }
#endif
  sim->load(start);
  sim->synchronize();
  HostTimer t;
  sim->step(o.steps);
  sim->synchronize();
  const double seconds = t.elapsedSeconds();
  const double stepsPerSecond = seconds > 0 ? double(o.steps) / seconds : 0.0;
  const std::size_t n = sim->numBoids();
  std::printf("%zu boids, %llu steps with %s (%s%s): %.3f s, %.1f steps/s, %.3g boid updates/s\n", n,
              (unsigned long long)o.steps, method.c_str(), backend.c_str(), o.params.periodic ? ", periodic" : "",
              seconds, stepsPerSecond, stepsPerSecond * double(n));
  if (!o.out.empty()) boids::writeCsv(o.out, sim->state());
  if (o.json) {
    nlohmann::json j{{"n", n},
                     {"method", method},
                     {"backend", backend},
                     {"steps", o.steps},
                     {"seconds", seconds},
                     {"steps_per_second", stepsPerSecond},
                     {"periodic", o.params.periodic},
                     {"scale", o.params.scale},
                     {"cell_width", o.tuning.cellWidth},
                     {"block_size", o.tuning.blockSize}};
    std::printf("%s\n", j.dump().c_str());
  }
}

}  // namespace

void addBoidsCommand(CLI::App& app) {
  auto o = std::make_shared<BoidsOptions>();
  auto* cmd = app.add_subcommand("boids", "Run a Reynolds boids simulation");
  std::string methods;
  for (const auto& m : boids::availableMethods()) methods += (methods.empty() ? "" : ", ") + m.name;
  o->nOption = cmd->add_option("--n", o->n, "Number of boids (random start; default 5000)");
  cmd->add_option("--method", o->method, "Method: " + methods + " (default: counting on cuda, cpu-grid on cpu)");
  cmd->add_option("--steps", o->steps, "Steps to run");
  cmd->add_option("--seed", o->seed, "Seed of the random start");
  cmd->add_option("--backend", o->backend, "cpu or cuda (default: cuda when a device is usable)")
      ->check(CLI::IsMember({"cpu", "cuda"}));
  cmd->add_option("--cell-width", o->tuning.cellWidth, "Grid cell width as a multiple of the largest rule distance");
  cmd->add_option("--block-size", o->tuning.blockSize, "CUDA threads per block (multiple of 32, <= 1024)");
  cmd->add_flag("--thrust-gather", o->tuning.thrustGather, "coherent-gather: reshuffle with thrust::gather");
  cmd->add_flag("--periodic", o->params.periodic, "Neighbourhoods wrap across the cube's faces");
  cmd->add_option("--scale", o->params.scale, "Half the side of the cube [-scale, scale]^3");
  cmd->add_option("--rule1-distance", o->params.rule1Distance, "Cohesion radius");
  cmd->add_option("--rule2-distance", o->params.rule2Distance, "Separation radius");
  cmd->add_option("--rule3-distance", o->params.rule3Distance, "Alignment radius");
  cmd->add_option("--rule1-scale", o->params.rule1Scale, "Cohesion strength");
  cmd->add_option("--rule2-scale", o->params.rule2Scale, "Separation strength");
  cmd->add_option("--rule3-scale", o->params.rule3Scale, "Alignment strength");
  cmd->add_option("--max-speed", o->params.maxSpeed, "Maximum speed (world units per time unit)");
  cmd->add_option("--dt", o->params.dt, "Time step");
  cmd->add_option("--out", o->out, "Write the final state as CSV x,y,z,vx,vy,vz");
  cmd->add_option("--in", o->in, "Start from a CSV state x,y,z,vx,vy,vz (header line first)");
  cmd->add_flag("--json", o->json, "Print one JSON object as the last line");
  addWindowOptions(cmd, o->window);
  cmd->callback([o] { runBoids(*o); });
}

}  // namespace flocklife::app
