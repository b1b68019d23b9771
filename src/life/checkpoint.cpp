#include "life/checkpoint.hpp"

#include <cstdint>

#include "common/checkpoint_io.hpp"
#include "common/errors.hpp"

namespace flocklife::life {

namespace {
void writeHeader(RecordWriter& w, std::uint64_t width, std::uint64_t height, std::uint64_t generation,
                 const Rule& rule, std::uint64_t start) {
  w.u64(width);
  w.u64(height);
  w.u64(generation);
  w.u64(start);
  w.str(rule.str());
}

/// Calls f(byte) for each byte of the world's cells packed 8 per byte, cell i (row-major) in bit
/// i%8 of byte i/8, unused high bits 0.
template <class F>
void forEachPackedByte(const World& world, F&& f) {
  const auto& cells = world.cells();
  for (std::size_t i = 0; i < cells.size(); i += 8) {
    unsigned char byte = 0;
    for (std::size_t b = 0; b < 8 && i + b < cells.size(); ++b)
      if (cells[i + b]) byte = static_cast<unsigned char>(byte | (1u << b));
    f(byte);
  }
}

/// The world's cells packed as forEachPackedByte gives them.
std::string packCells(const World& world) {
  std::string packed;
  packed.reserve((world.cells().size() + 7) / 8);
  forEachPackedByte(world, [&packed](unsigned char byte) { packed.push_back(char(byte)); });
  return packed;
}
}  // namespace

std::string checkpointHeader(std::uint64_t width, std::uint64_t height, std::uint64_t generation, const Rule& rule,
                             std::uint64_t start) {
  RecordWriter w(kLifeCheckpointMagic);
  writeHeader(w, width, height, generation, rule, start);
  return w.contents();
}

std::uint64_t startDigest(const World& w) {
  // The packed bytes hashed 64 KiB at a time: no second copy of a large world.
  std::uint64_t h = kFnv1a64Basis;
  unsigned char chunk[1 << 16];
  std::size_t used = 0;
  forEachPackedByte(w, [&](unsigned char byte) {
    chunk[used++] = byte;
    if (used == sizeof chunk) h = fnv1a64(chunk, used, h), used = 0;
  });
  return fnv1a64(chunk, used, h);
}

std::string encodeCheckpoint(const LifeCheckpoint& c) {
  RecordWriter w(kLifeCheckpointMagic);
  writeHeader(w, std::uint64_t(c.world.width()), std::uint64_t(c.world.height()), c.generation, c.rule, c.start);
  w.bytes(packCells(c.world));
  return w.finish();
}

LifeCheckpoint decodeCheckpoint(std::string bytes, const std::string& path) {
  RecordReader r(std::move(bytes), kLifeCheckpointMagic, path, "flocklife life");
  const std::uint64_t width = r.u64(), height = r.u64();
  if (width < 1 || height < 1 || width > kMaxCells || height > kMaxCells || width > kMaxCells / height)
    r.fail("world size " + std::to_string(width) + "x" + std::to_string(height) +
           " out of range; expected width, height >= 1 and at most 2^40 cells");
  LifeCheckpoint c;
  c.generation = r.u64();
  if (c.generation > std::uint64_t(INT64_MAX))  // --gens, the generation to reach, stops there
    r.fail("generation " + std::to_string(c.generation) + " out of range; expected at most 2^63 - 1");
  c.start = r.u64();
  const std::string rule = r.str(64);
  try {
    c.rule = Rule::parse(rule);
  } catch (const InputError& e) {
    r.fail(std::string("invalid rule: ") + e.what());
  }
  const std::uint64_t n = width * height;
  if ((n + 7) / 8 != r.remaining())
    r.fail("a " + std::to_string(width) + "x" + std::to_string(height) + " world needs " + std::to_string((n + 7) / 8) +
           " bytes of cells, the file has " + std::to_string(r.remaining()));
  const std::string packed = r.bytes((n + 7) / 8);
  r.expectEnd();
  if (n % 8 != 0 && (static_cast<unsigned char>(packed.back()) >> (n % 8)) != 0)
    r.fail("padding bits after the last cell are set: the file is corrupt");
  c.world = World(std::int64_t(width), std::int64_t(height));
  auto& cells = c.world.cells();
  for (std::uint64_t i = 0; i < n; ++i) cells[i] = (static_cast<unsigned char>(packed[i / 8]) >> (i % 8)) & 1u;
  return c;
}

void saveCheckpoint(const std::string& path, const LifeCheckpoint& c) { writeFileAtomically(path, encodeCheckpoint(c), "--checkpoint"); }

LifeCheckpoint loadCheckpoint(const std::string& path) { return decodeCheckpoint(readWholeFile(path, kLifeCheckpointMagic), path); }

}  // namespace flocklife::life
