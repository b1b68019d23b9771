#pragma once
/// @file fps_stats.hpp
/// Frames per second over a fixed window, as the CUDA boids write-up with the uniform and
/// coherent grids measures it (the course's Project 1 "CUDA Flocking": FPS averaged over a
/// 20-second window, the first seconds discarded because of a start-up spike). Header only;
/// used by `flocklife bench fps`.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "common/errors.hpp"

namespace flocklife::app {

struct FpsStats {
  std::int64_t frames = 0;  ///< frames that ended inside (warmup, end of run]
  double seconds = 0;       ///< measured time: last counted frame's end - warmup
  double mean = 0;          ///< frames / seconds
  /// Of the per-second FPS (frames ending in each whole second); where some whole second had no
  /// frame end (frames over a second long), of the counted frames' own rates (1 / their length)
  /// instead, leaving out a frame that began in the warm-up (the per-second counts gave 0 / 0 / 0
  /// beside a mean of 0.3; a frame's part after the warm-up gave a maximum of 4.8 beside frames of
  /// 1.2 s, a review); the mean where every counted frame began in the warm-up. The mean counts
  /// the whole window, so it can lie just outside [min, max].
  double median = 0, min = 0, max = 0;
};

/// @param frameEndSeconds each frame's end time, seconds since the run started, ascending
/// @param warmupSeconds frames ending at or before this are discarded (>= 0)
/// @throws InputError "--seconds: no frame ended after the warm-up; ..." when none did (a --seconds
/// of 1e-9 is in range but too short for any frame: it ended with status 1, a tester's trial)
inline FpsStats fpsFromFrameTimes(const std::vector<double>& frameEndSeconds, double warmupSeconds) {
  FpsStats s;
  std::vector<std::int64_t> perSecond;
  std::vector<double> frameRates;  // 1 / each counted frame's length
  double last = warmupSeconds, previousEnd = 0;
  for (const double t : frameEndSeconds) {
    const double start = previousEnd;
    previousEnd = t;
    if (t <= warmupSeconds) continue;
    ++s.frames;
    last = t;
    if (start >= warmupSeconds && t > start) frameRates.push_back(1.0 / (t - start));
    const auto bucket = std::size_t(std::floor(t - warmupSeconds));
    if (perSecond.size() <= bucket) perSecond.resize(bucket + 1, 0);
    ++perSecond[bucket];
  }
  if (s.frames == 0)
    throw InputError("--seconds: no frame ended after the warm-up (--warmup-seconds); expected a longer --seconds");
  s.seconds = last - warmupSeconds;
  s.mean = double(s.frames) / s.seconds;
  // The last bucket is partial unless the run ended on a whole second; keep it only when alone.
  std::vector<double> rates;
  const std::size_t whole = perSecond.size() > 1 ? perSecond.size() - 1 : 0;
  for (std::size_t i = 0; i < whole; ++i) rates.push_back(double(perSecond[i]));
  // Whole seconds without a frame end: the frames' own rates, or the mean where every counted
  // frame began in the warm-up (one 11.4 s frame gave 0 / 0 / 0 beside a mean of 0.106: a tester).
  if (std::find(rates.begin(), rates.end(), 0.0) != rates.end()) rates = frameRates;
  if (rates.empty()) rates.push_back(s.mean);
  std::sort(rates.begin(), rates.end());
  const std::size_t m = rates.size();
  s.median = m % 2 ? rates[m / 2] : 0.5 * (rates[m / 2 - 1] + rates[m / 2]);
  s.min = rates.front();
  s.max = rates.back();
  return s;
}

}  // namespace flocklife::app
