// Parameter validation, derived constants, random initial states and CSV input/output.
#include <algorithm>
#include <charconv>
#include <cfloat>
#include <cctype>
#include <cmath>
#include <fstream>
#include <random>
#include <sstream>
#include <tuple>

#include "boids/boids.hpp"
#include "boids/boids_internal.hpp"
#include "common/checkpoint_io.hpp"
#include "common/errors.hpp"
#include "common/float_text.hpp"
#include "common/line_reader.hpp"
#include "common/memory.hpp"

namespace flocklife::boids {

namespace {
std::string num(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}
/// A float by its shortest text that reads back as it (a boid at x = 100.00001 was said to be "at
/// (100, ...)" outside [-100, 100]; a new user's trial).
std::string num(float v) {
  char buf[32];
  return std::string(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
}
void requirePositive(float v, const std::string& flag) {
  if (!std::isfinite(v) || v <= 0) throw InputError(flag + ": expected a finite number > 0, got " + num(v));
}
void requireNonNegative(float v, const std::string& flag) {
  if (!std::isfinite(v) || v < 0) throw InputError(flag + ": expected a finite number >= 0, got " + num(v));
}
}  // namespace

void validate(const Params& p) {
  requirePositive(p.scale, "--scale");
  requirePositive(p.rule1Distance, "--rule1-distance");
  requirePositive(p.rule2Distance, "--rule2-distance");
  requirePositive(p.rule3Distance, "--rule3-distance");
  requireNonNegative(p.rule1Scale, "--rule1-scale");
  requireNonNegative(p.rule2Scale, "--rule2-scale");
  requireNonNegative(p.rule3Scale, "--rule3-scale");
  requirePositive(p.maxSpeed, "--max-speed");
  requirePositive(p.dt, "--dt");
  const char* unseen = "boids stop seeing their neighbours";
  using Length = std::tuple<float, const char*, const char*>;  // value, flag, what fails below kMinLength
  for (const auto& [v, flag, fails] : {Length{p.rule1Distance, "--rule1-distance", unseen},
                                       Length{p.rule2Distance, "--rule2-distance", unseen},
                                       Length{p.rule3Distance, "--rule3-distance", unseen},
                                       Length{p.maxSpeed, "--max-speed", "the speed clamp lets boids past it"}})
    if (double(v) < kMinLength)
      throw InputError(std::string(flag) + " " + num(v) + ": expected at least 2^-50 (" + num(float(kMinLength)) +
                       "), so that its square and those it is compared with stay normal floats (smaller ones "
                       "underflow, and " + fails + ")");
}

void validateCount(long long n) {
  if (n < 1 || n > 2147483647LL)
    throw InputError("--n: expected a number of boids in [1, 2147483647], got " + std::to_string(n));
}

void validate(const Tuning& t, const TuningFlags& flags) {
  requirePositive(t.cellWidth, flags.cellWidth);
  if (t.blockSize <= 0 || t.blockSize % 32 != 0 || t.blockSize > 1024)
    throw InputError(flags.blockSize + ": expected a multiple of 32 in [32, 1024], got " + std::to_string(t.blockSize));
  requireNonNegative(t.stagingRatio, flags.stagingRatio);
  if (t.sortEvery < 1 || t.sortEvery > kMaxSortEvery)
    throw InputError(flags.sortEvery + ": expected a number of steps in [1, " + std::to_string(kMaxSortEvery) +
                     "], got " + std::to_string(t.sortEvery));
  requireNonNegative(t.groupRadius, flags.groupRadius);
  if (t.xSplit < 1 || t.xSplit > kMaxXSplit)
    throw InputError(flags.xSplit + ": expected a number of cells along x per cell width in [1, " +
                     std::to_string(kMaxXSplit) + "], got " + std::to_string(t.xSplit));
}

namespace {
/// The largest rule distance, the radius every walk reaches.
double ruleReach(const Params& p) { return std::max(p.rule1Distance, std::max(p.rule2Distance, p.rule3Distance)); }
/// Cells along y and z of the grid of p at cell width w (a multiple of the largest rule distance):
/// max(1, floor(2 scale / (w x largest rule distance))), in double (it may exceed an int).
double gridResolution(const Params& p, float w) {
  return std::max(1.0, std::floor(2.0 * double(p.scale) / (double(w) * double(float(ruleReach(p))))));
}
/// The most cells a grid may have: cell indices are 32-bit, and a scan of the counts needs one more.
constexpr double kMaxCells = 2147483647.0;
/// Whether counting and fast walk n boids of p with tuning t by the octant walk (octantLanes of the
/// grid at the widest reach of t's sort interval, as CountingGpu decides it). @throws InputError as
/// derive (it validates t.sortEvery too).
bool walksOctants(std::size_t n, const Params& p, const Tuning& t) {
  return octantLanes(reuseGrid(derive(p, t), t.sortEvery - 1), n);
}
/// The cell width at least `w` (multiples of the largest rule distance) whose grid of p at split
/// xSplit has at most `cells` cells: w where it fits, else the width that brings the resolution
/// down to floor(cbrt(cells / xSplit)) (wider cells only add candidates, so any width >= w is
/// correct). Where that width is no finite float (a cube some 1e38 rule distances wide), w: derive
/// then refuses the grid, naming --cell-width and --scale.
float widthThatFits(const Params& p, float w, int xSplit, double cells) {
  const double res = gridResolution(p, w);
  if (!(res * res * res * xSplit > cells)) return w;  // (NaN from invalid Params: left to validate)
  const double target = std::max(1.0, std::floor(std::cbrt(cells / xSplit)));
  // From just below the width of `target` cells (float rounding could skip past it) upwards.
  const double start = 0.99 * 2.0 * double(p.scale) / (target * ruleReach(p));
  if (!(start * 1.01 <= double(FLT_MAX))) return w;
  float wide = float(start);
  while (gridResolution(p, wide) > target) wide *= 1.0005f;
  return std::max(w, wide);
}

}  // namespace

double maxAutoCells(std::size_t n, Backend backend) {
  if (backend == Backend::Cpu) return std::min(kMaxCells, std::max(64.0, 0.5 * double(n)));
  return std::min(kMaxCells, std::max(4096.0, 256.0 * double(n)));
}

std::uint64_t hostBytesPerBoid(const MethodInfo& method) {
  const std::uint64_t state = 2 * sizeof(Vec3);
  if (method.backend == Backend::Cuda) return 2 * 4 * sizeof(float) + state;
  return 2 * state + (method.walk == GridWalk::None ? 0 : 2 * sizeof(std::uint32_t));
}

void requireStartHostMemory(std::size_t n, const MethodInfo& method, const std::string& what,
                            std::uint64_t extraPerBoid, const std::string& extraWhat) {
  const std::uint64_t perBoid = 2 * sizeof(Vec3) + hostBytesPerBoid(method) + extraPerBoid;
  requireHostMemory(std::uint64_t(n) * perBoid, what + ": the random start and " + method.name + "'s copies of it" +
                                                    (extraWhat.empty() ? "" : " and " + extraWhat) + " (" +
                                                    std::to_string(perBoid) + " bytes per boid)");
}

bool formsGroups(const MethodInfo& method) {
  return method.walk == GridWalk::Rows && method.backend == Backend::Cuda;
}

bool groupsRun(const MethodInfo& method, std::size_t n, const Params& p, const Tuning& t) {
  if (!formsGroups(method) || !(t.groupRadius > 0) || p.periodic) return false;
  return !walksOctants(n, p, t);
}

double expectedNeighbours(std::size_t n, const Params& p) {
  const double side = 2.0 * double(p.scale);
  const double r = ruleReach(p);
  const double cube = side * side * side, ball = 4.0 / 3.0 * M_PI * r * r * r;
  return double(n > 0 ? n - 1 : 0) * std::min(ball, cube) / cube;  // never more than every other boid
}

Tuning autoTuning(const MethodInfo& method, std::size_t n, const Params& p, std::optional<int> sortEvery) {
  Tuning t;
  const double e = expectedNeighbours(n, p);
  if (method.walk == GridWalk::Rows) {
    if (e < 2) {
      // Every 4 steps where 3 steps' skin stays within 15 % of the largest rule distance (the
      // classic speed and dt: 12 %, as measured); otherwise every step.
      const double skin = double(p.maxSpeed) * double(p.dt), reach = ruleReach(p);
      t.sortEvery = sortEvery.value_or(3.0 * skin <= 0.15 * reach ? 4 : 1);
      // Cells about twice the reach widened by the skin of K - 1 steps, at most 3 (rounded up to
      // 0.05 rule distances: 2 / 2.1 / 2.2 / 2.25 for K 1 / 2 / 3 / >= 4 at the classic speed and
      // dt); at K >= 4 that pays from a million boids on, below which width 2 is faster. (A
      // sortEvery out of range is refused later, by validate.)
      const int k = std::clamp(t.sortEvery, 1, 4);
      const double widen = std::ceil(20.0 * 2.0 * (k - 1) * skin / reach - 1e-9) / 20.0;
      t.cellWidth = k == 4 && n < 1000000 ? 2.f : float(2.0 + widen);
      // From a million boids, cells split in 2 along x where the octant walk runs: its runs are
      // clipped to the ball's half chord in x cells (1.02-1.05x at 10M boids, H200, issue 8,
      // nineteenth round; not measured below). (A sort interval out of range is left to validate.)
      // (A grid too large for derive is left to it too, as the user may give a --cell-width.)
      const double res = gridResolution(p, t.cellWidth);
      if (n >= 1000000 && t.sortEvery >= 1 && t.sortEvery <= kMaxSortEvery && res * res * res <= kMaxCells &&
          walksOctants(n, p, t))
        t.xSplit = 2;
    } else if (e < 20) {
      t.cellWidth = 1;
      t.blockSize = e < 11 ? 128 : 512;
      t.xSplit = e < 5 ? 1 : 4;
    } else if (e < 150) {
      t.cellWidth = 0.5f;
      t.blockSize = 512;
      t.xSplit = 4;
    } else {
      t.cellWidth = 0.33f;
      // Split 4 on open cubes sorted every step, where boid groups run in every step (H200, issue 8,
      // round 26, groups of at least 12: 5M 1.003-1.005x of 8, 2.5M / 3M / 10M at scale 100 1.011x /
      // 1.004x / 1.009x; kGroupMin 11 at split 4 then 1.009x of 12 at 5M, 1.012x at 3M, 0.987x at
      // 10M). 8 where the per-boid walk does most of the work: on periodic cubes, where no group
      // runs (8 led 4 by 1.9 % at 5M before the groups, round 10), and with a given --sort-every
      // above 1, where the groups run one step in K (5M: 8 led 4 by 1.010x at K 2 and 1.015x at
      // K 4, round 27). (groupsRun would need the split to derive its grid; at width 0.33 the octant
      // walk never runs, so this asks the same.)
      const bool groupsEveryStep = formsGroups(method) && !p.periodic && sortEvery.value_or(1) == 1;
      t.xSplit = groupsEveryStep ? 4 : 8;
      if (e >= 150) t.groupRadius = kAutoGroupRadius;  // (not for a NaN e from invalid Params)
    }
    // Split cells: lanes walking alone beat staging by 1.5-5 % at every setting measured.
    if (e >= 5) t.stagingRatio = 0;
    // Halve the split until the grid fits (huge N at a large scale): derive() would refuse it.
    // Then widen the cells until it fits (a scale or rule distances far from the classic ones).
    double r = gridResolution(p, t.cellWidth);
    while (t.xSplit > 1 && r * r * r * t.xSplit > kMaxCells) t.xSplit /= 2;
    t.cellWidth = widthThatFits(p, t.cellWidth, t.xSplit, maxAutoCells(n, method.backend));
    r = gridResolution(p, t.cellWidth);
    // Groups only where they run (open cubes; a grid too large is left to derive, as above). This
    // asks at the sort interval 1 (a given one is set below); the simulation and the reports ask
    // groupsRun again with the interval they run.
    if (t.groupRadius > 0 && (r * r * r * t.xSplit > kMaxCells || !groupsRun(method, n, p, t))) t.groupRadius = 0;
  } else if (method.walk == GridWalk::Cells) {
    t.cellWidth = widthThatFits(p, e < 2 ? 2.f : 1.f, 1, maxAutoCells(n, method.backend));
  }
  if (sortEvery) t.sortEvery = *sortEvery;
  return t;
}

Derived derive(const Params& p, const Tuning& t, bool grid) {
  validate(p);
  validate(t);
  Derived d;
  d.scale = p.scale;
  d.r1Sq = p.rule1Distance * p.rule1Distance;
  d.r2Sq = p.rule2Distance * p.rule2Distance;
  d.r3Sq = p.rule3Distance * p.rule3Distance;
  d.s1 = p.rule1Scale;
  d.s2 = p.rule2Scale;
  d.s3 = p.rule3Scale;
  d.maxSpeed = p.maxSpeed;
  d.dt = p.dt;
  d.periodic = p.periodic;
  d.walkWraps = p.periodic;
  d.stagingRatio = t.stagingRatio;
  d.maxDist = float(ruleReach(p));
  // Rounding margin of the cell bounding box and skip test: a few ulps of the coordinates.
  d.boxPad = d.maxDist * 1e-4f + p.scale * 1e-5f;
  const double res = grid ? gridResolution(p, t.cellWidth) : 1.0;
  const int xSplit = grid ? t.xSplit : 1;
  if (res * res * res > kMaxCells)  // 1290^3 < 2^31 - 1 < 1291^3
    throw InputError("--cell-width " + num(t.cellWidth) + ": the grid would have " + num(res) +
                     "^3 cells (at most 1290^3); use a larger cell width or a smaller --scale");
  if (res * res * res * xSplit > kMaxCells)  // res <= 1290 here, so split 1 fits
    throw InputError("--x-split " + std::to_string(t.xSplit) + " with --cell-width " + num(t.cellWidth) +
                     ": the grid would have " + std::to_string(std::int64_t(res) * t.xSplit) + " x " +
                     std::to_string(std::int64_t(res)) + " x " + std::to_string(std::int64_t(res)) +
                     " cells (at most 2147483647 in all); use a smaller --x-split or a larger cell width");
  d.resolution = int(res);
  d.cellWidth = float(2.0 * double(p.scale) / d.resolution);
  d.invCellWidth = float(d.resolution / (2.0 * double(p.scale)));
  d.xSplit = xSplit;
  d.xResolution = d.resolution * xSplit;
  d.xCellWidth = float(2.0 * double(p.scale) / d.xResolution);
  d.invXCellWidth = float(d.xResolution / (2.0 * double(p.scale)));
  d.groupRadius = t.groupRadius * d.maxDist;
  return d;
}

State randomState(std::size_t n, const Params& p, std::uint64_t seed) {
  validate(p);
  requireHostMemory(std::uint64_t(n) * 2 * sizeof(Vec3),
                    "--n " + std::to_string(n) + ": positions and velocities of the random start");
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  State s;
  s.pos.resize(n);
  s.vel.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    s.pos[i] = {u(rng) * p.scale, u(rng) * p.scale, u(rng) * p.scale};
    Vec3 v;
    do v = {u(rng), u(rng), u(rng)};
    while (v.x * v.x + v.y * v.y + v.z * v.z > 1.f);
    s.vel[i] = {v.x * p.maxSpeed, v.y * p.maxSpeed, v.z * p.maxSpeed};
  }
  return s;
}

void writeCsv(const std::string& path, const State& s) {
  OutputFile file(path, "--out");
  std::ostream& out = file.stream();
  out << "x,y,z,vx,vy,vz\n";
  out.precision(9);  // round-trips a float exactly
  for (std::size_t i = 0; i < s.size(); ++i)
    out << s.pos[i].x << ',' << s.pos[i].y << ',' << s.pos[i].z << ',' << s.vel[i].x << ',' << s.vel[i].y << ','
        << s.vel[i].z << '\n';
  file.commit();
}

bool isCsvHeader(const std::string& line) {
  std::string compact;
  for (char c : line)
    if (c != ' ' && c != '\t') compact += char(std::tolower(static_cast<unsigned char>(c)));
  return compact == "x,y,z,vx,vy,vz";
}

State readCsv(const std::string& path, std::vector<std::size_t>* lines) {
  std::ifstream in = openForReading(path, "--in " + path, "a CSV file");  // binary: LineReader takes the '\r's
  if (lines) lines->clear();
  State s;
  std::string line;
  LineReader reader(in, "--in " + path);  // LF, CRLF or CR line ends; a UTF-8 byte order mark (Excel) dropped
  bool header = false;
  while (reader.next(line)) {
    const auto lineNo = reader.number();
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    const std::string where = "--in " + path + ":" + std::to_string(lineNo) + ": ";
    if (!header) {
      if (!isCsvHeader(line)) {
        // A checkpoint's binary is named as such rather than quoted (a life checkpoint printed 4 KB).
        if (const std::string other = otherFormatVersion(line); !other.empty())
          throw InputError(where + other + ", not a CSV of boids");
        if (startsWithMagic(line, kBoidsCheckpointMagic))
          throw InputError(where + "a flocklife boids checkpoint, not a CSV; give it to --resume");
        if (startsWithMagic(line, kLifeCheckpointMagic))
          throw InputError(where + "a flocklife life checkpoint, not a CSV of boids (flocklife life --resume reads it)");
        throw InputError(where + "expected the header line 'x,y,z,vx,vy,vz', got '" +
                         printable(line) + "'");
      }
      header = true;
      continue;
    }
    float v[6];
    std::size_t start = 0;
    for (int k = 0; k < 6; ++k) {
      const std::size_t comma = line.find(',', start);
      if ((comma == std::string::npos) != (k == 5))
        throw InputError(where + "expected 6 comma-separated numbers x,y,z,vx,vy,vz, got '" + printable(line) + "'");
      const std::string field = line.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      // Read as a double, then rounded to float: magnitudes below FLT_MIN are kept as the float
      // subnormals writeCsv writes (std::stof refused them), smaller ones become 0 (a coordinate
      // that close to 0 is 0), only those above FLT_MAX are refused.
      const FloatText f = readFloatText(field);
      if (!f.number)
        throw InputError(where + "field " + std::to_string(k + 1) + " '" + printable(field) + "' is not " +
                         (f.hexadecimal ? "a decimal number" : "a number"));
      if (f.overflows)
        throw InputError(where + "field " + std::to_string(k + 1) + " '" + printable(field) +
                         "' is out of the range of a float (magnitude at most 3.4e38)");
      v[k] = float(f.value);
      if (!std::isfinite(v[k])) throw InputError(where + "field " + std::to_string(k + 1) + " '" + printable(field) + "' is not finite");
      start = comma + 1;
    }
    s.pos.push_back({v[0], v[1], v[2]});
    s.vel.push_back({v[3], v[4], v[5]});
    if (lines) lines->push_back(std::size_t(lineNo));
  }
  if (!header) throw InputError("--in " + path + ": empty file; expected the header line 'x,y,z,vx,vy,vz' and one line per boid");
  if (s.size() == 0) throw InputError("--in " + path + ": no boids after the header line");
  return s;
}

void checkArithmetic(const Params& p, std::size_t n, double vmax, const std::string& what, const std::string& fastest) {
  // Largest velocity component before the speed clamp (newVelocity): the fastest boid plus each
  // rule's largest pull. Offsets within a rule distance r are below min(r, 2 scale) per component;
  // separation sums them over up to n - 1 neighbours, the other rules average them.
  const double reach = 2.0 * double(p.scale), r1 = std::min(double(p.rule1Distance), reach),
               r2 = std::min(double(p.rule2Distance), reach), others = double(n > 0 ? n - 1 : 0);
  const double velocity = vmax * (1.0 + double(p.rule3Scale)) + double(p.rule1Scale) * r1 + double(p.rule2Scale) * others * r2;
  // The neighbourhood sums before they are scaled: up to n offsets or velocities.
  const double sums = std::max({vmax, r1, r2}) * double(n);
  const double move = double(p.maxSpeed) * double(p.dt);
  const std::string boidsText = std::to_string(n) + (n == 1 ? " boid" : " boids");
  const std::string speeds =
      "--max-speed " + num(p.maxSpeed) +
      (vmax > p.maxSpeed ? ", " + (fastest.empty() ? std::string("a boid") : fastest) + " moving at " + num(vmax) : "");
  if (!(velocity <= kMaxVelocityBound))
    throw InputError(what + ": the velocity before the speed clamp could reach " + num(velocity) + " per component (" +
                     speeds + ", --rule1/2/3-scale " + num(p.rule1Scale) + " / " + num(p.rule2Scale) + " / " +
                     num(p.rule3Scale) + ", " + boidsText + "); expected at most " + num(kMaxVelocityBound) +
                     ", so that its square is a finite float");
  if (!(sums <= kMaxSumBound))
    throw InputError(what + ": a neighbourhood sum over " + boidsText + " could reach " + num(sums) + " (" +
                     speeds + "); expected at most " + num(kMaxSumBound));
  if (!(move <= kMaxSumBound))
    throw InputError(what + ": a step's move --max-speed x --dt = " + num(move) + "; expected at most " + num(kMaxSumBound));
  if (!(double(p.scale) <= kMaxSumBound))
    throw InputError(what + ": --scale " + num(p.scale) + "; expected at most " + num(kMaxSumBound));
  const double width = 2.0 * double(p.scale);
  if (!(move <= width))
    throw InputError(what + ": a step's move --max-speed x --dt = " + num(move) +
                     " is longer than the cube's width 2 x --scale = " + num(width) +
                     "; expected at most that (a longer step folds around the cube, and a much longer one loses the "
                     "positions' precision)");
  // Floats in [2^k, 2^(k+1)) are 2^(k - 23) apart, k = ilogb(scale) at the faces: a shorter
  // full-speed step would leave boids there where they are (found by a review: 20 boids at scale
  // 1e10 never moved).
  const double spacing = std::ldexp(1.0, std::ilogb(p.scale) - 23);
  if (!(move >= 2.0 * spacing))
    throw InputError(what + ": a step's move --max-speed x --dt = " + num(move) +
                     " is shorter than two float spacings at the cube's faces (--scale " + num(p.scale) + ": " +
                     num(2.0 * spacing) + "); expected at least that (boids there would not move)");
}

void checkFits(const State& s, const Params& p, const std::string& what, const std::vector<std::size_t>* lines) {
  if (s.size() == 0) throw InputError(what + ": no boids");
  if (s.vel.size() != s.pos.size()) throw InputError(what + ": positions and velocities differ in count");
  auto line = [&](std::size_t i) {  // readCsv's line of boid i, or "" without lines
    return lines && i < lines->size() ? std::to_string((*lines)[i]) : std::string();
  };
  auto ordinal = [&](std::size_t i) { return "boid " + std::to_string(i + 1) + " of " + std::to_string(s.size()); };
  auto boid = [&](std::size_t i) {  // "what:line: boid i of n", on error only
    return what + (line(i).empty() ? std::string() : ":" + line(i)) + ": " + ordinal(i);
  };
  double vmax = p.maxSpeed;  // the fastest velocity component, for checkArithmetic
  std::size_t fastest = s.size();  // the boid behind vmax where it exceeds maxSpeed
  for (std::size_t i = 0; i < s.size(); ++i) {
    const Vec3 a = s.pos[i], v = s.vel[i];
    for (float c : {a.x, a.y, a.z, v.x, v.y, v.z})
      if (!std::isfinite(c)) throw InputError(boid(i) + " has a non-finite coordinate");
    for (float c : {a.x, a.y, a.z})
      if (c < -p.scale || c > p.scale)
        throw InputError(boid(i) + " at (" + num(a.x) + ", " + num(a.y) + ", " + num(a.z) +
                         ") is outside the cube [-" + num(p.scale) + ", " + num(p.scale) + "]^3 (--scale)");
    const double component = std::max({double(std::fabs(v.x)), double(std::fabs(v.y)), double(std::fabs(v.z))});
    if (component > vmax) {
      vmax = component;
      fastest = i;
    }
  }
  checkArithmetic(p, s.size(), vmax, what,
                  fastest == s.size() ? std::string()
                                      : ordinal(fastest) + (line(fastest).empty() ? "" : " (line " + line(fastest) + ")"));
}

}  // namespace flocklife::boids
