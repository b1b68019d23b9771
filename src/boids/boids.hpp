#pragma once
/// @file boids.hpp
/// Public API of the boids module (plain C++, no CUDA types): model parameters, host state,
/// option validation, CSV input/output, and simulations selectable by method name.
///
/// Model: Reynolds (SIGGRAPH 1987) as in the UPenn CIS 565 flocking project; see boid_math.hpp
/// for the exact rules. Methods (grid, coherent grids, shared memory) follow that project and
/// the seed article "boids-cuda-grid-coherent"; `counting` builds the grid by a counting sort.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "boids/boid_math.hpp"

namespace flocklife::boids {

/// Model parameters. Defaults are the course's: scene scale 100, rule distances 5 / 3 / 5, rule
/// scales 0.01 / 0.1 / 0.1, maximum speed 1, dt 0.2. Units: world units and time units.
struct Params {
  float scale = 100;           ///< the cube is [-scale, scale]^3 (--scale)
  float rule1Distance = 5;     ///< cohesion radius (--rule1-distance)
  float rule2Distance = 3;     ///< separation radius (--rule2-distance)
  float rule3Distance = 5;     ///< alignment radius (--rule3-distance)
  float rule1Scale = 0.01f;    ///< cohesion strength (--rule1-scale)
  float rule2Scale = 0.1f;     ///< separation strength (--rule2-scale)
  float rule3Scale = 0.1f;     ///< alignment strength (--rule3-scale)
  float maxSpeed = 1;          ///< world units per time unit (--max-speed)
  float dt = 0.2f;             ///< time units per step (--dt)
  /// Neighbourhoods wrap across the cube's faces (--periodic). Positions wrap in both modes (a boid
  /// leaving through a face comes back through the opposite one, as in the course's code); without
  /// it a boid near a face does not see those just across it.
  bool periodic = false;
};

/// Tuning of a method; ignored where it does not apply.
struct Tuning {
  float cellWidth = 2;         ///< grid cell width as a multiple of the largest rule distance (--cell-width)
  int blockSize = 128;         ///< CUDA threads per block for every kernel (--block-size)
  bool thrustGather = false;   ///< coherent-gather: reshuffle with thrust::gather instead of our kernel
  /// Warp kernel of coherent-zip, coherent-gather, counting and fast (--staging-ratio): a warp
  /// stages its candidates through shared memory when the union box of its lanes' neighbour cells
  /// has at most stagingRatio times the cells of its largest lane box, else each lane walks its own
  /// cells. 0 = never stage, a huge value = always stage. naive, grid, shared and cpu-* ignore it,
  /// and so do counting and fast on sparse coarse grids (cells at least about twice the largest
  /// rule distance wide, plus the skin of sortEvery, and fewer boids than cells), where every boid
  /// walks its own cells.
  /// Default 1.5 from the H200 sweep in bench/notes/boids.md (2 staged at 1M boids, w 1, where the
  /// per-thread walk is 8 % faster; 1.5 keeps staging where it wins, at 5M boids).
  float stagingRatio = 1.5f;
  /// counting and fast (--sort-every): sort the boids by cell every sortEvery steps, and in the
  /// steps between walk the grid of the last sort, its reach widened by the farthest a boid can
  /// move since (k steps after a sort, k x maxSpeed x dt: a Verlet skin, see reuseGrid in
  /// boids_internal.hpp). The neighbours are the same; the steps between sorts skip the
  /// histogram, the exclusive scan and the scatter, and walk a little more (the sorting step walks
  /// with no skin; fast builds the histogram in the step before a sort). 1 = sort
  /// every step. Pays where sorting is a large share of a step (sparse scenes, e.g. 10M boids at
  /// constant density; bench/notes/boids.md). Other methods sort every step.
  int sortEvery = 1;
  /// counting and fast (--cuda-graphs on `bench boids`): a call to Simulation::step that covers a
  /// whole sort interval, starting at a sort, replays that interval's launches as one CUDA graph
  /// (recorded the first time, one per ping-pong parity) instead of launching them one by one. The
  /// graph holds the same launches in the same order, so the result is theirs; the saving is the
  /// per-launch cost, which matters at small N. Calls of one step (the window, `bench fps`) replay
  /// only when the interval is one step.
  bool cudaGraphs = true;
  /// Grid cells xSplit times narrower along x than along y and z (--x-split): cellWidth along y
  /// and z, cellWidth / xSplit along x. A row of cells along x is one slot range of the sorted
  /// boids whatever its length, so thin cells trim each row's range closer to the ball at no
  /// extra rows. 1 = cubes. The walks made for coarse cells run on cubes only: with xSplit > 1
  /// every grid takes the fine walks, except counting's and fast's kernel for sparse coarse grids,
  /// whose octant walk clips each row of cubes to the ball's half chord in x cells.
  int xSplit = 1;
  /// counting and fast: their per-boid walks read the candidates' velocities through the texture
  /// pipe (a texture object over each velocity buffer) instead of as global loads, so that their
  /// scattered loads share the L1's two front ends (bench/notes/boids.md, issue 8, twelfth round).
  /// The same values, so the same result. The periodic cube's warp kernel fetches too (round 12
  /// kept it out, at 56 registers; from round 13 it needed 64 anyway, and with the texture it
  /// stayed at 64: periodic 1M 1.07x, issue 8, fourteenth round; round 16 brought the one-mask
  /// periodic kernels back to 56 with the texture). Global loads all the same: in
  /// staged warps (stagingRatio), for lanes of coarseLaneKernel that visit cells one by one, and
  /// where the device cannot make the texture (more boids than its largest linear texture, 2^28
  /// on the H200). load() throws CudaError if the runtime fails to make one that fits. No
  /// command-line flag: tests run both paths; benchmarks compare builds. Other methods read
  /// global memory.
  bool velocityTexture = true;
  /// counting and fast on sparse coarse grids (coarseLaneKernel; see stagingRatio for where that
  /// kernel runs): after each boid's walk the threads of a block exchange boids, ordered by their
  /// numbers of candidates, so that the 32 lanes of a warp test similar numbers and the warp waits
  /// less for its longest lane (issue 8, eighteenth round: in 10M boids at constant density a warp
  /// of consecutive boids waited for 1.8-2.0 times its mean). Each boid's candidates and the order
  /// of its sums stay the same, so the result is bit for bit the same as without it. Blocks where
  /// no boid has 32 candidates or more (kBalanceFrom) keep their order: at the start of that scene
  /// (~7 per boid) the exchange cost more than it saved. No
  /// command-line flag: tests run both paths; benchmarks compare builds.
  bool balanceLanes = true;
  /// counting and fast on open cubes, in the steps that sort, where the per-boid walk is not
  /// coarseLaneKernel: boids of one grid cube (the xSplit cells of one cell width along x) within
  /// groupRadius times the largest rule distance of their bounding box's centre, kGroupMin (11) to 32 of them,
  /// share one walk of the grid (issue 8, twenty-third round): candidates well inside or outside
  /// each rule's ball around the centre are decided once for the group, only those in the shell
  /// between per boid (groupBounds in boid_math.hpp). The neighbours are the same; the sums are
  /// formed differently (relative to the centre; a member's own velocity added with the group's,
  /// then taken out). Pays where the boids have gathered into clumps of nearly coincident boids, as
  /// the classic rules gather them in dense scenes. 0 = no groups. No flag of `flocklife boids`:
  /// autoTuning sets kAutoGroupRadius from 150 expected neighbours per boid where groupsRun holds;
  /// `bench boids --group-radii` sweeps it; tests run both.
  /// validate throws InputError naming TuningFlags::groupRadius unless it is finite and >= 0.
  float groupRadius = 0;
};

/// Tuning::groupRadius that autoTuning gives from 150 expected neighbours per boid, as a multiple
/// of the largest rule distance (5M boids at scale 100: 0.4 units at the classic radii; 1.20x there on the H200, bench/notes/boids.md,
/// issue 8, twenty-third round; not swept).
inline constexpr float kAutoGroupRadius = 0.08f;

/// Largest Tuning::sortEvery: the skin grows with it, and with it every walk.
inline constexpr int kMaxSortEvery = 64;
/// Largest Tuning::xSplit.
inline constexpr int kMaxXSplit = 64;

/// Smallest rule distance and --max-speed validate(Params) allows, 2^-50 (8.9e-16): the squared
/// distances the rules compare with a distance's square, and the squared speed the clamp compares,
/// stay normal floats (above 2^-126) for offsets down to 2^-13 of it. Smaller ones underflow: a
/// scene scaled by 2^-80 found no neighbour at all, and by 2^-75 broke the speed clamp (a tester's
/// trial).
inline constexpr double kMinLength = 8.8817841970012523e-16;

/// Throws InputError naming the flag when a parameter is out of range: scale, distances, dt and
/// maxSpeed must be finite and > 0, rule scales finite and >= 0, and distances and maxSpeed at
/// least kMinLength.
void validate(const Params& p);

/// The names validate(Tuning) gives the fields in its messages ("<name>: expected ..."). The
/// defaults are flocklife boids' flags, and the field's own name for groupRadius, which has no
/// flag; a command with other flags (bench boids' lists) passes its own, item included
/// ("--cell-widths 0").
struct TuningFlags {
  std::string cellWidth = "--cell-width";
  std::string blockSize = "--block-size";
  std::string stagingRatio = "--staging-ratio";
  std::string sortEvery = "--sort-every";
  std::string groupRadius = "Tuning::groupRadius";
  std::string xSplit = "--x-split";
};

/// Throws InputError naming flags.cellWidth (finite, > 0), flags.blockSize (multiple of 32 in
/// [32, 1024]), flags.stagingRatio (finite, >= 0), flags.sortEvery (1 to kMaxSortEvery),
/// flags.groupRadius (finite, >= 0) or flags.xSplit (1 to kMaxXSplit), the first field out of
/// range in that order.
void validate(const Tuning& t, const TuningFlags& flags = {});
/// Throws InputError naming --n unless 1 <= n <= 2^31 - 1 (boid indices are 32-bit on the GPU).
void validateCount(long long n);

/// Derives the constants kernels use. With `grid` (the grid methods), the grid has resolution =
/// max(1, floor(2 * scale / w)) cells along y and z for w = cellWidth * largest rule distance, so
/// the cells tile the cube exactly and are at least w wide, and resolution * xSplit cells along x.
/// Without it (naive, cpu-naive, stepReference), one cell spans the cube and no grid is checked.
/// @throws InputError from validate(p) and validate(t); with `grid`, naming --cell-width (or
/// --x-split when xSplit > 1) if the grid would have more than 2^31 - 1 cells.
Derived derive(const Params& p, const Tuning& t = {}, bool grid = true);

/// Boids as host arrays: pos[i] and vel[i] belong to boid i.
struct State {
  std::vector<Vec3> pos;  ///< world units, inside [-scale, scale]^3
  std::vector<Vec3> vel;  ///< world units per time unit
  std::size_t size() const { return pos.size(); }
};

/// n boids with positions uniform in the cube and velocities uniform in the ball of radius
/// maxSpeed, from a seeded std::mt19937_64 (same seed, same state wherever the C++ standard
/// library is the same: std::uniform_real_distribution's algorithm is the library's own).
/// @throws OutOfMemoryError (required and available bytes) when n x 24 bytes do not fit in host
///         memory, checked before allocating.
State randomState(std::size_t n, const Params& p, std::uint64_t seed);

/// Writes `s` as CSV with the header line "x,y,z,vx,vy,vz" to `path` (the --out file), through an
/// OutputFile (common/checkpoint_io.hpp): an existing file is replaced only once the new one is
/// complete. @throws InputError "--out <path>: ..." when it cannot be written.
void writeCsv(const std::string& path, const State& s);
/// Whether `line` is the header line writeCsv writes as readCsv accepts it: "x,y,z,vx,vy,vz" in any
/// letter case, with blanks (space, tab) anywhere. A line, so without its line end.
bool isCsvHeader(const std::string& line);
/// Reads a CSV written by writeCsv (header line first, in any letter case, after an optional
/// UTF-8 byte order mark; then 6 finite numbers of magnitude at most 3.4e38 per line, rounded to
/// float, subnormals kept; blank lines ignored; LF, CRLF or CR line ends: common/line_reader.hpp). `lines`, when given, receives the file's line number of each boid (for
/// checkFits' errors). @throws InputError "--in path: ..." when the file cannot be read (a folder,
/// missing, not readable: openForReading), and "--in path:line: ..." saying what was expected.
State readCsv(const std::string& path, std::vector<std::size_t>* lines = nullptr);
/// Largest velocity component before the speed clamp that checkArithmetic allows: 3 x 1e18^2 =
/// 3e36 stays below the largest float, 3.4e38, so the squared speed the clamp compares is finite.
inline constexpr double kMaxVelocityBound = 1e18;
/// Largest neighbourhood sum (before it is scaled), move per step (maxSpeed x dt) and --scale that
/// checkArithmetic allows: a tenth of the largest float and more, so that sums and wrapped
/// positions stay finite.
inline constexpr double kMaxSumBound = 1e37;

/// Throws InputError "what: ..." naming the quantity and the parameters behind it when a step of n
/// boids whose fastest velocity component is vmax (world units per time unit) could overflow float
/// arithmetic: the velocity
/// before the speed clamp above kMaxVelocityBound, or a neighbourhood sum, the move maxSpeed x dt
/// or scale above kMaxSumBound (there the arithmetic would give inf or NaN, or clamp an
/// overflowed speed to 0). Bounds from the rules' largest pulls (boid_math.hpp, newVelocity).
/// Also throws when the move maxSpeed x dt exceeds the cube's width 2 x scale: such a step wraps
/// around the cube, and at 1e30 it leaves no bit of the position (every boid lands on 0); and when
/// it is shorter than 2 x scale x 2^-23, two float spacings at the cube's faces, where a boid at
/// full speed would not move. `fastest` names the boid behind vmax ("boid 3 of 4 (line 5)") where
/// vmax exceeds maxSpeed; the velocity and sum messages say it ("a boid" when empty).
void checkArithmetic(const Params& p, std::size_t n, double vmax, const std::string& what,
                     const std::string& fastest = "");

/// Throws InputError "what: boid k of n ..." (k counted from 1; with `lines`, the line numbers
/// readCsv gave: "what:line: boid k of n ...") if a boid is outside [-scale, scale]^3 or has a non-finite coordinate,
/// or if there are no boids; then checkArithmetic(p, number of boids, the largest of maxSpeed and
/// every velocity component, what, the boid with the fastest component where that exceeds
/// maxSpeed: "boid k of n (line l)").
void checkFits(const State& s, const Params& p, const std::string& what,
               const std::vector<std::size_t>* lines = nullptr);

enum class Backend { Cpu, Cuda };

/// How a method finds a boid's candidates, which decides what --cell-width means to it and what
/// autoTuning picks.
enum class GridWalk {
  None,   ///< no grid: every boid examines every other (naive, cpu-naive)
  Cells,  ///< grid cells visited one by one (grid, shared, coherent-zip, coherent-gather, cpu-grid)
  Rows,   ///< rows of cells from the neighbourhood ball, per lane (counting, fast)
};

/// What the registry knows of a method.
struct MethodInfo {
  std::string name;         ///< e.g. "naive", "coherent-gather", "cpu-grid"
  Backend backend;
  std::string description;  ///< one line
  GridWalk walk = GridWalk::None;
  bool takesStagingRatio = false;  ///< its neighbour pass is the warp kernel (Tuning::stagingRatio)
  bool takesSortEvery = false;     ///< it sorts only every Tuning::sortEvery steps
};

/// Expected number of other boids within the largest rule distance r of a boid, for n boids spread
/// uniformly over the cube [-scale, scale]^3: (n - 1) x min(4/3 pi r^3, (2 scale)^3) / (2 scale)^3,
/// so never more than n - 1 however small the cube. Exact on a periodic cube (r < scale); in an
/// open cube boids near the faces have fewer. The density that autoTuning goes by; flocks raise it
/// as they form.
double expectedNeighbours(std::size_t n, const Params& p);

/// The grid cell width, block size, sort interval, x split, staging ratio and group radius to use for
/// `method` on n boids of p (what --cell-width, --block-size, --sort-every, --x-split and
/// --staging-ratio auto pick; the group radius has no flag), by its GridWalk. They are the fastest
/// settings, or within 3 % of them, of H200 sweeps over cell widths 0.33 / 0.5 / 1 / 2 (2 to 2.6
/// when sorting every few steps), blocks 128 / 512 and sort intervals 1 / 2 / 4 (also 3, 6 and 8
/// at 10M boids) (bench/RESULTS.md, "Automatic cell width and block size" and "Automatic sort
/// interval"), chosen by the expected neighbours E (expectedNeighbours) at the start:
/// - GridWalk::Rows (counting, fast): E < 2 (the sparse scenes of constant density): sort every 4
///   steps where 3 steps of maxSpeed x dt stay within 15 % of the largest rule distance r (the
///   classic 0.6 against 5), else every step; block 128; width 2 + 2 min(K - 1, 3) maxSpeed dt / r
///   rounded up to 0.05 for the sort interval K (about twice the reach widened by the skin; the
///   classic 2 / 2.1 / 2.2 / 2.25 for K 1 / 2 / 3 / >= 4), except 2 for K >= 4 below a million
///   boids; from a million boids x split 2 where those cells are about twice the padded reach wide
///   and there are fewer boids than cells (octantLanes, e.g. 10M boids at constant density:
///   1.02-1.05x from the start to a state after 2,500 steps against 1, split 4 0.97-1.07x; issue
///   8, nineteenth round; not measured below a million);
///   E < 20: width 1, block 128 below E 11, else 512 (between the sweeps' 9.8, where 128 led by
///   4 %, and 13, where 512 beat 128 by 36 %); E < 150: width 0.5, block 512 (1M boids at scale 100);
///   else width 0.33, block 128 (5M at scale 100); sorting every step where E >= 2 (sorting less
///   often lost there); x split (Tuning::xSplit; H200 sweeps of 1 / 2 / 4 / 8 / 16,
///   bench/RESULTS.md, "Cells split along x") 4 from E 5 (between the sweeps' 3.3, where 4 lost
///   3 %, and 6.5), from E 150 4 on an open cube sorted every step (where groups run in every
///   step; round 26) and 8 on a periodic one or with a given sortEvery above 1 (groups one step in
///   K: 1.010x / 1.015x of 4 at K 2 / 4, 5M boids; round 27), else 1 (but 2 as above), halved until
///   the grid has at most 2^31 - 1 cells, then the cells widened until the grid has at most
///   maxAutoCells(n, method.backend);
///   staging ratio 0 from E 5 (with the split; 1.5-5 % faster than 1.5 at every such setting
///   measured), else Tuning's default; group radius (Tuning::groupRadius) kAutoGroupRadius from
///   E 150 where groups run (groupsRun: an open cube; 5M boids: 1.20x; at 1M, E 65, groups cost
///   0.91x; issue 8, twenty-third round), else 0;
/// - GridWalk::Cells (grid, shared, coherent-zip, coherent-gather, cpu-grid): width 2 where E < 2,
///   else 1, widened until the grid has at most maxAutoCells(n, method.backend) (for cpu-grid half a cell
///   per boid); block 128;
/// - GridWalk::None (naive, cpu-naive): width 2, block 128 (Tuning's defaults).
/// sortEvery: the sort interval given (--sort-every), kept as it is, or nullopt to choose it
/// (methods that sort every step ignore it). The other fields keep Tuning's defaults.
/// @throws InputError (derive's, naming the flag) for invalid Params below 2 expected neighbours
/// from a million boids, where the x split is decided on the derived grid, and from 150 on an open
/// cube, where groupsRun derives it; a sort interval out of range is left to validate, which the
/// caller runs later.
Tuning autoTuning(const MethodInfo& method, std::size_t n, const Params& p,
                  std::optional<int> sortEvery = std::nullopt);

/// Host bytes per boid that a simulation of `method` holds at its peak, beside the caller's State
/// (2 x 12 bytes per boid): a CPU method its state and the next step's (48), cpu-grid (a grid walk
/// on the CPU) also each boid's cell and the sorted order (8 more); a CUDA method the float4
/// positions and velocities that load() and state() stage (32) and the State state() returns
/// (24). For memory checks made before a state is allocated.
std::uint64_t hostBytesPerBoid(const MethodInfo& method);

/// The host-memory check before a random start of n boids is made for `method`: its State (2 x 12
/// bytes per boid), the method's copies (hostBytesPerBoid) and `extraPerBoid` bytes per boid more
/// for `extraWhat` (a window's vertices; 0 and "" for none), counted together.
/// @throws OutOfMemoryError "<what>: the random start and <method>'s copies of it[ and <extraWhat>]
///   (<B> bytes per boid): needs ..." (requireHostMemory) when they do not fit.
void requireStartHostMemory(std::size_t n, const MethodInfo& method, const std::string& what,
                            std::uint64_t extraPerBoid = 0, const std::string& extraWhat = "");

/// The most cells autoTuning gives a grid for n boids of a method on `backend`: on the GPU 256 per boid, at
/// least 16^3, at most 2^31 - 1. Every step clears and scans every cell, so 50 boids in a cube of
/// scale 6400 took 6 minutes a step on 1280^3 cells of width 2 (found by a review). The scenes
/// measured have at most ~2.6 cells per boid (100K boids at scale 100: 40^3 x 4 cells); 100K boids
/// at scale 1260 has 138. On the CPU (cpu-grid, whose clear and scan are serial) half a cell per
/// boid, at least 64: in sparse scenes the fastest widths measured had 0.15 to 1.4 cells per boid
/// (2-core development machine, 2026-12-06: 200K boids at scale 1260 ran 13.3 steps/s at width 2,
/// 80 cells per boid, and 58.6 at 0.5; 20K at scale 600 186 against 564-730).
double maxAutoCells(std::size_t n, Backend backend);

/// Whether `method` can form boid groups at all (Tuning::groupRadius): counting and fast on CUDA
/// (GridWalk::Rows, Backend::Cuda).
bool formsGroups(const MethodInfo& method);

/// Whether `method` forms boid groups (Tuning::groupRadius) for n boids of p with tuning t:
/// formsGroups(method), t.groupRadius > 0, an open cube, and a per-boid walk that is warpGridKernel's
/// (not the octant walk of sparse coarse grids: octantLanes at the widest reach of the sort
/// interval, as the simulation decides it). The one test the simulation and the reports
/// (`flocklife boids --json`, the `bench boids` CSV) share.
/// @throws InputError as derive (invalid Params or Tuning, naming the flag, or a grid of more than
/// 2^31 - 1 cells) where formsGroups(method), t.groupRadius > 0 and the cube is open.
bool groupsRun(const MethodInfo& method, std::size_t n, const Params& p, const Tuning& t);

/// One running simulation. Not thread-safe. GPU simulations queue work on the legacy default
/// stream, or (counting, fast) on a stream of their own that synchronizes with it, so that CUDA
/// events and copies on the default stream stay ordered with every step.
class Simulation {
 public:
  virtual ~Simulation() = default;
  virtual const MethodInfo& info() const = 0;
  /// Copies `s` in (to the device for GPU methods). @throws InputError if s is empty, has boids
  /// outside the cube, or with the parameters could overflow float arithmetic or move a boid
  /// farther than the cube's width in one step (checkFits, checkArithmetic); OutOfMemoryError /
  /// CudaError.
  virtual void load(const State& s) = 0;
  /// Advances n steps (0 allowed). @throws CudaError (GPU methods); std::logic_error for an
  /// internal inconsistency a method checks (its message says so).
  virtual void step(std::uint64_t n) = 0;
  /// Advances at most n steps as step(n) does and returns the steps completed. CPU methods ask
  /// `stop` (may be empty; called from OpenMP threads, so it must be thread-safe and must not
  /// throw) within each step, every few tens of milliseconds of work, and once it answers true
  /// abandon the step under way and return: the state stays that of the last completed step (a
  /// step of cpu-naive at 300,000 boids takes minutes). GPU methods run step(n) whole, since their
  /// steps take milliseconds, and return n. @throws as step.
  virtual std::uint64_t stepUntilStopped(std::uint64_t n, const std::function<bool()>& /*stop*/) {
    step(n);
    return n;
  }
  /// Blocks until queued work is done (GPU); CPU methods return at once.
  virtual void synchronize() {}
  /// The current state in the boids' original order (the order given to load()). @throws
  /// CudaError (GPU methods); std::logic_error if the boid ids no longer form a permutation
  /// (internal error).
  virtual State state() const = 0;
  /// Writes numBoids() x 6 floats (x, y, z, r, g, b; world units; colour = velocityColour) into
  /// `out`, in an unspecified boid order. GPU methods accept a device pointer (outIsDevice, e.g.
  /// a mapped OpenGL VBO; the writes are queued on the default stream) or a host pointer; CPU
  /// methods accept only host pointers (std::invalid_argument otherwise).
  virtual void writeVertices(float* out, bool outIsDevice) = 0;
  virtual std::size_t numBoids() const = 0;
  /// Bytes of state memory held (device memory for GPU methods).
  virtual std::uint64_t stateBytes() const = 0;
  /// The boids whose neighbour sums the group kernel computed (boid groups, Tuning::groupRadius)
  /// in the last step since load() that formed groups (only sorting steps do): numBoids() minus
  /// the boids that step left to the per-boid walk. 0 where no such step ran (groupsRun false,
  /// or no step yet). GPU methods read the count from the device after the queued steps
  /// (blocking). @throws CudaError; std::logic_error for a count above numBoids() (internal error).
  virtual std::size_t boidsInGroups() const { return 0; }
};

/// Every method of this build (CPU methods always; GPU methods only when built with CUDA).
const std::vector<MethodInfo>& availableMethods();

/// The method called `name`, without creating it. @throws InputError("--method: unknown method
/// 'x'; available in this build: ...") for an unknown name.
const MethodInfo& findMethod(const std::string& name);

/// Creates the method called `name`. @throws InputError("--method: unknown method 'x'; available
/// in this build: ...") for an unknown name, InputError from derive (validate(params / tuning),
/// and a grid too large for a grid method).
std::unique_ptr<Simulation> makeSimulation(const std::string& name, const Params& params, const Tuning& tuning = {});

/// One step of the naive method on the host: the reference every method is tested against. Each
/// boid's sums run serially over j = 0..n-1 (as cpu-naive); boids are spread over OpenMP threads
/// for n >= 4096, which leaves the result bit-identical. No grid, so no grid size is refused.
/// @throws InputError from checkFits(s, p, "state") (checkArithmetic's bounds included) and
/// validate(p).
State stepReference(const State& s, const Params& p);

}  // namespace flocklife::boids
