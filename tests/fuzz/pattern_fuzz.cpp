/// @file pattern_fuzz.cpp
/// libFuzzer target for the Life pattern readers (https://llvm.org/docs/LibFuzzer.html).
/// Each input is read both as RLE and as plaintext .cells. Any exception other than InputError /
/// OutOfMemoryError is a bug (abort), as is any crash, hang or sanitizer report. A pattern that
/// parses is placed on its torus, written back as RLE and read again: the world must come back
/// unchanged (writer and reader agree on every cell, the rule and the size).
/// Built and run by scripts/fuzz.sh. Host memory is capped at 16 MiB with
/// FLOCKLIFE_HOST_MEMORY_LIMIT, so a header declaring a big world is refused by
/// requireHostMemory with a message: the first 11-minute run found that a 90-byte file declaring
/// x = 16553623, y = 13 (a legal 215 MB pattern) took over 10 s under ASan to allocate and clear
/// (tests/fuzz/regressions/huge-width-pulsar.rle, pinned in tests/life/pattern_test.cpp).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

#include "common/errors.hpp"
#include "life/pattern.hpp"

namespace {

using namespace flocklife;
using namespace flocklife::life;

/// Worlds up to this many cells are round-tripped (bigger ones only parsed: keeps runs fast).
constexpr std::uint64_t kRoundTripCells = std::uint64_t(1) << 20;

void roundTrip(const Pattern& p) {
  std::pair<std::int64_t, std::int64_t> size;
  try {
    size = defaultWorldSize(p, "fuzz");
  } catch (const InputError&) {
    return;  // empty pattern without a torus: refused with a message, as intended
  }
  if (std::uint64_t(size.first) * std::uint64_t(size.second) > kRoundTripCells) return;
  World w;
  try {
    w = placePattern(p, size.first, size.second);
  } catch (const InputError&) {
    return;  // pattern larger than its :T torus: refused with a message
  }
  const Rule rule = p.rule.value_or(Rule{});
  std::ostringstream out;
  writeRle(out, w, rule);
  std::istringstream in(out.str());
  const Pattern q = parseRle(in, "fuzz round trip");  // must not throw: we wrote it
  if (!q.torus || q.torus->first != size.first || q.torus->second != size.second) std::abort();
  if (!q.rule || q.rule->str() != rule.str()) std::abort();
  if (placePattern(q, size.first, size.second) != w) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  setenv("FLOCKLIFE_HOST_MEMORY_LIMIT", "16777216", 0);  // 16 MiB unless the caller set one
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  for (int format = 0; format < 2; ++format) {
    std::istringstream in(text);
    try {
      const Pattern p = format == 0 ? parseRle(in, "fuzz.rle") : parseCells(in, "fuzz.cells");
      if (p.cells.size() != std::uint64_t(p.width) * std::uint64_t(p.height)) std::abort();
      roundTrip(p);
    } catch (const InputError&) {
    } catch (const OutOfMemoryError&) {
    }
  }
  return 0;
}
