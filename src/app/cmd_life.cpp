// `flocklife life`: run a Life-like rule on a torus.
#include <cstdio>
#include <random>
#include <string>

#include <nlohmann/json.hpp>

#include "app/commands.hpp"
#include "app/window_life.hpp"
#include "app/window_options.hpp"
#include "common/device.hpp"
#include "common/errors.hpp"
#include "common/timer.hpp"
#include "life/engine.hpp"

namespace flocklife::app {

namespace {

struct LifeOptions {
  double density = -1;
  std::uint64_t seed = 1;
  std::string size = "256x256";
  std::string rule = "B3/S23";
  std::uint64_t gens = 100;
  std::string backend;
  std::string kernel;
  bool json = false;
  WindowOptions window;
};

std::pair<std::int64_t, std::int64_t> parseSize(const std::string& s) {
  const auto x = s.find_first_of("xX");
  try {
    if (x == std::string::npos) throw std::invalid_argument("");
    std::size_t n1 = 0, n2 = 0;
    const long long w = std::stoll(s.substr(0, x), &n1), h = std::stoll(s.substr(x + 1), &n2);
    if (n1 != x || n2 != s.size() - x - 1) throw std::invalid_argument("");
    if (w < 1 || h < 1) throw InputError("--size " + s + ": width and height must be at least 1");
    return {w, h};
  } catch (const std::logic_error&) {
    throw InputError("--size '" + s + "': expected WIDTHxHEIGHT, e.g. 256x256");
  }
}

void runLife(const LifeOptions& o) {
  const life::Rule rule = life::Rule::parse(o.rule);
  const auto [w, h] = parseSize(o.size);
  std::string why;
  const auto dev = usableDevice(&why);
  std::string backend = o.backend;
  if (backend.empty()) {
    backend = dev ? "cuda" : "cpu";
    if (!dev) std::fprintf(stderr, "flocklife: note: %s; using the CPU backend\n", why.c_str());
  }
  if (backend == "cuda" && !dev) throw InputError("--backend cuda: " + why);
  std::string kernel = o.kernel.empty() ? (backend == "cuda" ? "simple" : "cpu-serial") : o.kernel;

  life::World world(w, h);
  std::mt19937_64 rng(o.seed);
  std::bernoulli_distribution live(o.density < 0 ? 0.5 : o.density);
  for (auto& c : world.cells()) c = live(rng);

  validateWindowOptions(o.window);
#ifdef FLOCKLIFE_HAVE_WINDOW
  if (o.window.enabled()) {
    runLifeWindow(o.window, {rule, world, kernel, {}, 1, o.density < 0 ? 0.5 : o.density, o.seed,
                             dev && backend == "cuda" ? dev->index : -1});
    return;
  }
#endif
  auto engine = life::makeEngine(kernel, rule, {});
  engine->load(world);
  HostTimer t;
  engine->step(o.gens);
  engine->synchronize();
  const double seconds = t.elapsedSeconds();
  const life::World out = engine->world();
  const double cups = seconds > 0 ? double(out.cellCount()) * double(o.gens) / seconds : 0.0;
  std::printf("%s on %lldx%lld torus, %llu generations with %s (%s): population %llu, %.3f s, %.3g cell updates/s\n",
              rule.str().c_str(), (long long)w, (long long)h, (unsigned long long)o.gens, kernel.c_str(),
              backend.c_str(), (unsigned long long)out.population(), seconds, cups);
  if (o.json) {
    nlohmann::json j{{"generations", o.gens}, {"population", out.population()}, {"width", w}, {"height", h},
                     {"rule", rule.str()}, {"backend", backend}, {"kernel", kernel}, {"seconds", seconds},
                     {"cell_updates_per_second", cups}};
    std::printf("%s\n", j.dump().c_str());
  }
}

}  // namespace

void addLifeCommand(CLI::App& app) {
  auto opts = std::make_shared<LifeOptions>();
  auto* cmd = app.add_subcommand("life", "Run a Life-like cellular automaton on a torus");
  cmd->add_option("--random", opts->density, "Start from a random soup with this density of live cells");
  cmd->add_option("--seed", opts->seed, "Seed of the random soup");
  cmd->add_option("--size", opts->size, "World size WIDTHxHEIGHT");
  cmd->add_option("--rule", opts->rule, "Rule in B/S notation, e.g. B3/S23");
  cmd->add_option("--gens", opts->gens, "Generations to run");
  cmd->add_option("--backend", opts->backend, "cpu or cuda (default: cuda when a device is usable)")
      ->check(CLI::IsMember({"cpu", "cuda"}));
  cmd->add_option("--kernel", opts->kernel, "Kernel name");
  cmd->add_flag("--json", opts->json, "Print one JSON object as the last line");
  addWindowOptions(cmd, opts->window);
  cmd->callback([opts] { runLife(*opts); });
}

}  // namespace flocklife::app
