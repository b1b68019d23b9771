#pragma once
/// @file checkpoint.hpp
/// Boids checkpoints (`flocklife boids --checkpoint FILE --every K`, `--resume FILE`): the
/// model parameters, the step count and every boid's position and velocity, floats stored by
/// their IEEE-754 bits so that a resumed run continues bit-exactly. Written atomically (OutputFile).
///
/// Layout (little-endian): magic "FLBOID02"; step (u64); start digest (u64, startDigest of the
/// run's first state, carried over by --resume); Params as 9 f32 (scale, rule1..3
/// distance, rule1..3 scale, maxSpeed, dt) and periodic (u8); n (u64, 1 <= n <= 2^31 - 1);
/// n x 6 f32 (x, y, z, vx, vy, vz per boid, in the original boid order); FNV-1a-64 of all
/// preceding bytes.
#include <cstdint>
#include <string>

#include "boids/boids.hpp"

namespace flocklife::boids {

/// Byte offset of the step (u64) in a checkpoint file (see the layout above), for checks that read
/// no more than the head (refuseReplacingAnotherRun).
inline constexpr std::size_t kCheckpointStepAt = 8;
/// Byte offset of the start digest (u64), for refuseReplacingAnotherStart.
inline constexpr std::size_t kCheckpointStartAt = 16;

struct BoidsCheckpoint {
  Params params;
  State state;
  std::uint64_t step = 0;  ///< steps run since the initial state
  std::uint64_t start = 0;  ///< startDigest of the initial state
};

/// FNV-1a-64 of `s`'s boids as a checkpoint stores them (x, y, z, vx, vy, vz per boid, each f32 by
/// its bits, little-endian): identifies a run's start, so that a run from another start (another
/// --seed or --in) does not replace its checkpoint (refuseReplacingAnotherStart).
std::uint64_t startDigest(const State& s);

std::string encodeCheckpoint(const BoidsCheckpoint& c);

/// The bytes before the boids of a checkpoint of `n` boids under `params` at `step` from the start
/// of digest `start` (magic, step, start, parameters, count), for refuseReplacingAnotherRun and
/// refuseReplacingAnotherStart.
std::string checkpointHeader(const Params& params, std::uint64_t n, std::uint64_t step, std::uint64_t start);

/// Parses bytes from encodeCheckpoint. `path` names the file in messages.
/// @throws InputError "checkpoint '<path>': ..." for a wrong magic (or another format version of
///         this kind: "a flocklife ... checkpoint of another format version ..."), a truncated or corrupt file,
///         parameters that validate() refuses, a count out of range or boids outside the cube;
///         OutOfMemoryError when the boids do not fit in host memory.
BoidsCheckpoint decodeCheckpoint(std::string bytes, const std::string& path);

/// encodeCheckpoint + writeFileAtomically. @throws InputError "--checkpoint <path>: ..." when it
/// cannot be written (the previous checkpoint then stays as it was, unless `path` is written in
/// place: a symbolic link or a hard-linked file, see OutputFile and inPlaceHazard).
void saveCheckpoint(const std::string& path, const BoidsCheckpoint& c);
/// readWholeFile + decodeCheckpoint.
BoidsCheckpoint loadCheckpoint(const std::string& path);

}  // namespace flocklife::boids
