#include "boids/checkpoint.hpp"

#include <cstdint>
#include <cstring>
#include <string>

#include "common/checkpoint_io.hpp"
#include "common/errors.hpp"
#include "common/memory.hpp"

namespace flocklife::boids {

namespace {
void writeHeader(RecordWriter& w, const Params& p, std::uint64_t n, std::uint64_t step, std::uint64_t start) {
  w.u64(step);
  w.u64(start);
  for (float v : {p.scale, p.rule1Distance, p.rule2Distance, p.rule3Distance, p.rule1Scale, p.rule2Scale, p.rule3Scale,
                  p.maxSpeed, p.dt})
    w.f32(v);
  w.u8(p.periodic ? 1 : 0);
  w.u64(n);
}
}  // namespace

std::string checkpointHeader(const Params& params, std::uint64_t n, std::uint64_t step, std::uint64_t start) {
  RecordWriter w(kBoidsCheckpointMagic);
  writeHeader(w, params, n, step, start);
  return w.contents();
}

std::uint64_t startDigest(const State& s) {
  std::uint64_t h = kFnv1a64Basis;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const Vec3 a = s.pos[i], v = s.vel[i];
    unsigned char bytes[24];
    int k = 0;
    for (float f : {a.x, a.y, a.z, v.x, v.y, v.z}) {
      std::uint32_t bits = 0;
      std::memcpy(&bits, &f, 4);
      for (int b = 0; b < 4; ++b) bytes[k++] = static_cast<unsigned char>(bits >> (8 * b));
    }
    h = fnv1a64(bytes, sizeof bytes, h);
  }
  return h;
}

std::string encodeCheckpoint(const BoidsCheckpoint& c) {
  RecordWriter w(kBoidsCheckpointMagic);
  writeHeader(w, c.params, c.state.size(), c.step, c.start);
  for (std::size_t i = 0; i < c.state.size(); ++i) {
    const Vec3 a = c.state.pos[i], v = c.state.vel[i];
    for (float f : {a.x, a.y, a.z, v.x, v.y, v.z}) w.f32(f);
  }
  return w.finish();
}

BoidsCheckpoint decodeCheckpoint(std::string bytes, const std::string& path) {
  RecordReader r(std::move(bytes), kBoidsCheckpointMagic, path, "flocklife boids");
  BoidsCheckpoint c;
  c.step = r.u64();
  // As a Life checkpoint's generation: --steps, an int64, could never reach a larger step.
  if (c.step > std::uint64_t(INT64_MAX))
    r.fail("step " + std::to_string(c.step) + " out of range; expected at most 2^63 - 1");
  c.start = r.u64();
  Params& p = c.params;
  for (float* f : {&p.scale, &p.rule1Distance, &p.rule2Distance, &p.rule3Distance, &p.rule1Scale, &p.rule2Scale,
                   &p.rule3Scale, &p.maxSpeed, &p.dt})
    *f = r.f32();
  const std::uint8_t periodic = r.u8();
  if (periodic > 1) r.fail("periodic flag " + std::to_string(periodic) + "; expected 0 or 1");
  p.periodic = periodic == 1;
  try {
    validate(p);
  } catch (const InputError& e) {
    r.fail(std::string("invalid parameters: ") + e.what());
  }
  const std::uint64_t n = r.u64();
  if (n < 1 || n > 2147483647ull) r.fail("boid count " + std::to_string(n) + "; expected 1 to 2^31 - 1");
  if (n * 24 != r.remaining())
    r.fail("boid count " + std::to_string(n) + " needs " + std::to_string(n * 24) + " bytes of boids, the file has " +
           std::to_string(r.remaining()));
  requireHostMemory(n * 2 * sizeof(Vec3), "checkpoint '" + path + "': " + std::to_string(n) + " boids");
  c.state.pos.resize(n);
  c.state.vel.resize(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    Vec3& a = c.state.pos[i];
    Vec3& v = c.state.vel[i];
    for (float* f : {&a.x, &a.y, &a.z, &v.x, &v.y, &v.z}) *f = r.f32();
  }
  r.expectEnd();
  try {
    checkFits(c.state, p, "the boids and parameters it holds");
  } catch (const InputError& e) {
    r.fail(e.what());
  }
  return c;
}

void saveCheckpoint(const std::string& path, const BoidsCheckpoint& c) { writeFileAtomically(path, encodeCheckpoint(c), "--checkpoint"); }

BoidsCheckpoint loadCheckpoint(const std::string& path) { return decodeCheckpoint(readWholeFile(path, kBoidsCheckpointMagic), path); }

}  // namespace flocklife::boids
