// Every Life kernel of this build against the serial oracle (cpu-serial), cell for cell, on tori
// from 1x1 to 4096x4096, for Life-like rules with and without B0, after 1, 2 and 17 generations
// (stepped 1 + 1 + 15 on the same engine, so ping-pong parity and repeated step() calls are
// covered). GPU kernels skip without a device. Oracles are computed once and shared by kernels.
#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <map>
#include <sstream>
#include <tuple>

#include "common/memory.hpp"
#include "gpu_test.hpp"
#include "param_name.hpp"
#include "life/engine.hpp"
#include "life/pattern.hpp"

namespace flocklife::life {

namespace {

struct Size {
  std::int64_t w, h;
};
const Size kSizes[] = {{1, 1}, {1, 64}, {64, 1}, {7, 13}, {31, 33}, {63, 65}, {127, 129}, {1000, 999}, {4096, 4096}};
const char* const kRuleTexts[] = {"B3/S23", "B36/S23", "B3678/S34678", "B2/S", "B0123478/S01234678", "B0/S8"};
const std::uint64_t kSteps[] = {1, 1, 15};  // generations 1, 2, 17

bool isLarge(const Size& s) { return s.w * s.h > 2'000'000; }

/// Start world and the oracle after each entry of kSteps, for (size index, rule index).
struct Oracle {
  World start;
  std::vector<World> after;
};
const Oracle& oracle(int sizeIndex, int ruleIndex) {
  static std::map<std::pair<int, int>, Oracle> cache;
  auto it = cache.find({sizeIndex, ruleIndex});
  if (it != cache.end()) return it->second;
  Oracle o;
  o.start = randomSoup(kSizes[sizeIndex].w, kSizes[sizeIndex].h, 0.5, 1000 + 17 * sizeIndex);
  auto serial = makeEngine("cpu-serial", Rule::parse(kRuleTexts[ruleIndex]));
  serial->load(o.start);
  for (std::uint64_t g : kSteps) {
    serial->step(g);
    o.after.push_back(serial->world());
  }
  return cache.emplace(std::make_pair(sizeIndex, ruleIndex), std::move(o)).first->second;
}

/// "" when equal, else where the first difference is.
std::string firstDifference(const World& got, const World& want) {
  if (got.width() != want.width() || got.height() != want.height())
    return "size " + std::to_string(got.width()) + "x" + std::to_string(got.height());
  for (std::int64_t y = 0; y < want.height(); ++y)
    for (std::int64_t x = 0; x < want.width(); ++x)
      if (got.at(x, y) != want.at(x, y)) {
        std::ostringstream s;
        s << "first difference at (" << x << "," << y << "): got " << int(got.at(x, y)) << ", want " << int(want.at(x, y));
        return s.str();
      }
  return "";
}

bool isGpu(const std::string& name) {
  for (const auto& k : availableKernels())
    if (k.name == name) return k.backend == Backend::Cuda;
  return false;
}

std::vector<std::string> kernelsUnderTest() {
  std::vector<std::string> names;
  for (const auto& k : availableKernels())
    if (k.name != "cpu-serial") names.push_back(k.name);
  return names;
}

void checkKernel(const std::string& name, int sizeIndex, const KernelParams& params = {}, bool allRules = true) {
  const Size s = kSizes[sizeIndex];
  const int rules = allRules && !isLarge(s) ? int(std::size(kRuleTexts)) : 1;
  for (int r = 0; r < rules; ++r) {
    const Oracle& o = oracle(sizeIndex, r);
    auto engine = makeEngine(name, Rule::parse(kRuleTexts[r]), params);
    engine->load(o.start);
    std::uint64_t gens = 0;
    for (std::size_t i = 0; i < std::size(kSteps); ++i) {
      engine->step(kSteps[i]);
      gens += kSteps[i];
      const std::string diff = firstDifference(engine->world(), o.after[i]);
      EXPECT_EQ(diff, "") << name << " " << s.w << "x" << s.h << " " << kRuleTexts[r] << " generation " << gens;
      if (!diff.empty()) break;
    }
  }
}

}  // namespace

class KernelVsOracle : public ::testing::TestWithParam<std::tuple<std::string, int>> {};

TEST_P(KernelVsOracle, MatchesCpuSerialCellForCell) {
  const auto& [name, sizeIndex] = GetParam();
  if (isGpu(name) && !test::haveGpu()) GTEST_SKIP() << "no CUDA device";
  checkKernel(name, sizeIndex);
}

INSTANTIATE_TEST_SUITE_P(Life, KernelVsOracle,
                         ::testing::Combine(::testing::ValuesIn(kernelsUnderTest()),
                                            ::testing::Range(0, int(std::size(kSizes)))),
                         [](const auto& info) {
                           const Size z = kSizes[std::get<1>(info.param)];
                           return test::paramName(std::get<0>(info.param)) + "_" + std::to_string(z.w) + "x" +
                                  std::to_string(z.h);
                         });

/// Thread-mapping parameters change which thread touches which word; results must not change.
class KernelParamsVsOracle : public ::testing::TestWithParam<std::string> {};

TEST_P(KernelParamsVsOracle, EveryParameterSettingMatchesCpuSerial) {
  const std::string& name = GetParam();
  if (isGpu(name) && !test::haveGpu()) GTEST_SKIP() << "no CUDA device";
  std::vector<KernelParams> settings;
  if (isGpu(name)) {
    for (int tpb : {32, 96, 1024})
      for (int cpt : {1, 3, 16}) {
        KernelParams p;
        p.threadsPerBlock = tpb;
        p.cellsPerThread = cpt;
        settings.push_back(p);
      }
  } else {
    for (int threads : {1, 3}) {
      KernelParams p;
      p.threads = threads;
      settings.push_back(p);
    }
  }
  for (const auto& p : settings)
    for (int sizeIndex : {3, 6, 7}) {  // 7x13, 127x129, 1000x999
      SCOPED_TRACE("threadsPerBlock " + std::to_string(p.threadsPerBlock) + " cellsPerThread " +
                   std::to_string(p.cellsPerThread) + " threads " + std::to_string(p.threads));
      checkKernel(name, sizeIndex, p, /*allRules=*/false);
    }
}

TEST_P(KernelParamsVsOracle, ReloadingAnotherWorldStartsAfresh) {
  const std::string& name = GetParam();
  if (isGpu(name) && !test::haveGpu()) GTEST_SKIP() << "no CUDA device";
  auto engine = makeEngine(name, kConway);
  engine->load(oracle(6, 0).start);
  engine->step(3);
  const Oracle& o = oracle(4, 0);  // a different size
  engine->load(o.start);
  engine->step(1);
  EXPECT_EQ(firstDifference(engine->world(), o.after[0]), "");
  EXPECT_GT(engine->stateBytes(), 0u);
}

/// The kernels of issue 3 whose parameters are swept (others may accept other ranges).
std::vector<std::string> sweptKernels() {
  const std::vector<std::string> mine{"cpu-bitcount", "cpu-lut6x3", "cpu-bitsliced", "simple", "simple-lut", "bitcount",
                                      "bitcount32",   "lut6x3",     "packet64",      "tiled",      "tiled-inplace"};
  std::vector<std::string> out;
  for (const auto& k : kernelsUnderTest())
    if (std::find(mine.begin(), mine.end(), k) != mine.end()) out.push_back(k);
  return out;
}

INSTANTIATE_TEST_SUITE_P(Life, KernelParamsVsOracle, ::testing::ValuesIn(sweptKernels()), test::nameOfParam);

/// 64-bit indexing: a torus just above 2^32 cells (65537 x 65536, odd width so the bit-per-cell
/// seam is partial), 2 generations; every GPU kernel must give exactly what `simple` gives (itself
/// checked against cpu-serial above; the serial oracle would take minutes at this size).
class LargeWorld : public test::GpuTest {};

TEST_F(LargeWorld, AboveTwoToThe32CellsEveryGpuKernelAgreesWithSimple) {
  const std::int64_t w = 65537, h = 65536;
  const std::uint64_t cells = std::uint64_t(w) * std::uint64_t(h);
  const auto dev = usableDevice();
  if (!dev || dev->freeBytes < 3 * cells) GTEST_SKIP() << "needs about " << 3 * cells / (1 << 30) << " GiB of free device memory";
  if (availableHostBytes() != 0 && availableHostBytes() < 4 * cells) GTEST_SKIP() << "needs about 17 GiB of host memory";
  const World start = randomSoup(w, h, 0.5, 12345);
  World reference;
  {
    auto simple = makeEngine("simple", kConway);
    simple->load(start);
    simple->step(2);
    reference = simple->world();
  }
  for (const auto& k : availableKernels()) {
    if (k.backend != Backend::Cuda || k.name == "simple") continue;
    auto e = makeEngine(k.name, kConway);
    e->load(start);
    e->step(2);
    const World got = e->world();
    EXPECT_TRUE(got == reference) << k.name << ": " << firstDifference(got, reference);
  }
}

class TiledInplaceMemory : public test::GpuTest {};

TEST_F(TiledInplaceMemory, HoldsLessStateThanAPingPongPair) {
  const World w = randomSoup(1024, 1024, 0.5, 5);
  auto inplace = makeEngine("tiled-inplace", kConway), tiled = makeEngine("tiled", kConway);
  inplace->load(w);
  tiled->load(w);
  EXPECT_EQ(tiled->stateBytes(), 2u * w.cellCount());
  EXPECT_LT(inplace->stateBytes(), w.cellCount() * 5 / 4);  // cells + 12.5 % staging with 32x32 tiles
  EXPECT_GT(inplace->stateBytes(), w.cellCount());
}

}  // namespace flocklife::life
