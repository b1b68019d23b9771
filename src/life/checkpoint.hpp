#pragma once
/// @file checkpoint.hpp
/// Life checkpoints (`flocklife life --checkpoint FILE --every K`, `--resume FILE`): the torus,
/// its rule and the generation count in a compact binary file, written atomically (OutputFile).
///
/// Layout (little-endian): magic "FLLIFE02"; width, height (u64, >= 1, width*height <= 2^40);
/// generation (u64, at most 2^63 - 1, as --gens); start digest (u64, startDigest of the run's
/// first world, carried over by --resume); rule as B/S text (u32 length + at most 64
/// bytes); cells packed 8 per byte, cell i
/// (row-major) in bit i%8 of byte i/8, unused high bits 0; FNV-1a-64 of all preceding bytes.
#include <cstdint>
#include <string>

#include "life/rule.hpp"
#include "life/world.hpp"

namespace flocklife::life {

/// Byte offset of the generation (u64) in a checkpoint file (see the layout above), for checks
/// that read no more than the head (refuseReplacingAnotherRun).
inline constexpr std::size_t kCheckpointGenerationAt = 24;
/// Byte offset of the start digest (u64), for refuseReplacingAnotherStart.
inline constexpr std::size_t kCheckpointStartAt = 32;

struct LifeCheckpoint {
  World world;
  Rule rule;
  std::uint64_t generation = 0;  ///< generations run since the initial world
  std::uint64_t start = 0;       ///< startDigest of the initial world
};

/// FNV-1a-64 of `w`'s cells packed as a checkpoint stores them: identifies a run's start, so that
/// a run from another start (another --seed or pattern) does not replace its checkpoint
/// (refuseReplacingAnotherStart).
std::uint64_t startDigest(const World& w);

/// Serialises a checkpoint (see the file comment).
std::string encodeCheckpoint(const LifeCheckpoint& c);

/// The bytes before the cells of a checkpoint of a `width` x `height` torus of `rule` at
/// `generation` from the start of digest `start` (magic, sizes, generation, start, rule), for
/// refuseReplacingAnotherRun and refuseReplacingAnotherStart.
std::string checkpointHeader(std::uint64_t width, std::uint64_t height, std::uint64_t generation, const Rule& rule,
                             std::uint64_t start);

/// Parses bytes from encodeCheckpoint. `path` names the file in messages.
/// @throws InputError "checkpoint '<path>': ..." for a wrong magic (or another format version of
///         this kind: "a flocklife ... checkpoint of another format version ..."), a truncated or corrupt file
///         (checksum), sizes or a generation out of range, a rule text over 64 bytes or invalid,
///         or set padding bits;
///         OutOfMemoryError when the world does not fit in host memory.
LifeCheckpoint decodeCheckpoint(std::string bytes, const std::string& path);

/// encodeCheckpoint + writeFileAtomically. @throws InputError "--checkpoint <path>: ..." when it
/// cannot be written (the previous checkpoint then stays as it was, unless `path` is written in
/// place: a symbolic link or a hard-linked file, see OutputFile and inPlaceHazard).
void saveCheckpoint(const std::string& path, const LifeCheckpoint& c);
/// readWholeFile + decodeCheckpoint.
LifeCheckpoint loadCheckpoint(const std::string& path);

}  // namespace flocklife::life
